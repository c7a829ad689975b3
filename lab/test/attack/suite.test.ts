// The attack suite against the reference and two releases of the official filesystem server, each in
// its own temporary folder: every case class in full, the traversal lists by their fixed sample
// (PAYLOAD_SAMPLE_STEP; `npm run lab -- mcp-attack` attacks with all of them). What it must reproduce
// is what each release is known for: 2025.3.28 leaks through the prefix sibling (CVE-2025-53110) and
// through symlinks (CVE-2025-53109); 2026.8.31 leaks the four suffix-strip siblings
// (GHSA-7rgq-gccq-qphx) and nothing else; the reference leaks nothing. Every positive control passes
// on all three, or the zeros would mean nothing.
import { beforeAll, expect, it } from "vitest";
import { attack, CASE_CLASSES, type CaseClass, type ServerRun } from "../../attack/suite.js";
import { attackPassed, printAttack } from "../../cli/attack.js";
import { main } from "../../cli/commands.js";
import { cliWords } from "../../cli/words/index.js";

type Measured = Extract<ServerRun, { kind: "measured" }>;
const runs: Record<"reference" | "2025.3.28" | "2026.8.31", Measured> = {} as never;

// Three servers started and attacked (a few thousand calls each), side by side: seconds on a loaded machine.
beforeAll(async () => {
  const names = ["reference", "2025.3.28", "2026.8.31"] as const;
  const measured = await Promise.all(names.map((name) => attack(name, { payloads: "sample" })));
  for (const [index, name] of names.entries()) {
    const run = measured[index];
    if (run?.kind !== "measured") throw new Error(`${name} could not be attacked: ${JSON.stringify(run)}`);
    runs[name] = run;
  }
}, 120_000);

const escapesByClass = (run: Measured) => Object.fromEntries(CASE_CLASSES.map((name) => [name, run.classes[name].escapes]));
const leakingClasses = (run: Measured) => CASE_CLASSES.filter((name) => run.classes[name].escapes > 0);
const failedControls = (run: Measured) => run.controls.filter((control) => control.problem !== null);
/** The classes a run attempted nothing in, though no reason says it could not. */
const unattempted = (run: Measured) =>
  CASE_CLASSES.filter((name) => run.classes[name].attempts === 0 && run.classes[name].pending === null);

it("lets nothing escape the reference server, in any case class, while every positive control succeeds", () => {
  const run = runs.reference;
  expect(failedControls(run), "the reference's positive controls that failed").toEqual([]);
  expect(run.controls.length, "the reference's positive controls made").toBeGreaterThan(0);
  expect(unattempted(run), "case classes the reference was not attacked in").toEqual([]);
  const first = CASE_CLASSES.flatMap((name) => run.classes[name].first);
  expect({ escapes: escapesByClass(run), first }, "the reference's escapes per class, and the first of them").toEqual({
    escapes: Object.fromEntries(CASE_CLASSES.map((name) => [name, 0])),
    first: [],
  });
  expect(run.tried, "the tools the suite tried on the reference").toEqual([
    "list_directory",
    "read_text_file",
    "search_files",
    "run_command",
    "write_file",
  ]);
  expect(run.approvals, "approvals the attack client accepted (write_file asks for each)").toBeGreaterThan(0);
});

it("reproduces 2025.3.28's escapes through the prefix sibling and through symlinks, with every positive control succeeding", () => {
  const run = runs["2025.3.28"];
  expect(failedControls(run), "2025.3.28's positive controls that failed").toEqual([]);
  expect(unattempted(run), "case classes 2025.3.28 was not attacked in").toEqual([]);
  const leaks = (name: CaseClass) => run.classes[name].escapes > 0;
  expect(
    {
      "prefix-sibling": leaks("prefix-sibling"),
      symlink: leaks("symlink"),
      "late-symlink": leaks("late-symlink"),
      "write-through-symlink": leaks("write-through-symlink"),
    },
    `whether 2025.3.28 leaks in each class (escapes: ${JSON.stringify(escapesByClass(run))})`,
  ).toEqual({ "prefix-sibling": true, symlink: true, "late-symlink": true, "write-through-symlink": true });
});

it("reproduces 2026.8.31's escapes through the four suffix-strip siblings and nowhere else, with every positive control succeeding", () => {
  const run = runs["2026.8.31"];
  expect(failedControls(run), "2026.8.31's positive controls that failed").toEqual([]);
  expect(unattempted(run), "case classes 2026.8.31 was not attacked in").toEqual([]);
  expect(leakingClasses(run), `the classes 2026.8.31 leaks in (escapes: ${JSON.stringify(escapesByClass(run))})`).toEqual(["suffix-strip"]);
  expect(run.classes["suffix-strip"].reached, "the siblings 2026.8.31 let out, by the fixture's labels").toEqual([
    "suffix-apostrophe",
    "suffix-quote",
    "suffix-space",
    "suffix-tab",
  ]);
});

it("prints the table with every column, the consent line, and exit status 0 when the reference leaks nothing", () => {
  const lines: string[] = [];
  const output = { out: (line = "") => lines.push(line), err: () => undefined };
  const learner: ServerRun = { kind: "not written", name: "learner", module: "workspace/forge/tools/server.ts" };
  const all = [learner, runs.reference, runs["2025.3.28"], runs["2026.8.31"]];
  const status = printAttack(all, "sample", output, cliWords("en"));
  expect(status, `the exit status (printed: ${lines.join("\n")})`).toBe(0);
  expect(attackPassed(all), "whether the run passes").toBe(true);
  const header = lines.find((line) => line.startsWith("case class"));
  expect(header?.split(/ {2,}/), "the table's header").toEqual(["case class", "learner", "reference", "2025.3.28", "2026.8.31"]);
  const words = cliWords("en").attack;
  const row = (label: string) =>
    lines
      .find((line) => line.startsWith(label))
      ?.split(/ {2,}/)
      .slice(1);
  const cell = (run: Measured, name: CaseClass) =>
    run.classes[name].pending !== null && run.classes[name].attempts === 0
      ? "pending"
      : `${run.classes[name].escapes}/${run.classes[name].attempts}`;
  expect(
    Object.fromEntries(CASE_CLASSES.map((name) => [name, row(words.classes[name])])),
    "the table's rows: the learner, the reference, 2025.3.28, 2026.8.31",
  ).toEqual(
    Object.fromEntries(
      CASE_CLASSES.map((name) => [
        name,
        ["not written", cell(runs.reference, name), cell(runs["2025.3.28"], name), cell(runs["2026.8.31"], name)],
      ]),
    ),
  );
  expect(lines, "the line saying the client approves everything").toContain(cliWords("en").attack.consent);
  const leaky = printAttack(
    [
      {
        ...runs.reference,
        classes: { ...runs.reference.classes, symlink: { attempts: 1, escapes: 1, pending: null, first: [], reached: ["linked"] } },
      },
    ],
    "sample",
    output,
    cliWords("en"),
  );
  expect(leaky, "the exit status when the reference lets one thing escape").toBe(1);
});

it("refuses a server mcp-attack does not know, naming the four, with exit status 2", async () => {
  const errors: string[] = [];
  const status = await main(["mcp-attack", "--server", "2024.1.1"], { out: () => undefined, err: (line = "") => errors.push(line) });
  expect({ status, errors }, "what mcp-attack --server 2024.1.1 answers").toEqual({
    status: 2,
    errors: ['"2024.1.1" is not a server of mcp-attack. Servers: learner, reference, 2025.3.28, 2026.8.31'],
  });
});
