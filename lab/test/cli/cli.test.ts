// The lab CLI, run as a learner or instructor runs it, in a temporary copy of the repository, so no
// real workspace, evidence or backup is touched.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it, vi } from "vitest";
import { loadCatalog } from "../../catalog/load.js";
import { dirs, layoutOf } from "../../core/layout.js";
import { enginesRange, supportedLines } from "../../core/node-lines.js";
import { colourEnvironment, displayWidth, paint } from "../../core/style.js";
import { judgePatches } from "../../verify/judges/patches.js";
import { judgeSpec } from "../../verify/judges/spec.js";
import { main } from "../../cli/commands.js";
import { checkChineseFont, checkNode, checkTsconfig, printDoctor, probeChineseFont } from "../../cli/doctor.js";
import { cliWords } from "../../cli/words/index.js";
import { optionProblem } from "../../cli/shared.js";
import { copyRepository, lab, labInProcess, reference, SLOW, snapshot, tools, type Run } from "../support/cli.js";

it.concurrent("start refuses to overwrite a modified learner file without --yes, and changes nothing", SLOW, async (context) => {
  const copy = copyRepository(context);
  mkdirSync(tools(copy), { recursive: true });
  writeFileSync(join(tools(copy), "registry.ts"), "// my own registry, not finished\n");
  const before = snapshot(join(copy, "workspace"));
  const run = await lab(copy, ["start", "3"]);
  expect(run.status, run.stderr).toBe(1);
  expect(run.stdout).toMatch(/overwrite +workspace\/forge\/tools\/registry\.ts/);
  expect(run.stdout).toMatch(/create +workspace\/forge\/tools\/paths\.ts/);
  expect(run.stderr).toContain("Refusing to overwrite workspace/forge/tools/registry.ts without consent: rerun with --yes");
  expect(snapshot(join(copy, "workspace"))).toEqual(before);
  expect(existsSync(join(copy, ".lab", "backups"))).toBe(false);
});

it.concurrent(
  "start --yes keeps a backup of the original bytes, and restore brings them back and removes what start created",
  SLOW,
  async (context) => {
    const copy = copyRepository(context);
    mkdirSync(tools(copy), { recursive: true });
    const mine = "// my own registry, not finished\n";
    writeFileSync(join(tools(copy), "registry.ts"), mine);
    const started = await lab(copy, ["start", "stage-03", "--yes"]);
    expect(started.status, started.stderr).toBe(0);
    expect(readFileSync(join(tools(copy), "registry.ts"))).toEqual(reference(copy, "stage-01-capability-registry", "registry"));
    expect(readFileSync(join(tools(copy), "paths.ts"))).toEqual(reference(copy, "stage-02-workspace-path-policy", "paths"));
    expect(existsSync(join(tools(copy), "plans.ts")), "start 3 stops before stage 03's own module").toBe(false);
    const [backup] = readdirSync(join(copy, ".lab", "backups"));
    expect(backup).toBeDefined();
    expect(readFileSync(join(copy, ".lab", "backups", backup ?? "", "files", "forge", "tools", "registry.ts"), "utf8")).toBe(mine);
    expect(started.stdout).toContain(`npm run lab -- restore ${backup}`);

    const restored = await lab(copy, ["restore"]);
    expect(restored.status, restored.stderr).toBe(0);
    expect(readFileSync(join(tools(copy), "registry.ts"), "utf8")).toBe(mine);
    expect(existsSync(join(tools(copy), "paths.ts"))).toBe(false);
    const again = await lab(copy, ["restore"]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/no backup left to restore/);
  },
);

it.concurrent("start leaves the workspace exactly as before when a write fails in the middle", SLOW, async (context) => {
  const copy = copyRepository(context);
  mkdirSync(tools(copy), { recursive: true });
  writeFileSync(join(tools(copy), "registry.ts"), "// my own registry\n");
  const before = snapshot(join(copy, "workspace"));
  // The second rename of a workspace file fails, as a disk that went away would.
  const run = await lab(copy, ["start", "4", "--yes"], {
    inject: [{ call: "rename", path: "/workspace/forge/tools/", from: 2, do: "fail:EIO" }],
  });
  expect(run.status, run.stdout).toBe(1);
  expect(run.stderr).toMatch(/start failed and workspace\/ was rolled back, unchanged: EIO: injected failure/);
  expect(snapshot(join(copy, "workspace"))).toEqual(before);
  expect(readdirSync(join(copy, ".lab", "backups"))).toEqual([]);
});

it.concurrent("fault reproduces the contract, names the target test and exits 0", SLOW, async (context) => {
  const copy = copyRepository(context);
  const run = await lab(copy, ["fault", "1"]);
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain("target test       rejects a tool that declares an unknown capability");
  expect(run.stdout).toMatch(
    /✘ rejects a tool that declares an unknown capability\n +defineTool\("shell", capabilities\) with a capability outside the vocabulary, not refused with an error containing "invalid": expected \{ '\["root"\]': 'no error; returned tool "shell" with capabilities \[root\]'/,
  );
  expect(run.stdout, "the fault's patch removes the validation").toContain("-  const unknown = unknownCapabilities(declared);");
  expect(run.stdout).toContain("fault reproduced — this is not a fix");
});

it.concurrent("fault --check says not fixed for the copied faulty module and fixed once it is repaired", SLOW, async (context) => {
  const copy = copyRepository(context);
  const opened = await lab(copy, ["fault", "04", "--open"]);
  expect(opened.status, opened.stderr).toBe(0);
  const repair = join(copy, "faultlab", "stage-04-approval-gate", "forge", "tools", "approval.ts");
  // The fault's module, made from its patch: the reference with the one injected change.
  expect(readFileSync(repair)).toEqual(
    readFileSync(join(copy, ".lab", "faults", "stage-04-approval-gate", "stale-approval", "forge", "tools", "approval.ts")),
  );
  const unrepaired = await lab(copy, ["fault", "04", "--check"]);
  expect(unrepaired.status).toBe(1);
  expect(unrepaired.stdout).toMatch(/^not fixed: /m);
  // A repair with a stray brace is type-checked as a workspace is: one line, no parser dump.
  writeFileSync(repair, `${reference(copy, "stage-04-approval-gate", "approval").toString()}\n}\n`);
  const broken = await lab(copy, ["fault", "04", "--check"]);
  expect(broken.status, broken.stdout).toBe(1);
  const brokenLines = broken.stdout.split("\n").filter((line) => line.includes("did not load"));
  expect(brokenLines.length, `one line per test file that did not load:\n${broken.stdout}`).toBe(2);
  expect(brokenLines[0], "the line names the file, line and column of the first error").toMatch(
    /faultlab\/stage-04-approval-gate\/forge\/tools\/approval\.ts:\d+:\d+ syntax error TS1128: /,
  );
  writeFileSync(repair, reference(copy, "stage-04-approval-gate", "approval"));
  const repaired = await lab(copy, ["fault", "04", "--check"]);
  expect(repaired.status, repaired.stdout).toBe(0);
  expect(repaired.stdout).toMatch(/^fixed: all \d+ tests of stage-04-approval-gate pass/m);
  const reopened = await lab(copy, ["fault", "04", "--open"]);
  expect(reopened.status, "a repair in progress is not overwritten without --yes").toBe(1);
});

const ENGLISH = cliWords("en");

/** The CLI in this process, its output captured: for commands that only read. */
async function labHere(args: readonly string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await main(args, { out: (line = "") => out.push(line), err: (line = "") => err.push(line) });
  return { status, signal: null, stdout: out.join("\n"), stderr: err.join("\n") };
}

it("exits 2 for an unknown stage, command or target, naming the valid ones", async () => {
  const stage = await labHere(["hint", "stage-99"]);
  expect(stage.status).toBe(2);
  expect(stage.stderr).toContain('"stage-99" is not a stage. Stages: stage-01-capability-registry, stage-02-workspace-path-policy');
  const command = await labHere(["teleport"]);
  expect(command.status).toBe(2);
  expect(command.stderr).toContain(
    '"teleport" is not a command. Commands: status, start, restore, fault, hint, test, export, class, verify, doctor, new',
  );
  const target = await labHere(["test", "1", "--target", "reference"]);
  expect(target.status).toBe(2);
  expect(target.stderr).toContain('--target="reference" is not a target. Use one of: workspace, solution, faulty, start');
  const option = await labHere(["start", "1", "--force"]);
  expect(option.status).toBe(2);
  expect(option.stderr).toMatch(/Unknown option '--force'.*See: npm run lab -- start --help/);
});

it("lists a stage's faults, the default first, and names them when asked for one it lacks", async () => {
  const list = await labHere(["fault", "5", "--list"]);
  expect(list.status, list.stderr).toBe(0);
  expect(list.stdout.trimEnd().split("\n"), "fault 5 --list").toEqual([
    'unlooped-short-write  default  caught by "writes every byte when the file system accepts one byte per call"',
    'partial-write                  caught by "replaces the whole file and leaves no temporary file"',
  ]);
  const unknown = await labHere(["fault", "5", "constructor"]);
  expect(unknown.status, "exit code for a fault the stage lacks").toBe(2);
  expect(unknown.stderr, "what fault 5 constructor says").toContain(
    'stage-05-atomic-write has no fault "constructor". Its faults: unlooped-short-write, partial-write',
  );
});

it("answers --help for every command with its usage and an example where it takes a stage", SLOW, async () => {
  const overview = await labHere(["--help"]);
  expect(overview.status).toBe(0);
  for (const command of ["status", "start", "restore", "fault", "hint", "test", "export", "class", "verify", "doctor", "new"]) {
    expect(overview.stdout, command).toContain(`  ${command}`);
    const help = await labHere([command, "--help"]);
    expect(help.status, command).toBe(0);
    expect(help.stdout, command).toMatch(new RegExp(`^Usage: npm run lab -- ${command}`));
  }
  expect((await labHere(["start", "--help"])).stdout).toContain("Example: npm run lab -- start 4");
});

it.concurrent("hint shows the next graded hint and remembers it between runs", SLOW, async (context) => {
  const copy = copyRepository(context);
  const hints = (
    JSON.parse(readFileSync(join(copy, "stages", "stage-02-workspace-path-policy", "stage.json"), "utf8")) as { hints: string[] }
  ).hints;
  const first = await labInProcess(copy, ["hint", "2"]);
  expect(first.stdout.trim(), "the first hint of stage 02, and what comes next").toBe(
    `Stage 02 (workspace-path-policy), hint 1 of ${hints.length}: ${hints[0]}\n(The same command shows hint 2 of ${hints.length} next; --all shows every one.)`,
  );
  const second = await labInProcess(copy, ["hint", "02"]);
  expect(second.stdout.trim().split("\n")[0], "the second call: the next hint").toBe(
    `Stage 02 (workspace-path-policy), hint 2 of ${hints.length}: ${hints[1]}`,
  );
  const other = await labInProcess(copy, ["hint", "1"]);
  expect(other.stdout, "another stage keeps its own place").toMatch(/^Stage 01 \(capability-registry\), hint 1 of /);
  // A FIFO where the remembered places belong is refused, never read (reading it would wait forever).
  rmSync(join(copy, ".lab", "hints.json"));
  execFileSync("mkfifo", [join(copy, ".lab", "hints.json")]);
  const fifo = await lab(copy, ["hint", "1"]);
  expect(`${fifo.status} ${fifo.stderr.trim()}`, "hint with a FIFO for .lab/hints.json").toBe(
    "1 .lab/hints.json is a FIFO, not a file: move it out of the way and run the command again.",
  );
});

it.concurrent("status shows each stage's module, evidence, state and next step", SLOW, async (context) => {
  const copy = copyRepository(context);
  mkdirSync(tools(copy), { recursive: true });
  // The learner's own registry: the reference's behaviour, in their own words (here, one more comment).
  writeFileSync(
    join(tools(copy), "registry.ts"),
    `// my registry\n${reference(copy, "stage-01-capability-registry", "registry").toString()}`,
  );
  const status = await labInProcess(copy, ["status"]);
  expect(status.status).toBe(0);
  expect(status.stdout).toMatch(/01 capability-registry +registry\.ts ✔ +none +in progress +run npm test -- stage-01/);
  expect(status.stdout).toMatch(
    /02 workspace-path-policy +paths\.ts · +none +not started +read stages\/stage-02-workspace-path-policy\/README\.md/,
  );
});

it.concurrent(
  'status calls the stages that start copied "copied by start", never passed, even after their tests pass',
  SLOW,
  async (context) => {
    const copy = copyRepository(context);
    const started = await lab(copy, ["start", "5", "--yes"]);
    expect(started.status, started.stderr).toBe(0);
    const tested = await lab(copy, ["test", "5", "--previous"]);
    expect(tested.status, "stage 05's own module is missing, so the run fails").toBe(1);
    const evidence = (stage: string) =>
      JSON.parse(readFileSync(join(copy, "evidence", "tools-sandbox-side-effects", stage, "verification.json"), "utf8")) as {
        acceptance: string;
      };
    expect(evidence("02-workspace-path-policy").acceptance, "the copied reference passes its tests").toBe("passed");
    expect(evidence("05-atomic-write").acceptance, "a stage whose module is missing is pending, not failed").toBe("pending");
    const status = await labInProcess(copy, ["status"]);
    const states = Object.fromEntries(
      status.stdout
        .split("\n")
        .slice(1)
        .map((line) =>
          /^(\d\d) \S+ +.+?  +(?:passed|pending|failed|none|unreadable)(?: \([^)]*\))? +(not started|copied by start|in progress|failing|passed|changed since passing) /.exec(
            line,
          ),
        )
        .filter((match) => match !== null)
        .map((match) => [match[1], match[2]]),
    );
    const expected = Object.fromEntries(
      loadCatalog().stages.map((stage) => [stage.nn, stage.number < 5 ? "copied by start" : "not started"]),
    );
    expect(states, status.stdout).toEqual(expected);
    expect(status.stdout).toContain("workspace/forge/tools/registry.ts is the course's reference, not your work");
  },
);

it.concurrent(
  "speaks Chinese in the zh-CN edition: status's table and states, hint's Chinese hints, and an error under FORGE_LANG=zh-CN",
  SLOW,
  async (context) => {
    const copy = copyRepository(context);
    mkdirSync(tools(copy), { recursive: true });
    writeFileSync(join(tools(copy), "registry.ts"), "// my registry, in progress\n");
    const zh = { env: { FORGE_LANG: "zh-CN" } };

    const status = await labInProcess(copy, ["status"], "zh-CN");
    expect(status.status, `exit status of status in Chinese:\n${status.stderr}`).toBe(0);
    expect(status.stdout.split("\n")[0]?.split(/ {2,}/), "the header of the status table").toEqual([
      "阶段",
      "工作区模块",
      "最近的证据",
      "状态",
      "下一步",
    ]);
    expect(status.stdout, "stage 01's row: in progress").toMatch(
      /^01 capability-registry +registry\.ts ✔ +无 +进行中 +运行 npm test -- stage-01$/m,
    );
    expect(status.stdout, "stage 02's row: not started, pointing to the Chinese lesson").toMatch(
      /^02 workspace-path-policy +paths\.ts · +无 +未开始 +先读 stages\/stage-02-workspace-path-policy\/README\.zh-CN\.md，再创建 workspace\/forge\/tools\/paths\.ts$/m,
    );
    const columns = status.stdout
      .split("\n")
      .slice(0, 3)
      .map((line) => displayWidth(line.slice(0, line.search(/进行中|未开始|状态/))));
    expect(new Set(columns).size, `the state column starts at one terminal column on every line:\n${status.stdout}`).toBe(1);

    const hints = (
      JSON.parse(readFileSync(join(copy, "stages", "stage-02-workspace-path-policy", "stage.json"), "utf8")) as {
        "zh-CN": { hints: string[] };
      }
    )["zh-CN"].hints;
    const hint = await labInProcess(copy, ["hint", "2"], "zh-CN");
    expect(hint.stdout.trim(), "the first hint of stage 02 in Chinese, and what comes next").toBe(
      `阶段 02（workspace-path-policy），第 1 条提示（共 ${hints.length} 条）：${hints[0]}\n（再运行同一命令会显示第 2 条，共 ${hints.length} 条；加 --all 显示全部。）`,
    );

    // The edition chosen by FORGE_LANG, in a process of its own as a learner runs it.
    const unknown = await lab(copy, ["hint", "stage-99"], zh);
    expect(`${unknown.status} ${unknown.stderr}`, "hint stage-99 in Chinese").toMatch(
      /^2 “stage-99”不是阶段。可用的阶段：stage-01-capability-registry、stage-02-workspace-path-policy、.*（也可以写编号，例如 4）\n$/,
    );
  },
);

it.concurrent("follows the system's locale when FORGE_LANG is unset: LANG=zh_CN.UTF-8 gives Chinese", SLOW, async (context) => {
  const copy = copyRepository(context);
  const list = await lab(copy, ["fault", "5", "--list"], {
    env: { FORGE_LANG: undefined, LC_ALL: undefined, LC_MESSAGES: undefined, LANG: "zh_CN.UTF-8" },
  });
  expect(list.status, list.stderr).toBe(0);
  expect(list.stdout.trimEnd().split("\n"), "fault 5 --list under LANG=zh_CN.UTF-8").toEqual([
    "unlooped-short-write  默认  由“writes every byte when the file system accepts one byte per call”发现",
    "partial-write               由“replaces the whole file and leaves no temporary file”发现",
  ]);
});

it.concurrent(
  "refuses a FORGE_LANG that names no edition in one line, with exit status 2, before changing anything",
  SLOW,
  async (context) => {
    const copy = copyRepository(context);
    mkdirSync(tools(copy), { recursive: true });
    writeFileSync(join(tools(copy), "registry.ts"), "// my own registry\n");
    const before = snapshot(join(copy, "workspace"));
    const run = await lab(copy, ["start", "3", "--yes"], { env: { FORGE_LANG: "fr", LC_ALL: "en_US.UTF-8" } });
    expect(run.status, "exit status with FORGE_LANG=fr").toBe(2);
    expect(run.stderr, "what FORGE_LANG=fr says").toBe(
      `FORGE_LANG="fr" names no edition of the course: use one of en, zh-CN, or leave it unset to follow the system's language.\n`,
    );
    expect(run.stdout, "standard output with FORGE_LANG=fr").toBe("");
    expect(snapshot(join(copy, "workspace")), "workspace/ after start with FORGE_LANG=fr").toEqual(before);
    expect(existsSync(join(copy, ".lab")), ".lab/ (lock, backups) after start with FORGE_LANG=fr").toBe(false);
  },
);

it.concurrent("new scaffolds a stage whose files are all valid, and verify lists every piece still to write", SLOW, async (context) => {
  const copy = copyRepository(context);
  const run = await labInProcess(copy, ["new", "13", "sandbox-profile", "--module", "profile"]);
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain("Next: npm run verify -- stage-13-sandbox-profile lists what to write, piece by piece.");
  const layout = layoutOf(copy);
  const catalog = loadCatalog(layout);
  const stage = catalog.stages.find((candidate) => candidate.id === "stage-13-sandbox-profile");
  expect(catalog.problems, "the scaffold's stage.json and failure.json are valid against their schemas").toEqual([]);
  if (!stage) throw new Error("the new stage is not in the catalog");
  expect(readFileSync(join(copy, "tsconfig.json"), "utf8"), "tsconfig.json maps forge/tools/* to the new reference too").toContain(
    "./solutions/stage-13-sandbox-profile/forge/tools/*",
  );
  const spec = judgeSpec(stage, catalog.problems, undefined);
  expect(spec.ok, "a scaffolded stage is not complete").toBe(false);
  expect(spec.problems.filter((problem) => problem.includes("PLACEHOLDER")).length, spec.problems.join("\n")).toBeGreaterThanOrEqual(20);
  expect(spec.problems).toContainEqual(
    expect.stringMatching(
      /^stages\/stage-13-sandbox-profile\/README\.md:\d+ still holds the scaffold's PLACEHOLDER: write the "The problem" section/,
    ),
  );
  expect(spec.problems, "the scaffolded fault is a placeholder patch to write").toContainEqual(
    expect.stringMatching(
      /^faulty\/stage-13-sandbox-profile\/placeholder-fault\.patch:\d+ still holds the scaffold's .*PLACEHOLDER: the injected fault/,
    ),
  );
  expect(judgePatches(stage), "the placeholder patch applies to the stub").toEqual([]);
  const again = await labInProcess(copy, ["new", "13", "other-thing"]);
  expect(again.status).toBe(2);
  expect(again.stderr).toContain("stage 13 exists already: stage-13-sandbox-profile");
  const badSlug = await labInProcess(copy, ["new", "13", "Not A Slug"]);
  expect(badSlug.stderr).toContain('"Not A Slug" is not a slug');
});

it("checks the Node.js version against package.json's engines range with semver", () => {
  const RANGE = "^20.19.0 || ^22.15.0 || ^24.0.0 || ^26.0.0";
  const verdicts = Object.fromEntries(
    ["20.18.3", "20.19.0", "21.7.3", "22.12.0", "22.15.0", "24.0.0-pre", "24.1.0", "25.2.1", "26.12.1", "18.20.4"].map((version) => [
      version,
      checkNode(version, RANGE, ENGLISH).ok,
    ]),
  );
  expect(verdicts, `supported by ${RANGE}, by version`).toEqual({
    "20.18.3": false,
    "20.19.0": true,
    "21.7.3": false,
    "22.12.0": false,
    "22.15.0": true,
    "24.0.0-pre": false,
    "24.1.0": true,
    "25.2.1": false,
    "26.12.1": true,
    "18.20.4": false,
  });
  expect(checkNode("22.12.0", RANGE, ENGLISH).detail, "what doctor says of an old Node").toBe(
    `package.json engines asks for ${RANGE}: install a current Node.js 20, 22, 24 or 26`,
  );
  expect(supportedLines(enginesRange()), "the lines package.json's engines admits").toEqual([20, 22, 24, 26]);
});

it("doctor passes workspace/tsconfig.json only when it is a file TypeScript can read", () => {
  const file = (text: string) => ({ kind: "file", bytes: Buffer.from(text), mode: 0o644 }) as const;
  const verdict = (state: Parameters<typeof checkTsconfig>[0]) => {
    const finding = checkTsconfig(state, ENGLISH);
    return `${finding.ok ? "ok" : "not ok"}: ${finding.detail}`;
  };
  const committed = readFileSync(join(dirs.workspace, "tsconfig.json"), "utf8");
  expect(verdict(file(committed)), "the committed file").toBe("ok: present: your editor checks workspace/ with the settings the tests use");
  expect(
    verdict(file('{\n  // a learner\'s note\n  "extends": "../tsconfig.json", /* kept */\n}\n')),
    "comments and a trailing comma",
  ).toMatch(/^ok: /);
  expect(verdict(file('{ "extends": "../tsconfig.json", oops')), "a broken file").toMatch(
    /^not ok: not valid JSON \(.+\): your editor and the tests cannot use it; bring it back with git checkout -- workspace\/tsconfig\.json$/,
  );
  expect(verdict(file("[]")), "an array").toBe(
    "not ok: not valid JSON (it is not an object): your editor and the tests cannot use it; bring it back with git checkout -- workspace/tsconfig.json",
  );
  expect(verdict({ kind: "other", what: "a FIFO" }), "a FIFO").toBe(
    "not ok: a FIFO, not a file: move it away and bring the file back with git checkout -- workspace/tsconfig.json",
  );
  expect(verdict({ kind: "missing" }), "no file").toMatch(/^not ok: missing: /);
});

it("refuses test --all with a stage or a target, and export without a format", async () => {
  const all = await labHere(["test", "--all", "4"]);
  expect(`${all.status} ${all.stderr}`, "test --all 4").toBe(
    "2 --all runs every stage you started, against workspace/: give it no stage, --previous or --target",
  );
  const format = await labHere(["export", "4"]);
  expect(`${format.status} ${format.stderr}`, "export without --format").toBe("2 name a format: --format ctrf or --format junit");
  const unknown = await labHere(["export", "4", "--format", "xml"]);
  expect(`${unknown.status} ${unknown.stderr}`, "export --format xml").toBe('2 "xml" is not a format: use ctrf or junit');
});

it("writes no colour codes when NO_COLOR is set, even to a terminal, and hands the choice to the vitest it starts", () => {
  const terminalStream = { isTTY: true } as NodeJS.WriteStream;
  vi.stubEnv("FORCE_COLOR", "");
  vi.stubEnv("NO_COLOR", "1");
  try {
    const { red, green, bold } = paint(terminalStream);
    expect([red("failed"), green("passed"), bold("title")], "painted text with NO_COLOR=1").toEqual(["failed", "passed", "title"]);
    expect(colourEnvironment(terminalStream), "the environment of a child vitest with NO_COLOR=1").toEqual({ NO_COLOR: "1" });
  } finally {
    vi.unstubAllEnvs();
  }
});

it("doctor looks for a font that covers Chinese: a warning for an English class, a problem for a Chinese one", () => {
  const CHINESE = cliWords("zh-CN");
  const none = { kind: "none", platform: "linux" } as const;
  const verdict = (finding: ReturnType<typeof checkChineseFont>) =>
    `${finding.ok ? "ok" : finding.warning ? "warning" : "problem"}: ${finding.detail}`;
  expect(verdict(checkChineseFont({ kind: "found", font: "Noto Sans CJK SC" }, ENGLISH)), "a machine with Noto").toBe(
    "ok: Noto Sans CJK SC",
  );
  expect(verdict(checkChineseFont(none, ENGLISH)), "none, in English").toBe(
    "warning: none found, so the Chinese pages of the site show boxes: install Noto Sans CJK (Debian and Ubuntu: sudo apt install fonts-noto-cjk; Fedora: sudo dnf install google-noto-sans-cjk-fonts; Arch: sudo pacman -S noto-fonts-cjk)",
  );
  expect(verdict(checkChineseFont(none, CHINESE)), "none, for a learner who reads Chinese").toMatch(
    /^problem: 没有找到，网站的中文页面会显示成方框/,
  );
  expect(verdict(checkChineseFont({ kind: "none", platform: "win32" }, ENGLISH)), "none on Windows").toMatch(
    /install the system's Chinese \(Simplified\) language support$/,
  );
  expect(verdict(checkChineseFont({ kind: "unknown", reason: "fc-list (fontconfig) is not installed" }, CHINESE)), "no fontconfig").toMatch(
    /^warning: 无法判断：fc-list \(fontconfig\) is not installed/,
  );
  const lines: string[] = [];
  const output = { out: (line = "") => lines.push(line), err: (line = "") => lines.push(line) };
  const ready = printDoctor([{ ok: true, check: "Node.js 24.1.0", detail: "supported" }, checkChineseFont(none, ENGLISH)], output, ENGLISH);
  expect({ ready, last: lines.at(-1), marks: lines.map((line) => line[0]) }, "doctor's verdict with one warning").toEqual({
    ready: true,
    last: "Ready for class, with 1 warning(s) above.",
    marks: ["✔", "⚠", "R"],
  });
  const probe = probeChineseFont();
  expect(["found", "none", "unknown"], `what this machine's probe found: ${JSON.stringify(probe)}`).toContain(probe.kind);
});

it("reads what is wrong with a command's options from parseArgs' tokens, never from its English messages", () => {
  const options = { yes: { type: "boolean" }, target: { type: "string" }, out: { type: "string", short: "o" } } as const;
  const cases = Object.fromEntries(
    [
      ["--force"],
      ["--yes=1"],
      ["--target"],
      ["-z"],
      ["--constructor"],
      ["--__proto__=x"],
      ["-o"],
      ["--yes", "--target", "solution"],
      ["-o", "x.html"],
    ].map((args) => [args.join(" "), optionProblem(args, options)]),
  );
  expect(cases, "command line → problem").toEqual({
    "--force": { kind: "unknown", option: "--force" },
    "--yes=1": { kind: "takes no value", option: "--yes" },
    "--target": { kind: "needs a value", option: "--target" },
    "-z": { kind: "unknown", option: "-z" },
    "--constructor": { kind: "unknown", option: "--constructor" },
    "--__proto__=x": { kind: "unknown", option: "--__proto__" },
    "-o": { kind: "needs a value", option: "-o" },
    "--yes --target solution": null,
    "-o x.html": null,
  });
});
