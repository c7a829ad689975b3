// Entry point of the lab CLI (`npm run lab -- <command>`); the commands live in commands.ts.
import { chooseLocale } from "../i18n/locale.js";
import { main } from "./commands.js";

// The language of every message, chosen once: FORGE_LANG, else the system's. A FORGE_LANG that names no
// edition stops here, before any command reads or changes anything.
const chosen = chooseLocale();
if ("error" in chosen) {
  process.stderr.write(`${chosen.error}\n`);
  process.exit(2);
}

// `npm run lab -- status | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2), undefined, chosen.locale);
