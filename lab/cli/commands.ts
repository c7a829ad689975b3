// The lab CLI's commands: `npm run lab -- <command>` (or `forge-lab <command>`). Exit status: 0 done,
// 1 refused or failed, 2 a usage mistake (an unknown command, stage, option or target). Every word a
// learner reads comes from the edition's table (lab/cli/words/); main.ts chooses the edition.
import { spawn } from "node:child_process";
import type { Catalog } from "../catalog/catalog.js";
import { dirs, ROOT, repoPath } from "../core/layout.js";
import { npmCommand } from "../core/npm.js";
import { colourEnvironment } from "../core/style.js";
import type { Locale } from "../core/locale.js";
import { isServerName, SERVER_NAMES } from "../attack/servers.js";
import { cliWords, type CliWords } from "./words/index.js";
import { CommandError, catalog, confirm, terminal, parse, requireStage, targetOption, UsageError, type Output } from "./shared.js";

// Each command loads what it needs when it runs: `status` or `hint` must not pay for vitest.

interface Command {
  readonly usage: string;
  readonly run: (args: readonly string[], catalog: Catalog, output: Output, text: CliWords) => Promise<number>;
}

/** A command's name; its summary and help are in each edition's table under the same name. */
type CommandName = keyof CliWords["commands"];

const COMMAND_TABLE: Readonly<Record<CommandName, Command>> = {
  status: {
    usage: "status [--markdown]",
    run: async (args, stages, output, text) => {
      const { values } = parse("status", args, { markdown: { type: "boolean" } }, text);
      const { printStatus, statusMarkdown } = await import("./status.js");
      if (values.markdown) output.out(statusMarkdown(stages, text));
      else printStatus(stages, output, text);
      return 0;
    },
  },
  start: {
    usage: "start <stage> [--yes]",
    run: async (args, stages, output, text) => {
      const { positionals, values } = parse("start", args, { yes: { type: "boolean", short: "y" } }, text);
      const stage = requireStage(stages, positionals[0], text);
      const { start } = await import("./start.js");
      await start(stages, stage, { yes: values.yes === true, interactive: process.stdin.isTTY === true, ask: confirm, output, text });
      return 0;
    },
  },
  restore: {
    usage: "restore [<backup>] [--yes]",
    run: async (args, _stages, output, text) => {
      const { positionals, values } = parse("restore", args, { yes: { type: "boolean", short: "y" } }, text);
      const { restore } = await import("./start.js");
      await restore(positionals[0], { yes: values.yes === true, interactive: process.stdin.isTTY === true, ask: confirm, output, text });
      return 0;
    },
  },
  fault: {
    usage: "fault <stage> [<fault-id>] [--list | --open [--yes] | --check]",
    run: async (args, stages, output, text) => {
      const { positionals, values } = parse(
        "fault",
        args,
        { list: { type: "boolean" }, open: { type: "boolean" }, check: { type: "boolean" }, yes: { type: "boolean", short: "y" } },
        text,
      );
      const stage = requireStage(stages, positionals[0], text);
      if ([values.list, values.open, values.check].filter(Boolean).length > 1) throw new UsageError(text.cli.chooseOneFaultMode);
      if (positionals.length > 2) throw new UsageError(text.cli.faultArguments(positionals.slice(1).join(" ")));
      const { checkFaultLab, demonstrate, listFaults, openFaultLab, requireFault } = await import("./fault.js");
      if (values.list) {
        if (positionals[1] !== undefined) throw new UsageError(text.cli.listTakesNoFault);
        listFaults(stage, output, text);
        return 0;
      }
      const fault = requireFault(stage, positionals[1], text);
      if (values.open) {
        openFaultLab(stage, fault, values.yes === true, output, text);
        return 0;
      }
      if (values.check) return (await checkFaultLab(stages, stage, fault, output, text)) ? 0 : 1;
      return (await demonstrate(stages, stage, fault, output, text)) ? 0 : 1;
    },
  },
  hint: {
    usage: "hint <stage> [--all]",
    run: async (args, stages, output, text) => {
      const { positionals, values } = parse("hint", args, { all: { type: "boolean" } }, text);
      const { hint } = await import("./hint.js");
      hint(requireStage(stages, positionals[0], text), values.all === true, output, text);
      return 0;
    },
  },
  test: {
    usage: "test <stage> [--target workspace|solution|faulty|start] [--watch] [--previous] | test --all",
    run: async (args, stages, output, text) => {
      const { positionals, values } = parse(
        "test",
        args,
        { target: { type: "string" }, watch: { type: "boolean" }, previous: { type: "boolean" }, all: { type: "boolean" } },
        text,
      );
      // The tests' own messages (a module not written yet) in the language of the command that ran them.
      const env = { FORGE_LANG: text.locale };
      if (values.all) {
        if (positionals.length > 0 || values.previous || values.target !== undefined) throw new UsageError(text.cli.testAllAlone);
        const { startedStages } = await import("./status.js");
        const started = startedStages(stages);
        if (started.length === 0) {
          output.out(text.cli.nothingToTest);
          return 0;
        }
        output.out(text.cli.testing(text.list(started.map((stage) => stage.id))));
        return runVitest([values.watch ? "watch" : "run", ...started.map((stage) => `stages/${stage.id}/`)], {
          ...env,
          FORGE_TARGET: "workspace",
        });
      }
      const stage = requireStage(stages, positionals[0], text);
      const target = targetOption(values.target, text);
      const chosen = values.previous ? stages.stages.filter((other) => other.number <= stage.number) : [stage];
      const filters = chosen.map((other) => `stages/${other.id}/`);
      return runVitest([values.watch ? "watch" : "run", ...filters], { ...env, FORGE_TARGET: target });
    },
  },
  export: {
    usage: "export <stage> --format ctrf|junit [--target workspace|solution|faulty|start] [--out <file>]",
    run: async (args, stages, output, text) => {
      const { positionals, values } = parse(
        "export",
        args,
        { format: { type: "string" }, target: { type: "string" }, out: { type: "string" } },
        text,
      );
      const stage = requireStage(stages, positionals[0], text);
      const { exportStage } = await import("./export.js");
      return exportStage(stage, { format: values.format, target: values.target, out: values.out }, output, text);
    },
  },
  class: {
    usage: "class <folder> [--out <folder>]",
    run: async (args, _stages, output, text) => {
      const { positionals, values } = parse("class", args, { out: { type: "string" } }, text);
      const [folder] = positionals;
      if (folder === undefined || positionals.length > 1) throw new UsageError(text.cli.oneFolder);
      const { classReport } = await import("./class.js");
      return classReport(folder, values.out, output, text);
    },
  },
  verify: {
    usage: "verify [<stage>…]",
    run: async (args, stages, output, text) => {
      const { positionals } = parse("verify", args, {}, text);
      const ids = positionals.map((name) => requireStage(stages, name, text).id);
      output.out(text.cli.verifying(ids.length > 0 ? text.list(ids) : null));
      // The same proof as `npm run verify`, which knows the repository's own suites.
      const [command, commandArgs] = npmCommand(["run", "--silent", "verify", "--", ...ids]);
      return runInherited(command, commandArgs);
    },
  },
  doctor: {
    usage: "doctor",
    run: async (args, _stages, output, text) => {
      parse("doctor", args, {}, text);
      const { diagnose, printDoctor } = await import("./doctor.js");
      return printDoctor(await diagnose(text), output, text) ? 0 : 1;
    },
  },
  new: {
    usage: "new <NN> <slug> [--module <name>]",
    run: async (args, stages, output, text) => {
      const { positionals, values } = parse("new", args, { module: { type: "string" } }, text);
      const [number, slug] = positionals;
      if (number === undefined || slug === undefined || positionals.length > 2) throw new UsageError(text.cli.newArguments);
      if (!/^\d{1,2}$/.test(number)) throw new UsageError(text.cli.notAStageNumber(number));
      const [{ scaffold, writeScaffold }, { generate }, { loadCatalog }] = await Promise.all([
        import("../authoring/scaffold.js"),
        import("../authoring/generate.js"),
        import("../catalog/load.js"),
      ]);
      // What the scaffold refuses is said in English: the course's sources are written in English first.
      const result = scaffold(stages, { number: Number(number), slug, ...(values.module ? { module: values.module } : {}) });
      if (typeof result === "string") throw new UsageError(result);
      writeScaffold(result);
      const generation = generate(loadCatalog(), [result.id]);
      for (const file of result.files) output.out(text.cli.created(repoPath(file.file)));
      for (const file of generation.updated) output.out(text.cli.updated(file));
      output.out(text.cli.newNext(result.id));
      return 0;
    },
  },
  "new-fault": {
    usage: "new-fault <stage> <fault-id>",
    run: async (args, stages, output, text) => {
      const { positionals } = parse("new-fault", args, {}, text);
      const [name, id] = positionals;
      if (name === undefined || id === undefined || positionals.length > 2) throw new UsageError(text.cli.newFaultArguments);
      const stage = requireStage(stages, name, text);
      const { draftFault, faultIdProblem } = await import("../authoring/fault-draft.js");
      const problem = faultIdProblem(id);
      if (problem) throw new UsageError(problem);
      const step = draftFault(stage, id);
      switch (step.kind) {
        case "drafted":
          if (step.contract) output.out(text.cli.created(repoPath(step.contract)));
          output.out(text.cli.faultDrafted(repoPath(step.draft)));
          return 0;
        case "unchanged":
          output.out(text.cli.faultUnchanged(repoPath(step.draft)));
          return 1;
        case "several changes":
          output.out(text.cli.faultSeveral(repoPath(step.draft), step.hunks));
          return 1;
        case "saved":
          output.out(text.cli.faultSaved(repoPath(step.patch), `npm run lab -- fault ${stage.nn} ${id}`));
          return 0;
      }
    },
  },
  serve: {
    usage: "serve <root> [--target workspace|solution] [--full-access]",
    run: async (args, stages, _output, text) => {
      const { positionals, values } = parse("serve", args, { target: { type: "string" }, "full-access": { type: "boolean" } }, text);
      const [root] = positionals;
      if (root === undefined || positionals.length > 1) throw new UsageError(text.cli.serveArguments);
      const { serve } = await import("./serve.js");
      const { resolve } = await import("node:path");
      await serve(
        stages,
        { root: resolve(root), target: targetOption(values.target, text), fullAccess: values["full-access"] === true },
        text,
      );
      return 0;
    },
  },
  "mcp-attack": {
    usage: "mcp-attack [--server learner|reference|2025.3.28|2026.8.31] [--sample]",
    run: async (args, _stages, output, text) => {
      const { positionals, values } = parse("mcp-attack", args, { server: { type: "string" }, sample: { type: "boolean" } }, text);
      if (positionals.length > 0) throw new UsageError(text.cli.notAServer(positionals.join(" "), text.list(SERVER_NAMES)));
      const server = values.server;
      if (server !== undefined && !isServerName(server)) throw new UsageError(text.cli.notAServer(server, text.list(SERVER_NAMES)));
      const { mcpAttack } = await import("./attack.js");
      return mcpAttack(
        { servers: server === undefined ? SERVER_NAMES : [server], payloads: values.sample ? "sample" : "all" },
        output,
        text,
      );
    },
  },
};

// Looked up as an own property: a command named "constructor" or "__proto__" must not find Object.prototype's.
function isCommand(name: string): name is CommandName {
  return Object.hasOwn(COMMAND_TABLE, name);
}

const COMMAND_NAMES = Object.keys(COMMAND_TABLE).filter(isCommand);

function runVitest(args: readonly string[], env: Record<string, string>): Promise<number> {
  return runInherited(process.execPath, [dirs.testCommand, ...args], env);
}

/** Runs a child whose output is ours, and answers its exit status. */
function runInherited(command: string, args: readonly string[], env: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...colourEnvironment(), ...env }, stdio: "inherit" });
    child.once("exit", (code) => resolve(code ?? 1));
  });
}

function overview(text: CliWords): string {
  const width = Math.max(...COMMAND_NAMES.map((name) => COMMAND_TABLE[name].usage.length));
  const lines = COMMAND_NAMES.map((name) => `  ${COMMAND_TABLE[name].usage.padEnd(width)}  ${text.commands[name].summary}`);
  return text.cli.overview(lines.join("\n"));
}

/** Runs one command. `locale` is the edition main.ts chose from the environment; in-process callers (the tests) get English. */
export async function main(argv: readonly string[], output: Output = terminal, locale: Locale = "en"): Promise<number> {
  const text = cliWords(locale);
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    output.out(overview(text));
    return name === undefined ? 2 : 0;
  }
  if (!isCommand(name)) {
    output.err(text.cli.notACommand(name, text.list(COMMAND_NAMES)));
    return 2;
  }
  const command = COMMAND_TABLE[name];
  if (rest.includes("--help") || rest.includes("-h")) {
    const { summary, help } = text.commands[name];
    output.out(text.cli.usage(command.usage, summary, help));
    return 0;
  }
  try {
    return await command.run(rest, catalog(), output, text);
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
    output.err(text.cli.failed(name, message));
    return 1;
  }
}
