// The lab CLI's commands: `npm run lab -- <command>` (or `forge-lab <command>`). Exit status: 0 done,
// 1 refused or failed, 2 a usage mistake (an unknown command, stage, option or target).
import { spawn } from "node:child_process";
import { join } from "node:path";
import type { Catalog } from "../catalog/catalog.js";
import { ROOT, repoPath } from "../core/layout.js";
import { colourEnvironment } from "../core/style.js";
import { CommandError, catalog, confirm, terminal, parse, requireStage, targetOption, UsageError, type Output } from "./shared.js";

// Each command loads what it needs when it runs: `status` or `hint` must not pay for vitest.

interface Command {
  readonly summary: string;
  readonly usage: string;
  readonly help: string;
  readonly run: (args: readonly string[], catalog: Catalog, output: Output) => Promise<number>;
}

const STAGE_NAMES = "A stage can be named 4, 04, stage-04 or stage-04-approval-gate.";

const COMMAND_TABLE: Readonly<Record<string, Command>> = {
  status: {
    summary: "every stage: your module, your last evidence, its state and the next step",
    usage: "status [--markdown]",
    help: `Reads workspace/ and evidence/ only; changes nothing. --markdown prints the same states as a Markdown
table, the job summary of the course's GitHub Actions workflow.`,
    run: async (args, stages, output) => {
      const { values } = parse("status", args, { markdown: { type: "boolean" } });
      const { printStatus, statusMarkdown } = await import("./status.js");
      if (values.markdown) output.out(statusMarkdown(stages));
      else printStatus(stages, output);
      return 0;
    },
  },
  start: {
    summary: "put workspace/ at a stage's starting point (the reference of the stages before it)",
    usage: "start <stage> [--yes]",
    help: `Prints the plan first: each file to create, overwrite or leave, with content hashes. A file whose
content differs from the reference is overwritten only with your consent: --yes, or a yes on the
terminal; with neither it refuses and exits 1. Every replaced file is saved under .lab/backups/ first,
every write is atomic, and if any step fails everything is rolled back. Undo with: restore.
It uses the course's own reference modules: plan → approval bound to the plan digest → atomic writes
→ rollback. ${STAGE_NAMES}
Example: npm run lab -- start 4`,
    run: async (args, stages, output) => {
      const { positionals, values } = parse("start", args, { yes: { type: "boolean", short: "y" } });
      const stage = requireStage(stages, positionals[0]);
      const { start } = await import("./start.js");
      await start(stages, stage, { yes: values.yes === true, interactive: process.stdin.isTTY === true, ask: confirm, output });
      return 0;
    },
  },
  restore: {
    summary: "undo a start: replaced files come back byte for byte, created ones are removed",
    usage: "restore [<backup>] [--yes]",
    help: `Without a backup name, undoes the latest start not yet restored; a name from .lab/backups/ undoes that
command (a start, or a restore). A file you changed since is replaced only with your consent (--yes, or a
yes on the terminal), and everything restore replaces is first saved in a new backup, so a restore can
itself be undone: it prints the command that does it.
Example: npm run lab -- restore`,
    run: async (args, _stages, output) => {
      const { positionals, values } = parse("restore", args, { yes: { type: "boolean", short: "y" } });
      const { restore } = await import("./start.js");
      await restore(positionals[0], { yes: values.yes === true, interactive: process.stdin.isTTY === true, ask: confirm, output });
      return 0;
    },
  },
  fault: {
    summary: "the fault lab: reproduce one of a stage's injected faults, list them, or open and check your repair",
    usage: "fault <stage> [<fault-id>] [--list | --open [--yes] | --check]",
    help: `Without options (the instructor demo): runs the stage's tests against the tree of one of its faults
(the stage's default fault unless a fault id is given) and prints the contract, what failed and with
which message, the diagnosis steps, the fix principle and the diff from the faulty module to the
reference. Exits 0 only when the fault is reproduced exactly — which is not a fix.
--list   lists the stage's faults, one line each, the default first
--open   copies the faulty module into faultlab/stage-NN-<slug>/ (faultlab/stage-NN-<slug>/<fault-id>/
         for a fault other than the default) for you to repair
--check  runs the stage's tests with your repaired copy and says fixed (exit 0) or not fixed (exit 1)
${STAGE_NAMES}
Example: npm run lab -- fault 5 --list, then npm run lab -- fault 5 <fault-id>`,
    run: async (args, stages, output) => {
      const { positionals, values } = parse("fault", args, {
        list: { type: "boolean" },
        open: { type: "boolean" },
        check: { type: "boolean" },
        yes: { type: "boolean", short: "y" },
      });
      const stage = requireStage(stages, positionals[0]);
      if ([values.list, values.open, values.check].filter(Boolean).length > 1)
        throw new UsageError("choose one of --list, --open and --check");
      if (positionals.length > 2)
        throw new UsageError(`fault takes a stage and at most one fault id; got ${positionals.slice(1).join(" ")}`);
      const { checkFaultLab, demonstrate, listFaults, openFaultLab, requireFault } = await import("./fault.js");
      if (values.list) {
        if (positionals[1] !== undefined) throw new UsageError("--list lists every fault of the stage; give no fault id");
        listFaults(stage, output);
        return 0;
      }
      const fault = requireFault(stage, positionals[1]);
      if (values.open) {
        openFaultLab(stage, fault, values.yes === true, output);
        return 0;
      }
      if (values.check) return (await checkFaultLab(stages, stage, fault, output)) ? 0 : 1;
      return (await demonstrate(stages, stage, fault, output)) ? 0 : 1;
    },
  },
  hint: {
    summary: "the next graded hint of a stage (remembered), or all of them",
    usage: "hint <stage> [--all]",
    help: `Each call shows one more hint, from a nudge to nearly the answer. ${STAGE_NAMES}
Example: npm run lab -- hint 2`,
    run: async (args, stages, output) => {
      const { positionals, values } = parse("hint", args, { all: { type: "boolean" } });
      const { hint } = await import("./hint.js");
      hint(requireStage(stages, positionals[0]), values.all === true, output);
      return 0;
    },
  },
  test: {
    summary: "run a stage's tests, as npm test does; --previous adds the earlier stages; --all every stage you started",
    usage: "test <stage> [--target workspace|solution|faulty|start] [--watch] [--previous] | test --all",
    help: `Runs once unless --watch. --previous also runs every earlier stage's tests, so a change that breaks
an earlier stage shows at once. --target picks the tree (workspace, your code, is the default).
--all runs the tests of every stage whose module exists in workspace/, against your code: what the
course's GitHub Actions workflow runs on every push. ${STAGE_NAMES}
Examples: npm run lab -- test 5 --previous
          npm run lab -- test 4 --target solution
          npm run lab -- test --all`,
    run: async (args, stages, output) => {
      const { positionals, values } = parse("test", args, {
        target: { type: "string" },
        watch: { type: "boolean" },
        previous: { type: "boolean" },
        all: { type: "boolean" },
      });
      if (values.all) {
        if (positionals.length > 0 || values.previous || values.target !== undefined) {
          throw new UsageError("--all runs every stage you started, against workspace/: give it no stage, --previous or --target");
        }
        const { startedStages } = await import("./status.js");
        const started = startedStages(stages);
        if (started.length === 0) {
          output.out("No stage has its module in workspace/ yet, so there is nothing to test: npm run lab -- status says where to start.");
          return 0;
        }
        output.out(`Testing ${started.map((stage) => stage.id).join(", ")} against workspace/.`);
        return runVitest([values.watch ? "watch" : "run", ...started.map((stage) => `stages/${stage.id}/`)], { FORGE_TARGET: "workspace" });
      }
      const stage = requireStage(stages, positionals[0]);
      const target = targetOption(values.target);
      const chosen = values.previous ? stages.stages.filter((other) => other.number <= stage.number) : [stage];
      const filters = chosen.map((other) => `stages/${other.id}/`);
      return runVitest([values.watch ? "watch" : "run", ...filters], { FORGE_TARGET: target });
    },
  },
  export: {
    summary: "convert a stage's verification.json to CTRF or JUnit XML, the formats CI dashboards read",
    usage: "export <stage> --format ctrf|junit [--target workspace|solution|faulty|start] [--out <file>]",
    help: `Reads the stage's evidence (your own run unless --target names another tree) and writes it as CTRF
JSON (checked with the ctrf package's validator) or JUnit XML, beside the evidence unless --out names
the file (--out - prints it). Every test keeps its name, status, duration and failure message; a test
file that did not load becomes a failed entry named after its file. ${STAGE_NAMES}
Example: npm run lab -- export 4 --format junit`,
    run: async (args, stages, output) => {
      const { positionals, values } = parse("export", args, {
        format: { type: "string" },
        target: { type: "string" },
        out: { type: "string" },
      });
      const stage = requireStage(stages, positionals[0]);
      const { exportStage } = await import("./export.js");
      return exportStage(stage, { format: values.format, target: values.target, out: values.out }, output);
    },
  },
  class: {
    summary: "for instructors: a class report (HTML and CSV) from many learners' evidence folders or artifact zips",
    usage: "class <folder> [--out <folder>]",
    help: `<folder> holds one entry per learner: a folder (their evidence/, or an artifact unpacked) or the
artifact .zip downloaded from their forge-lab workflow run (gh run download, or the run's page). Writes
class-report.html (learners × stages, each cell the course site's self-check verdict, CI runs marked,
sortable, works opened from disk) and class-report.csv into <folder>, or into --out. Nothing is
extracted: zip entries are read in memory, and every file is size-checked before it is read.
Example: npm run lab -- class ~/classes/spring`,
    run: async (args, _stages, output) => {
      const { positionals, values } = parse("class", args, { out: { type: "string" } });
      const [folder] = positionals;
      if (folder === undefined || positionals.length > 1) throw new UsageError("give one folder: class <folder>");
      const { classReport } = await import("./class.js");
      return classReport(folder, values.out, output);
    },
  },
  verify: {
    summary: "the project's own proof, as npm run verify, with progress stage by stage",
    usage: "verify [<stage>…]",
    help: "Runs every stage against its solution, faulty and start trees, the lab's and the site's tests and the type-check.",
    run: async (args, stages, output) => {
      const { positionals } = parse("verify", args, {});
      const ids = positionals.map((name) => requireStage(stages, name).id);
      output.out(`Verifying ${ids.length > 0 ? ids.join(", ") : "every stage"}…`);
      const [{ runVerify }, { formatReport }] = await Promise.all([import("../verify/verify.js"), import("../verify/report.js")]);
      const report = await runVerify({ stages: ids, onProjectEnd: (name) => output.out(`  finished ${name}`) });
      output.out(formatReport(report));
      return report.ok ? 0 : 1;
    },
  },
  doctor: {
    summary: "check this machine before a class: Node, dependencies, write access, the editor's settings, Chromium",
    usage: "doctor",
    help: `Changes nothing except a probe file it creates and removes in workspace/ and evidence/. Says which
browser the site's tests will use, and starts it once: CHROME_PATH, then Chromium or Chrome on PATH or
in its usual folder, then Playwright's browsers, then (Linux x64) the one @sparticuz/chromium ships.`,
    run: async (args, _stages, output) => {
      parse("doctor", args, {});
      const { diagnose, printDoctor } = await import("./doctor.js");
      return printDoctor(await diagnose(), output) ? 0 : 1;
    },
  },
  new: {
    summary: "for course authors: scaffold a new stage, every file in place, each piece to write marked",
    usage: "new <NN> <slug> [--module <name>]",
    help: `Creates stages/stage-NN-<slug>/ (README with the twelve sections and their generated blocks,
stage.json, a first test file), the reference and faulty module stubs and the fault contract, all valid
against their schemas, then runs npm run generate. Each piece still to write says PLACEHOLDER; npm run
verify lists every one of them until the stage is complete. The module defaults to the slug's last word.
Example: npm run lab -- new 12 sandbox-profile --module profile`,
    run: async (args, stages, output) => {
      const { positionals, values } = parse("new", args, { module: { type: "string" } });
      const [number, slug] = positionals;
      if (number === undefined || slug === undefined || positionals.length > 2)
        throw new UsageError("give a stage number and a slug: new <NN> <slug>");
      if (!/^\d{1,2}$/.test(number)) throw new UsageError(`"${number}" is not a stage number: give 1 to 99`);
      const [{ scaffold, writeScaffold }, { generate }, { loadCatalog }] = await Promise.all([
        import("../authoring/scaffold.js"),
        import("../authoring/generate.js"),
        import("../catalog/catalog.js"),
      ]);
      const result = scaffold(stages, { number: Number(number), slug, ...(values.module ? { module: values.module } : {}) });
      if (typeof result === "string") throw new UsageError(result);
      writeScaffold(result);
      const generation = generate(loadCatalog(), [result.id]);
      for (const file of result.files) output.out(`created ${repoPath(file.file)}`);
      for (const file of generation.updated) output.out(`updated ${file}`);
      output.out(`Next: npm run verify -- ${result.id} lists what to write, piece by piece.`);
      return 0;
    },
  },
};

// A Map, not an object: a command named "constructor" or "__proto__" must not find Object.prototype's.
const COMMANDS: ReadonlyMap<string, Command> = new Map(Object.entries(COMMAND_TABLE));

function runVitest(args: readonly string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, "node_modules", "vitest", "vitest.mjs"), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...colourEnvironment(), ...env },
      stdio: "inherit",
    });
    child.once("exit", (code) => resolve(code ?? 1));
  });
}

function overview(): string {
  const width = Math.max(...[...COMMANDS.values()].map((command) => command.usage.length));
  const lines = [...COMMANDS.values()].map((command) => `  ${command.usage.padEnd(width)}  ${command.summary}`);
  return `Forge Lab — usage: npm run lab -- <command> [options]   (or: forge-lab <command>)

Commands:
${lines.join("\n")}

Every command has --help. ${STAGE_NAMES}`;
}

export async function main(argv: readonly string[], output: Output = terminal): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    output.out(overview());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS.get(name);
  if (!command) {
    output.err(`"${name}" is not a command. Commands: ${[...COMMANDS.keys()].join(", ")}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    output.out(`Usage: npm run lab -- ${command.usage}\n\n${command.summary}.\n${command.help}`);
    return 0;
  }
  try {
    return await command.run(rest, catalog(), output);
  } catch (error) {
    if (error instanceof UsageError) {
      output.err(error.message);
      return 2;
    }
    if (error instanceof CommandError) {
      output.err(error.message);
      return 1;
    }
    // Anything else is a failure too, said in one line: a learner should never have to read a stack.
    const message =
      error instanceof AggregateError
        ? [error.message, ...error.errors.map(String)].join("; ")
        : error instanceof Error
          ? error.message
          : String(error);
    output.err(`lab ${name} failed: ${message}`);
    return 1;
  }
}
