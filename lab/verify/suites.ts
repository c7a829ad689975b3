// The repository's own test suites that verify runs beside the stages. Each part defines its own suite
// (lab/test/suite.ts, site/test/suite.ts); this list is where verify learns of them.
import { siteSuite } from "../../site/test/suite.js";
import { labSuite } from "../test/suite.js";
import type { Suite } from "../vitest/projects.js";

export const SUITES: readonly Suite[] = [labSuite, siteSuite];
