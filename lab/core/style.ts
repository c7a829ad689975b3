// Terminal colour, only when the output is a terminal that wants it (NO_COLOR and FORCE_COLOR respected).
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
