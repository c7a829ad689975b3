import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { temporaryFolder, writeTree } from "../../lab/testing.js";
import { session, type Question } from "./session.js";

// Transfer: the same server, unchanged, for a music producer. The assistant of the "Night Drive EP"
// session is started on the project folder of a studio machine; the sample library and the b-sides
// lie beside it, the studio's licence key in the home folder. The producer's usual commands
// (fixtures/scenarios/music-creation/producer-commands.json) come in through run_command.

interface ProducerCommands {
  readonly root: string;
  readonly rules: { readonly deny: readonly string[]; readonly allow: readonly string[] };
  readonly commands: readonly string[];
}

const scenario = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../fixtures/scenarios/music-creation/producer-commands.json", import.meta.url)), "utf8"),
) as ProducerCommands;

/** The studio on this machine: the scenario's folders under a temporary one, the project as the root. */
function studio(): { base: string; root: string; here: (command: string) => string } {
  const base = temporaryFolder();
  writeTree(base, {
    "night-drive-ep/session/notes.md": "# Night Drive EP\nBPM 92\n",
    "night-drive-ep/stems/bass.wav": "RIFF....WAVEfmt bass",
    "night-drive-ep/stems/vocals.wav": "RIFF....WAVEfmt vocals",
    "samples/pads/warm.wav": "RIFF....WAVEfmt pad",
    "b-sides/demo.wav": "RIFF....WAVEfmt demo",
  });
  const studioFolder = scenario.root.slice(0, scenario.root.lastIndexOf("/"));
  const root = join(base, "night-drive-ep");
  return { base, root, here: (command) => command.replaceAll(scenario.root, root).replaceAll(studioFolder, base) };
}

it("runs the producer's in-project commands unasked, asks for the rest, and never asks about rm -rf", async () => {
  const { root, here } = studio();
  const { call, questions } = await session(
    { root, commands: { policy: () => "danger-full-access", nativeEnabled: () => true, rules: scenario.rules } },
    { answer: () => ({ action: "decline" }) },
  );
  const clicks: number[] = [];
  const codes: (string | null)[] = [];
  for (const command of scenario.commands) {
    const asked = questions.length;
    codes.push((await call("run_command", { command: here(command) })).code);
    clicks.push(questions.length - asked);
  }
  expect(clicks, "the clicks each of the 12 commands took").toEqual([0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1, 1]);
  expect(codes.filter((code) => code === null).length, "commands that ran").toBe(4);
  expect(codes[9], `rm -rf bounces: ${codes[9]}`).toBe("command_denied");
  expect(existsSync(join(root, "stems", "warm.wav")), "the sample cp would have copied in").toBe(false);
});

it("writes the mix notes after one click, and reads nothing of the sample library outside the project", async () => {
  const { base, root } = studio();
  const answer = (question: Question) => ({ action: "accept" as const, content: { planDigest: question.digest } });
  const { call, questions } = await session({ root }, { answer });
  const notes = await call("write_file", { path: `${root}/session/mix-notes.md`, content: "# Mix notes\nVocals -1 dB\n" });
  expect(notes, "the write of the mix notes").toMatchObject({ isError: false });
  expect(questions.length, "clicks for the mix notes").toBe(1);
  const sample = await call("read_text_file", { path: join(base, "samples", "pads", "warm.wav") });
  const sibling = await call("list_directory", { path: `${root}/../b-sides` });
  expect([sample.code, sibling.code], "reads of the sample library and the b-sides").toEqual(["outside_root", "invalid_path"]);
  expect(readFileSync(join(root, "session", "mix-notes.md"), "utf8"), "session/mix-notes.md").toBe("# Mix notes\nVocals -1 dB\n");
});
