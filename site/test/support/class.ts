// A class of 30 generated learners, as an instructor's folder would hold them: evidence folders and
// downloaded artifact zips, local runs and CI runs, own work, reference copies, failures, and the
// entries a careless or hostile class brings (odd names, a zip-slip entry, a damaged zip, a huge file,
// a zip bomb, a link out of the folder).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { deflateRawSync } from "node:zlib";
import { buildVerification } from "../../../lab/evidence/build.js";
import { crc32 } from "../../../lab/core/zip.js";
import { ROOT } from "../../../lab/core/layout.js";
import type { Verification } from "../../../lab/evidence/schema.js";
import type { CourseData, StageSummary } from "../../../lab/evidence/course-data.js";

export const LEARNERS = 30;

/** Writes a zip file with the given entries, deflated unless told to store them. */
export function writeZip(file: string, entries: ReadonlyArray<{ name: string; data: Buffer | string; store?: boolean }>): void {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = Buffer.from(entry.data);
    const stored = entry.store ? data : deflateRawSync(data);
    const name = Buffer.from(entry.name, "utf8");
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x800, 6);
    header.writeUInt16LE(entry.store ? 0 : 8, 8);
    header.writeUInt32LE(crc32(data), 14);
    header.writeUInt32LE(stored.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(entry.store ? 0 : 8, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(header, name, stored);
    centrals.push(central, name);
    offset += header.length + name.length + stored.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, Buffer.concat([...locals, directory, end]));
}

const sha = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");
const COMMIT = "f".repeat(40);

function stageOf(course: CourseData, nn: string): StageSummary {
  const stage = course.stages.find((candidate) => candidate.nn === nn);
  if (!stage) throw new Error(`stage ${nn} is not in the course`);
  return stage;
}

interface Run {
  readonly result: "pass" | "fail";
  readonly module: "own" | "reference";
  readonly ci: "none" | "github-hosted" | "self-hosted";
  readonly learner: string;
}

/** A verification.json as the reporter writes it, for one stage and one kind of run. */
export function evidenceText(course: CourseData, nn: string, run: Run): string {
  const stage = stageOf(course, nn);
  const module = stage.modules[0] ?? "";
  const reference = readFileSync(join(ROOT, "solutions", stage.id, "forge", "tools", `${module}.ts`));
  const bytes = run.module === "reference" ? reference : Buffer.from(`// ${run.learner}'s ${module}\n${reference.toString("utf8")}`);
  // The self-check asks only that each test's file is one of the stage's.
  const tests = stage.tests.map((name, index) => ({
    name,
    file: stage.testFiles[0] ?? "",
    status: run.result === "fail" && index === 0 ? ("failed" as const) : ("passed" as const),
    durationMs: 3,
    failure: run.result === "fail" && index === 0 ? { kind: "assertion" as const, message: "expected 1 to be 2" } : null,
  }));
  const repository = `class/${run.learner.replace(/[^\w.-]/g, "-") || "learner"}`;
  const record: Verification = buildVerification({
    stage: { id: stage.id, nn: stage.nn, slug: stage.id.replace(/^stage-\d\d-/, "") },
    target: "workspace",
    generatedAt: new Date("2026-05-01T10:00:00.000Z"),
    tools: { node: "v22.12.0", vitest: "4.1.12", forgeLab: "0.2.0" },
    git: run.ci === "none" ? null : { commit: COMMIT, dirty: false },
    run:
      run.ci === "none"
        ? null
        : {
            provider: "github-actions",
            url: `https://github.com/${repository}/actions/runs/77`,
            repository,
            runId: "77",
            runAttempt: 1,
            workflow: "forge-lab",
            event: "push",
            ref: "refs/heads/main",
            commit: COMMIT,
            runner: { os: "Linux", arch: "X64", name: "runner", environment: run.ci },
          },
    sources: [{ path: `workspace/forge/tools/${module}.ts`, sha256: sha(bytes) }],
    tests,
    loadErrors: [],
    complete: true,
    missingModules: [],
    contract: null,
  });
  return `${JSON.stringify(record, null, 2)}\n`;
}

const evidencePath = (stage: StageSummary) => `tools-sandbox-side-effects/${stage.id.replace(/^stage-/, "")}/verification.json`;

/** What each generated learner should get, by stage number: the report must show exactly this. */
export type Expected = Map<string, Record<string, string>>;

/** Writes 30 learners into `folder` and returns the cell labels the report must show for them. */
export function generateClass(course: CourseData, folder: string): Expected {
  const s01 = stageOf(course, "01");
  const s02 = stageOf(course, "02");
  const expected: Expected = new Map();
  const labels = (cells: Record<string, string>) => Object.fromEntries(course.stages.map((stage) => [stage.nn, cells[stage.nn] ?? "none"]));
  const kinds = ["local", "ci-zip", "copy", "self-hosted-zip", "failing", "empty"] as const;
  // 24 ordinary learners, six kinds of each.
  for (let index = 0; index < 24; index += 1) {
    const kind = kinds[index % kinds.length] ?? "empty";
    const learner = `learner-${String(index + 1).padStart(2, "0")}`;
    const text = (nn: string, run: Omit<Run, "learner">) => evidenceText(course, nn, { ...run, learner });
    if (kind === "local") {
      writeTree(join(folder, learner, "evidence"), {
        [evidencePath(s01)]: text("01", { result: "pass", module: "own", ci: "none" }),
        [evidencePath(s02)]: text("02", { result: "pass", module: "own", ci: "none" }),
      });
      expected.set(learner, labels({ "01": "passed", "02": "passed" }));
    } else if (kind === "ci-zip") {
      writeZip(join(folder, `${learner}.zip`), [
        { name: "README.md", data: "# Evidence\n" },
        { name: evidencePath(s01), data: text("01", { result: "pass", module: "own", ci: "github-hosted" }) },
        { name: evidencePath(s02), data: text("02", { result: "fail", module: "own", ci: "github-hosted" }) },
      ]);
      expected.set(learner, labels({ "01": "passed (CI)", "02": "not passed" }));
    } else if (kind === "copy") {
      writeTree(join(folder, learner), { [evidencePath(s01)]: text("01", { result: "pass", module: "reference", ci: "none" }) });
      expected.set(learner, labels({ "01": "not counted" }));
    } else if (kind === "self-hosted-zip") {
      writeZip(join(folder, `${learner}.zip`), [
        { name: evidencePath(s01), data: text("01", { result: "pass", module: "own", ci: "self-hosted" }), store: true },
      ]);
      expected.set(learner, labels({ "01": "passed (self-hosted CI)" }));
    } else if (kind === "failing") {
      writeTree(join(folder, learner), {
        [evidencePath(s01)]: text("01", { result: "fail", module: "own", ci: "none" }),
        [evidencePath(s02)]: "{ not json",
      });
      expected.set(learner, labels({ "01": "not passed", "02": "invalid" }));
    } else {
      mkdirSync(join(folder, learner), { recursive: true });
      expected.set(learner, labels({}));
    }
  }
  // Six learners a hostile or careless class brings.
  writeTree(join(folder, "__proto__"), {
    [evidencePath(s01)]: evidenceText(course, "01", { result: "pass", module: "own", ci: "none", learner: "__proto__" }),
  });
  expected.set("__proto__", labels({ "01": "passed" }));
  const formula = `=HYPERLINK("evil.example","click")`;
  writeTree(join(folder, formula), {
    [evidencePath(s01)]: evidenceText(course, "01", { result: "pass", module: "own", ci: "none", learner: "f" }),
  });
  expected.set(formula, labels({ "01": "passed" }));
  const markup = `<img src=x onerror=alert(1)> & "quotes"`;
  writeTree(join(folder, markup), { [evidencePath(s01)]: `${" ".repeat(2 * 1024 * 1024)}{}` });
  expected.set(markup, labels({ "01": "invalid" }));
  writeZip(join(folder, "zip-slip.zip"), [
    {
      name: `../../outside/${evidencePath(s01)}`,
      data: evidenceText(course, "01", { result: "pass", module: "own", ci: "none", learner: "slip" }),
    },
    { name: `/etc/${evidencePath(s02)}`, data: "{}" },
  ]);
  expected.set("zip-slip", labels({}));
  writeFileSync(join(folder, "damaged.zip"), Buffer.from("PK\u0003\u0004 this is not really a zip file at all, it is cut off"));
  expected.set("damaged", labels({}));
  writeZip(join(folder, "bomb.zip"), [{ name: evidencePath(s01), data: Buffer.alloc(20 * 1024 * 1024, 0x20) }]);
  expected.set("bomb", labels({ "01": "invalid" }));
  // Not learners: a stray file, and a link out of the folder.
  writeFileSync(join(folder, "notes.txt"), "remember to grade\n");
  symlinkSync(ROOT, join(folder, "linked-repository"), process.platform === "win32" ? "junction" : "dir");
  return expected;
}

function writeTree(root: string, files: Readonly<Record<string, string>>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}
