// Entry point of the lab CLI (`npm run lab -- <command>`); the commands live in commands.ts.
import { main } from "./commands.js";

process.exitCode = await main(process.argv.slice(2));
