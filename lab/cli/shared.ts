// What every command of the lab CLI shares: a usage error that exits 2, stage lookup by any of the
// names a learner uses, file hashing, a yes/no question, and the checkout's own state folder (.lab/).
// Every message comes from the edition's table (lab/cli/words/), chosen once in main.ts.
import { join } from "node:path";
import { createInterface } from "node:readline/promises";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { stageByName, type Catalog, type Stage } from "../catalog/catalog.js";
import { loadCatalog } from "../catalog/load.js";
import { readFileState, sha256 } from "../core/files.js";
import { ROOT } from "../core/layout.js";
import { testWords } from "../vitest/words/index.js";
import type { CliWords } from "./words/index.js";
import type { OptionProblem } from "./vocabulary.js";
import { TARGETS, type Target } from "../trees/targets.js";
import { parseTarget, UnknownTargetError } from "../trees/trees.js";

/** A mistake in how a command was called: exit status 2, with the valid choices named. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** Refused or failed on purpose (consent missing, nothing to restore…): exit status 1. */
export class CommandError extends Error {
  override readonly name = "CommandError";
}

export interface Output {
  out(line?: string): void;
  err(line?: string): void;
}

export const terminal: Output = {
  out: (line = "") => process.stdout.write(`${line}\n`),
  err: (line = "") => process.stderr.write(`${line}\n`),
};

/** `4`, `04`, `stage-04` or `stage-04-approval-gate`; anything else is a usage error listing the stages. */
export function requireStage(catalog: Catalog, name: string | undefined, text: CliWords): Stage {
  const names = text.list(catalog.stages.map((stage) => stage.id));
  if (name === undefined) throw new UsageError(text.cli.nameAStage(names));
  const stage = stageByName(catalog, name);
  if (!stage) throw new UsageError(text.cli.notAStage(name, names));
  return stage;
}

export function catalog(): Catalog {
  return loadCatalog();
}

/** The hash of a regular file, or null when there is none; a folder, FIFO or link there is refused. */
export function fileHash(file: string, text: CliWords): string | null {
  const state = readFileState(file);
  if (state.kind === "other") throw new CommandError(text.cli.notAFile(file, state.what));
  return state.kind === "file" ? sha256(state.bytes) : null;
}

export const short = (hash: string | null) => (hash ? hash.slice(0, 12) : "-");

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * What is wrong with a command line's options, read from parseArgs' tokens rather than from its English
 * error messages: an option the command does not have, a flag given a value, an option left without
 * one. Null when the options are fine.
 */
export function optionProblem(args: readonly string[], options: Options): OptionProblem | null {
  const { tokens } = parseArgs({ args: [...args], options, allowPositionals: true, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const config = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    if (config === undefined) return { kind: "unknown", option: token.rawName };
    if (config.type === "boolean" && token.inlineValue) return { kind: "takes no value", option: token.rawName };
    if (config.type === "string" && token.value === undefined) return { kind: "needs a value", option: token.rawName };
  }
  return null;
}

/** Parses a command's options; an unknown option is a usage error naming the command's help. */
export function parse<T extends ParseArgsConfig["options"]>(command: string, args: readonly string[], options: T, text: CliWords) {
  const all = { ...options, help: { type: "boolean" as const, short: "h" } };
  const problem = optionProblem(args, all as Options);
  if (problem) throw new UsageError(text.cli.option(problem, command));
  return parseArgs({ args: [...args], options: all, allowPositionals: true, strict: true });
}

/** Asks on the terminal; only called when stdin is a terminal. */
export async function confirm(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await prompt.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}

/** A --target option: one of the four trees (workspace when absent); anything else is a usage error naming them. */
export function targetOption(value: string | undefined, text: CliWords): Target {
  try {
    return parseTarget(value);
  } catch (error) {
    if (error instanceof UnknownTargetError) throw new UsageError(testWords(text.locale).notATarget("--target", error.value, TARGETS));
    throw error;
  }
}
