// Stage 12's figures: what the containment of the reference server costs, measured against the
// official filesystem server (2026.8.31) in the same run, both started over stdio and driven by the
// same client (lab/attack/client.ts):
//
//   - the whole attack suite (lab/attack/suite.ts, every traversal line): the reference's wall time
//     over 2026.8.31's, one run each, one after the other. Bound 1.0: containment that refuses more
//     must not cost more than the server that lets four siblings out.
//   - a read_text_file round trip of a small file inside the root: the reference's median over
//     2026.8.31's, the two servers called in turn after a warm-up, so a change of the machine's load
//     falls on both. Bound 2.0.
import { join } from "node:path";
import { AttackClient } from "../attack/client.js";
import { INSIDE, makeFixture } from "../attack/fixture.js";
import { serverCommand } from "../attack/servers.js";
import { attack, totals } from "../attack/suite.js";
import type { Figure, Measure } from "./figure.js";

const WARM_UP = 200;
const ROUND_TRIPS = 2_000;

const median = (list: readonly number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;

async function suiteRatio(): Promise<Figure> {
  const reference = await attack("reference", { payloads: "all" });
  const official = await attack("2026.8.31", { payloads: "all" });
  if (reference.kind !== "measured" || official.kind !== "measured")
    throw new Error(`the attack suite did not run: ${JSON.stringify([reference, official].filter((run) => run.kind !== "measured"))}`);
  const calls = (run: typeof reference) => `${run.calls} calls, ${totals(run).escapes} escapes`;
  return {
    label: `stage 12: the attack suite against the reference (${calls(reference)}, ${reference.seconds.toFixed(1)} s) over 2026.8.31`,
    value: reference.seconds / official.seconds,
    unit: "x",
    bound: 1.0,
    baseline: `the suite against 2026.8.31: ${official.seconds.toFixed(1)} s, ${calls(official)}`,
  };
}

async function roundTripRatio(): Promise<Figure> {
  const fixture = makeFixture();
  const clients: AttackClient[] = [];
  try {
    for (const name of ["reference", "2026.8.31"] as const) {
      const command = serverCommand(name, fixture.root);
      if (command === null) throw new Error(`${name} has no command`);
      clients.push(await AttackClient.open(command, fixture.root));
    }
    const path = join(fixture.root, INSIDE.notes);
    const times: number[][] = clients.map(() => []);
    for (let round = 0; round < WARM_UP + ROUND_TRIPS; round += 1) {
      for (const [index, client] of clients.entries()) {
        const started = performance.now();
        const answer = await client.call("read_text_file", { path });
        const took = performance.now() - started;
        if (answer.isError || !answer.text.includes(INSIDE.notesText))
          throw new Error(`read_text_file failed: ${answer.text.slice(0, 200)}`);
        if (round >= WARM_UP) times[index]?.push(took);
      }
    }
    const [reference, official] = times.map(median) as [number, number];
    return {
      label: `stage 12: a read_text_file round trip over stdio, the reference's median (${reference.toFixed(3)} ms) over 2026.8.31's, of ${ROUND_TRIPS}`,
      value: reference / official,
      unit: "x",
      bound: 2.0,
      baseline: `2026.8.31's median: ${official.toFixed(3)} ms`,
    };
  } finally {
    for (const client of clients) await client.close();
    fixture.remove();
  }
}

export const measure: Measure = async () => [await roundTripRatio(), await suiteRatio()];
