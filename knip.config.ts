// knip: no unused file, export or dependency. It judges the course's own files, the ones git tracks:
// a learner's module in workspace/, or a stray folder of theirs, is not the course's and must not make
// `npm run verify` fail (a learner module would also make its reference look unused, since the stage
// tests' editor settings resolve forge/tools/* to workspace/ first). Outside a git checkout (a
// downloaded archive) every file counts, as before.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

function trackedSources(): string[] | null {
  try {
    const listed = execFileSync("git", ["ls-files", "-z", "--", "*.ts", "*.mjs"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    return listed.split("\0").filter((file) => file !== "" && existsSync(file));
  } catch {
    return null;
  }
}

export default {
  $schema: "https://unpkg.com/knip@6/schema.json",
  entry: [
    "lab/bin/*.{ts,mjs}",
    "lab/trees/reference-hooks.ts",
    "lab/test/support/inject.mjs",
    "site/bin/*.ts",
    "site/client/main.ts",
    "site/client/home.ts",
    "site/client/selfcheck.ts",
    "stages/*/*.ts",
    "{lab,site}/test/vitest.config.ts",
    "{lab,site}/test/**/*.test.ts",
    "lab/mutation/typescript-5.mjs",
    "lab/mutation/vitest.config.ts",
  ],
  project: trackedSources() ?? ["**/*.{ts,mjs}"],
  ignore: ["faulty/**"],
  ignoreExportsUsedInFile: true,
  ignoreBinaries: ["fc-list", "mkfifo", "rg"],
  ignoreDependencies: ["@stryker-mutator/core", "@stryker-mutator/typescript-checker", "@stryker-mutator/vitest-runner"],
};
