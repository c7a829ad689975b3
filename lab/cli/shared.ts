// What every command of the lab CLI shares: a usage error that exits 2, stage lookup by any of the
// names a learner uses, file hashing, a yes/no question, and the checkout's own state folder (.lab/).
import { join } from "node:path";
import { createInterface } from "node:readline/promises";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { loadCatalog, stageByName, type Catalog, type Stage } from "../catalog/catalog.js";
import { readFileState, sha256 } from "../core/files.js";
import { ROOT } from "../core/layout.js";
import { parseTarget, UnknownTargetError, type Target } from "../trees/trees.js";

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

export function stageNames(catalog: Catalog): string {
  return catalog.stages.map((stage) => stage.id).join(", ");
}

/** `4`, `04`, `stage-04` or `stage-04-approval-gate`; anything else is a usage error listing the stages. */
export function requireStage(catalog: Catalog, name: string | undefined): Stage {
  if (name === undefined) throw new UsageError(`name a stage: one of ${stageNames(catalog)} (or just its number)`);
  const stage = stageByName(catalog, name);
  if (!stage) throw new UsageError(`"${name}" is not a stage. Stages: ${stageNames(catalog)} (a number such as 4 works too)`);
  return stage;
}

export function catalog(): Catalog {
  return loadCatalog();
}

/** The hash of a regular file, or null when there is none; a folder, FIFO or link there is refused. */
export function fileHash(file: string): string | null {
  const state = readFileState(file);
  if (state.kind === "other")
    throw new CommandError(`${file} is ${state.what}, not a file: move it out of the way and run the command again.`);
  return state.kind === "file" ? sha256(state.bytes) : null;
}

export const short = (hash: string | null) => (hash ? hash.slice(0, 12) : "-");

/** Parses a command's options; an unknown option is a usage error naming the command's help. */
export function parse<T extends ParseArgsConfig["options"]>(command: string, args: readonly string[], options: T) {
  try {
    return parseArgs({
      args: [...args],
      options: { ...options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}. See: npm run lab -- ${command} --help`);
  }
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
export function targetOption(value: string | undefined): Target {
  try {
    return parseTarget(value);
  } catch (error) {
    if (error instanceof UnknownTargetError) throw new UsageError(error.message.replace(/^FORGE_TARGET/, "--target"));
    throw error;
  }
}
