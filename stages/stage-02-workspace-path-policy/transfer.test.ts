import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { resolveWorkspacePath } from "forge/tools/paths";
import { temporaryFolder, writeTree } from "../../lab/testing.js";

// Transfer: the same policy in a music-creation workspace. An agent tidies the track metadata of an
// EP. The paths it is handed come from a session file exported on a Windows machine, so they use
// backslashes, and some of them point at places that are not in this workspace at all.
interface SessionReference {
  readonly role: string;
  readonly path: string;
}

const session = JSON.parse(
  readFileSync(new URL("../../fixtures/scenarios/music-creation/session-paths.json", import.meta.url), "utf8"),
) as { readonly references: readonly SessionReference[] };

function musicWorkspace(): string {
  const base = temporaryFolder();
  writeTree(base, {
    "ep/tracks/metadata.json": '{ "title": "Night Drive" }\n',
    "ep/samples/kick.wav": "RIFF",
    "artwork/cover.png": "PNG",
  });
  return join(base, "ep");
}

/** What the policy does with one request, in a word a table can show. */
async function outcome(ws: string, requested: string): Promise<string> {
  try {
    return `inside: ${await resolveWorkspacePath(ws, requested)}`;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return /absolute/.test(message) ? "absolute" : /escapes/.test(message) ? "escapes" : `error: ${message}`;
  }
}

it("resolves tracks/metadata.json inside the music workspace", async () => {
  const ws = musicWorkspace();
  expect(await resolveWorkspacePath(ws, "tracks/metadata.json")).toBe(join(ws, "tracks", "metadata.json"));
  expect(await resolveWorkspacePath(ws, "tracks\\metadata.json")).toBe(join(ws, "tracks", "metadata.json"));
});

it("refuses ../tracks/metadata.json because it leaves the workspace", async () => {
  const ws = musicWorkspace();
  await expect(resolveWorkspacePath(ws, "../tracks/metadata.json")).rejects.toThrow(/escapes/);
});

it("sorts a Windows session's references into inside, absolute and escaping", async () => {
  const ws = musicWorkspace();
  const results: Record<string, string> = {};
  for (const reference of session.references) results[reference.path] = await outcome(ws, reference.path);
  expect(results).toEqual({
    "tracks\\metadata.json": `inside: ${join(ws, "tracks", "metadata.json")}`,
    "tracks\\01-intro\\bass.wav": `inside: ${join(ws, "tracks", "01-intro", "bass.wav")}`,
    "samples\\kick.wav": `inside: ${join(ws, "samples", "kick.wav")}`,
    "C:\\Users\\ana\\Music\\Samples\\snare.wav": "absolute",
    "\\\\studio-nas\\library\\pads\\warm-pad.wav": "absolute",
    "D:loops\\vinyl-crackle.wav": "absolute",
    "..\\artwork\\cover.png": "escapes",
  });
});
