// The one line `npm test` prints for a command line it does not start vitest for, in the learner's
// language. Loaded only then, through tsx, by lab/bin/test.mjs: a run that starts pays nothing for it.
import { chooseLocale } from "../i18n/locale.js";
import type { CommandLineProblem } from "./command-line.mjs";
import { testWords } from "./words/index.js";

export function explainCommandLine(problem: CommandLineProblem, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const chosen = chooseLocale(env);
  // A FORGE_LANG that names no edition is said first; the problem itself then in English.
  const words = testWords("locale" in chosen ? chosen.locale : "en");
  const line = (() => {
    switch (problem.kind) {
      case "labOption":
        return words.labOption(problem.option, `npm run lab -- test ${problem.args.join(" ")}`);
      case "noSuchStage":
        return words.noSuchStage(problem.number, problem.first && problem.last ? { first: problem.first, last: problem.last } : null);
      case "unknownOption":
        return words.unknownOption(problem.message);
    }
  })();
  return "error" in chosen ? `${chosen.error}\nnpm test: ${line}` : `npm test: ${line}`;
}
