// Entry point of the lab CLI (`npm run lab -- <command>`); the commands live in commands.ts.
import { main } from "./commands.js";

// `npm run lab -- status | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2));
