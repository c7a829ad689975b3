import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { alwaysAllowPattern, decide } from "forge/tools/scope";

// Transfer: the same policy in a music-creation project. A producer's agent prepares the stems of an
// EP for mixing. The project root is the EP's folder; the agent's commands come from the fixture.
interface ProducerSession {
  readonly root: string;
  readonly cwd: string;
  readonly rules: { readonly deny: readonly string[]; readonly allow: readonly string[] };
  readonly commands: readonly string[];
}

const producer = JSON.parse(
  readFileSync(new URL("../../fixtures/scenarios/music-creation/producer-commands.json", import.meta.url), "utf8"),
) as ProducerSession;
const context = { cwd: producer.cwd, root: producer.root };

it("sorts a producer's commands into approved, asked and denied inside the EP's root", () => {
  const outcomes = Object.fromEntries(
    producer.commands.map((command) => {
      const { action, authorizedBy } = decide(command, context, producer.rules);
      return [command, `${action} by ${authorizedBy}`];
    }),
  );
  const byRoot = `auto_approve by ${producer.root}`;
  expect(outcomes, "command → outcome").toEqual({
    "cd stems && ls -la": byRoot,
    "cat session/notes.md": byRoot,
    'find stems -name "*.wav" | wc -l': byRoot,
    "head -c 44 stems/bass.wav": byRoot,
    "ffprobe -hide_banner stems/vocals.wav": "require_approval by null",
    "cd stems/../../b-sides && ls": "require_approval by null",
    "ls /home/ana/studio/samples/pads": "require_approval by null",
    "cp /home/ana/studio/samples/pads/warm.wav stems/": "require_approval by null",
    "sox stems/vocals.wav stems/vocals-norm.wav norm -1": "require_approval by null",
    "rm -rf bounces": "deny by null",
    "cat ~/.config/studio/license.key": "require_approval by null",
    "grep -c BPM session/notes.md > /tmp/bpm.txt": "require_approval by null",
  });
});

it("offers always allow as a program, which then passes in another song's folder", () => {
  const asked = producer.commands.filter((command) => decide(command, context, producer.rules).action === "require_approval");
  const offered = Object.fromEntries(asked.map((command) => [command, alwaysAllowPattern(command, context, producer.rules)]));
  expect(offered, "command → pattern").toEqual({
    "ffprobe -hide_banner stems/vocals.wav": "ffprobe",
    "cd stems/../../b-sides && ls": "ls",
    "ls /home/ana/studio/samples/pads": "ls",
    "cp /home/ana/studio/samples/pads/warm.wav stems/": "cp",
    "sox stems/vocals.wav stems/vocals-norm.wav norm -1": "sox",
    "cat ~/.config/studio/license.key": null,
    "grep -c BPM session/notes.md > /tmp/bpm.txt": null,
  });
  const rules = { deny: producer.rules.deny, allow: ["ffprobe"] };
  const elsewhere = "cd /home/ana/studio/b-sides/stems && ffprobe -hide_banner take-2.wav";
  expect(decide(elsewhere, context, rules), "ffprobe in another song").toEqual({
    action: "auto_approve",
    reason: 'allowed by "ffprobe"',
    authorizedBy: "ffprobe",
  });
});

it("approves the EP's reads by its root, whatever folder the agent starts in", () => {
  const fromHome = { cwd: "/home/ana", root: producer.root };
  expect(decide(`cd ${producer.root}/stems && ls -la`, fromHome, producer.rules), "from /home/ana").toEqual({
    action: "auto_approve",
    reason: `declared read or build verbs inside the project root ${producer.root}`,
    authorizedBy: producer.root,
  });
  expect(decide("ls -la stems", fromHome, producer.rules).action, "without cd, /home/ana is outside the EP").toBe("require_approval");
});
