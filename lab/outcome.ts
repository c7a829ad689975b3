// What a call did, in words a failing test can show. The stage tests compare these words, often as a
// record of input → outcome, so that a failure names every case and what really happened in it: a
// refusal that says the required word reads the same as the expectation, an error without the word
// shows its whole message, and a call that should have been refused shows what it returned.
import { inspect } from "node:util";

/** What an error message must say: a string it contains, or a pattern it matches. */
export type Wording = string | RegExp;

/** How a returned value is shown; the default is Node's `inspect` on one line. */
export type Describe = (value: unknown) => string;

const oneLine: Describe = (value) => inspect(value, { depth: 4, breakLength: Infinity });

function says(wording: Wording): string {
  return typeof wording === "string" ? `containing ${JSON.stringify(wording)}` : `matching ${String(wording)}`;
}

/** The outcome a test expects when a call must be refused: `error containing "escapes"`. */
export function refused(wording: Wording): string {
  return `error ${says(wording)}`;
}

function judge(error: unknown, wording: Wording): string {
  if (!(error instanceof Error)) return `threw ${oneLine(error)}, which is not an Error`;
  const fits = typeof wording === "string" ? error.message.includes(wording) : wording.test(error.message);
  return fits ? refused(wording) : `error not ${says(wording)}: ${error.message}`;
}

/** Runs `call`: `refused(wording)` when it throws an error that says it, otherwise what happened instead. */
export function outcome(call: () => unknown, wording: Wording, describe: Describe = oneLine): string {
  let value: unknown;
  try {
    value = call();
  } catch (error) {
    return judge(error, wording);
  }
  return `no error; returned ${describe(value)}`;
}

/** Awaits `promise`: `refused(wording)` when it rejects with an error that says it, otherwise what happened instead. */
export async function settled(promise: Promise<unknown>, wording: Wording, describe: Describe = oneLine): Promise<string> {
  let value: unknown;
  try {
    value = await promise;
  } catch (error) {
    return judge(error, wording);
  }
  return `no error; resolved with ${describe(value)}`;
}
