// Terminal output: colour only when the output is a terminal that wants it (NO_COLOR and FORCE_COLOR respected),
// and the width of text in columns.
import { styleText } from "node:util";

type Format = Parameters<typeof styleText>[0];

function wantsColour(stream: NodeJS.WriteStream): boolean {
  if (process.env.NO_COLOR) return false;
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== "0") return true;
  return stream.isTTY === true;
}

/**
 * The environment for a child whose output goes where ours does: no colour codes when that is not a
 * terminal. (vitest colours its output whenever CI is set, even into a pipe or a log file.)
 */
export function colourEnvironment(stream: NodeJS.WriteStream = process.stdout): Record<string, string> {
  return wantsColour(stream) ? {} : { NO_COLOR: "1" };
}

export function paint(stream: NodeJS.WriteStream = process.stdout) {
  const on = wantsColour(stream);
  const style = (format: Format) => (text: string) => (on ? styleText(format, text) : text);
  return { green: style("green"), red: style("red"), yellow: style("yellow"), dim: style("dim"), bold: style("bold"), cyan: style("cyan") };
}

// East Asian wide and full-width characters (CJK, Hangul, full-width forms) take two terminal columns.
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u;

/** How many columns a terminal gives `text` (no colour codes in it). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += WIDE.test(char) ? 2 : 1;
  return width;
}

/** `padEnd` by columns, so a table with Chinese cells still lines up. */
export function padDisplay(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}
