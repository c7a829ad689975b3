#!/usr/bin/env node
// The package's `forge-lab` command: the lab CLI, run through tsx like `npm run lab`.
import { register } from "tsx/esm/api";

register();
await import("../cli/main.ts");
