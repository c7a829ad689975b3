// `lab hint <stage>`: the next graded hint, remembered per stage in .lab/hints.json.
import * as z from "zod/mini";
import type { Stage } from "../catalog/catalog.js";
import { readFileState, writeFileAtomic } from "../core/files.js";
import { dirs, repoPath } from "../core/layout.js";
import { specIn } from "../i18n/content.js";
import type { CliWords } from "./words/index.js";
import { CommandError, type Output } from "./shared.js";

const shownSchema = z.record(z.string(), z.int().check(z.nonnegative()));

/** Which hint each stage showed last. A FIFO or a folder in the file's place is refused, never read. */
function readShown(text: CliWords): Record<string, number> {
  const state = readFileState(dirs.hints);
  if (state.kind === "missing") return {};
  if (state.kind === "other") throw new CommandError(text.cli.notAFile(repoPath(dirs.hints), state.what));
  try {
    const parsed = shownSchema.safeParse(JSON.parse(state.bytes.toString("utf8")));
    return parsed.success ? parsed.data : {};
  } catch {
    return {}; // a damaged file only forgets which hints were shown
  }
}

/** "Stage 02 (workspace-path-policy), hint 1 of 4: …", counted from 0. */
function hintLine(stage: Stage, index: number, hints: readonly string[], text: CliWords): string {
  return text.hint.shown(stage.nn, stage.slug, index + 1, hints.length, hints[index] ?? "");
}

/** Shows the hints in the edition's language (the English ones while a stage has no edition in it yet). */
export function hint(stage: Stage, all: boolean, output: Output, text: CliWords): void {
  const spec = stage.spec;
  const hints = spec ? (specIn(spec, text.locale) ?? spec).hints : undefined;
  if (!hints) throw new CommandError(text.hint.none(stage.id));
  const shown = readShown(text);
  const seen = Math.min(shown[stage.id] ?? 0, hints.length);
  if (all) {
    hints.forEach((_, index) => output.out(`${hintLine(stage, index, hints, text)}\n`));
    writeFileAtomic(dirs.hints, `${JSON.stringify({ ...shown, [stage.id]: hints.length }, null, 2)}\n`);
    return;
  }
  if (seen >= hints.length) {
    output.out(text.hint.allShown(hints.length, stage.id));
    return;
  }
  output.out(hintLine(stage, seen, hints, text));
  output.out(seen + 1 < hints.length ? text.hint.next(seen + 2, hints.length) : text.hint.last);
  writeFileAtomic(dirs.hints, `${JSON.stringify({ ...shown, [stage.id]: seen + 1 }, null, 2)}\n`);
}
