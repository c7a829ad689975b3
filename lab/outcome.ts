// What a call did, in words a failing test can show. The stage tests compare these words, often as a
// record of input → outcome, so that a failure names every case and what really happened in it: a
// refusal that says the required word reads the same as the expectation, an error without the word
// shows its whole message, and a call that should have been refused shows what it returned.
import { inspect } from "node:util";

/** What an error message must say: a string it contains, or a pattern it matches. */
export type Wording = string | RegExp;

/** How a call that did not throw is shown, from the value it returned. */
export type Describe = (value: unknown) => string;

/** Any value on one line, as Node's `inspect` shows it. */
export const oneLine = (value: unknown): string => inspect(value, { depth: 4, breakLength: Infinity });

const returned: Describe = (value) => `no error; returned ${oneLine(value)}`;
const resolved: Describe = (value) => `no error; resolved with ${oneLine(value)}`;

function says(wording: Wording): string {
  if (typeof wording !== "string") return `matching ${String(wording)}`;
  // A word that has double quotes of its own, such as a quoted path, is shown between backticks.
  return `containing ${wording.includes('"') ? `\`${wording}\`` : JSON.stringify(wording)}`;
}

/** The outcome a test expects when a call must be refused: `error containing "escapes"`. */
export function refused(wording: Wording): string {
  return `error ${says(wording)}`;
}

function judge(error: unknown, wording: Wording | null): string {
  if (!(error instanceof Error)) return `threw ${oneLine(error)}, which is not an Error`;
  if (wording === null) return `error: ${error.message}`;
  const fits = typeof wording === "string" ? error.message.includes(wording) : wording.test(error.message);
  return fits ? refused(wording) : `error not ${says(wording)}: ${error.message}`;
}

/**
 * Runs `call`. When it throws: `refused(wording)` if the error says it, otherwise the whole message
 * (`wording` null: any error, shown as `error: <message>`). When it returns: `accepted(value)`.
 */
export function outcome(call: () => unknown, wording: Wording | null, accepted: Describe = returned): string {
  let value: unknown;
  try {
    value = call();
  } catch (error) {
    return judge(error, wording);
  }
  return accepted(value);
}

/** `outcome` for a promise: what it rejected with, in the same words, or `accepted(value)`. */
export async function settled(promise: Promise<unknown>, wording: Wording | null, accepted: Describe = resolved): Promise<string> {
  let value: unknown;
  try {
    value = await promise;
  } catch (error) {
    return judge(error, wording);
  }
  return accepted(value);
}

/**
 * The entries of `table` whose outcome is not the expected one (`expected` for every case, or per case).
 * For a table of many cases a test expects `{}`: a failure then lists exactly the cases that broke,
 * each with what happened instead, however many cases passed.
 */
export function otherThan(
  table: Readonly<Record<string, string>>,
  expected: string | Readonly<Record<string, string>>,
): Record<string, string> {
  const wanted = (key: string) => (typeof expected === "string" ? expected : expected[key]);
  return Object.fromEntries(Object.entries(table).filter(([key, actual]) => actual !== wanted(key)));
}
