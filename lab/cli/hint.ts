// `lab hint <stage>`: the next graded hint, remembered per stage in .lab/hints.json.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod/mini";
import type { Stage } from "../catalog/catalog.js";
import { writeFileAtomic } from "../core/files.js";
import { dirs } from "../core/layout.js";
import { CommandError, type Output } from "./shared.js";

const shownSchema = z.record(z.string(), z.int().check(z.nonnegative()));

function readShown(): Record<string, number> {
  if (!existsSync(dirs.hints)) return {};
  try {
    const parsed = shownSchema.safeParse(JSON.parse(readFileSync(dirs.hints, "utf8")));
    return parsed.success ? parsed.data : {};
  } catch {
    return {}; // a damaged file only forgets which hints were shown
  }
}

/** "Stage 02 (workspace-path-policy), hint 1 of 4": which stage the hint is for, whatever was typed. */
function label(stage: Stage, index: number, total: number): string {
  return `Stage ${stage.nn} (${stage.slug}), hint ${index + 1} of ${total}`;
}

export function hint(stage: Stage, all: boolean, output: Output): void {
  const hints = stage.spec?.hints;
  if (!hints) throw new CommandError(`${stage.id} has no valid stage.json, so no hints.`);
  const shown = readShown();
  const seen = Math.min(shown[stage.id] ?? 0, hints.length);
  if (all) {
    hints.forEach((text, index) => output.out(`${label(stage, index, hints.length)}: ${text}\n`));
    writeFileAtomic(dirs.hints, `${JSON.stringify({ ...shown, [stage.id]: hints.length }, null, 2)}\n`);
    return;
  }
  if (seen >= hints.length) {
    output.out(`All ${hints.length} hints of ${stage.id} are shown; see them again with --all.`);
    return;
  }
  output.out(`${label(stage, seen, hints.length)}: ${hints[seen]}`);
  output.out(
    seen + 1 < hints.length
      ? `(The same command shows hint ${seen + 2} of ${hints.length} next; --all shows every one.)`
      : "(That was the last hint.)",
  );
  writeFileAtomic(dirs.hints, `${JSON.stringify({ ...shown, [stage.id]: seen + 1 }, null, 2)}\n`);
}
