// A checkout whose text files all have CRLF endings (a Windows clone made before .gitattributes, or by
// a tool that ignores it) verifies green: the checks that compare text — generated files, the lessons'
// generated blocks, spec completeness, the one-change fault patches, the Chinese twins' parity — see
// the same content, and a stage's tests pass against its reference. What this does not run is the rest
// of verify on the copy (its suites and the type-check do not read line endings); `npm run lint` would
// name each CRLF file for `npm run format`, rightly, since the repository's files are LF
// (.gitattributes says so).
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { staleGenerated } from "../../authoring/generated.js";
import { loadCatalog } from "../../catalog/load.js";
import { layoutOf } from "../../core/layout.js";
import { readVerification } from "../../evidence/schema.js";
import { judgeEditions, judgeTwin } from "../../verify/judges/editions.js";
import { judgePatches } from "../../verify/judges/patches.js";
import { judgeSpec } from "../../verify/judges/spec.js";
import { childEnvironment } from "../support/child.js";
import { copyRepository, SLOW } from "../support/cli.js";

/** The paths .gitattributes keeps binary (each `<glob> binary` line): everything else is text, and gets CRLF here. */
function binaryPaths(copy: string): RegExp {
  const globs = readFileSync(join(copy, ".gitattributes"), "utf8")
    .split("\n")
    .map((line) => /^(\S+)\s+binary\b/.exec(line.trim())?.[1])
    .filter((glob) => glob !== undefined);
  // A glob without a slash matches a file's name in any folder; one with a slash, its whole path.
  const regex = (glob: string) =>
    `${glob.includes("/") ? "^" : "(?:^|/)"}${glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`;
  return new RegExp(globs.map(regex).join("|"));
}

function toCrlf(copy: string): string[] {
  const binary = binaryPaths(copy);
  const converted: string[] = [];
  const visit = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.name === "node_modules" || entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile() && !binary.test(path.slice(copy.length + 1))) {
        const text = readFileSync(path, "utf8");
        writeFileSync(path, text.replace(/\r?\n/g, "\r\n"));
        converted.push(path.slice(copy.length + 1));
      }
    }
  };
  visit(copy);
  return converted;
}

it(
  "verifies a checkout whose text files all have CRLF endings: generated files, lessons, specs, faults and a stage",
  SLOW,
  async (context) => {
    const copy = copyRepository(context);
    const converted = toCrlf(copy);
    expect(converted, "files converted to CRLF").toContain("stages/stage-10-output-decoding/README.md");
    expect(converted, "the GBK fixture stays binary").not.toContain("fixtures/scenarios/music-creation/render-report.gbk");
    expect(converted, "the UTF-8 stress test stays byte for byte").not.toContain("fixtures/outside/utf8-stress-test/UTF-8-test.txt");
    expect(readFileSync(join(copy, "stages", "stage-01-capability-registry", "README.md"), "utf8"), "a lesson in the copy").toMatch(/\r\n/);

    const catalog = loadCatalog(layoutOf(copy));
    expect(catalog.problems, "catalog problems of the CRLF checkout").toEqual([]);
    expect(staleGenerated(catalog), "generated files the CRLF checkout calls stale").toEqual([]);
    const findings = Object.fromEntries(
      catalog.stages.map((stage) => [
        stage.id,
        [...judgeSpec(stage, catalog.problems, undefined).problems, ...judgePatches(stage), ...judgeTwin(stage).problems],
      ]),
    );
    expect(judgeEditions(catalog).problems, "the Chinese pages of the CRLF checkout").toEqual([]);
    expect(findings, "spec, fault and Chinese-twin findings per stage in the CRLF checkout").toEqual(
      Object.fromEntries(catalog.stages.map((stage) => [stage.id, []])),
    );

    // Stage 10 reads text fixtures (now CRLF) beside its binary GBK one.
    const env = childEnvironment();
    const run = await new Promise<{ status: number; output: string }>((resolve) =>
      execFile(
        process.execPath,
        [join(copy, "node_modules", "vitest", "vitest.mjs"), "run", "stage-10"],
        { cwd: copy, env: { ...env, CI: "true", NO_COLOR: "1", FORGE_TARGET: "solution" }, timeout: 100_000 },
        (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
      ),
    );
    expect(run.status, `stage 10 against its reference in the CRLF checkout:\n${run.output}`).toBe(0);
    const evidence = readVerification(
      JSON.parse(
        readFileSync(join(copy, "evidence", "tools-sandbox-side-effects", "10-output-decoding", "verification.solution.json"), "utf8"),
      ),
    );
    expect(evidence.ok && evidence.verification.acceptance, "stage 10's acceptance in the CRLF checkout").toBe("passed");
  },
);
