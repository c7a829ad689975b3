import { readFileSync } from "node:fs";
import { join, sep } from "node:path";
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

/**
 * What the policy does with one request, in words a table can show: `inside: tracks/metadata.json`
 * (the returned path, relative to the workspace when it lies there), `absolute`, `escapes`, or any
 * other error's whole message.
 */
async function outcome(ws: string, requested: string): Promise<string> {
  try {
    const resolved = await resolveWorkspacePath(ws, requested);
    return `inside: ${resolved.startsWith(ws + sep) ? resolved.slice(ws.length + 1) : resolved}`;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return /absolute/.test(message) ? "absolute" : /escapes/.test(message) ? "escapes" : `error: ${message}`;
  }
}

async function outcomes(ws: string, requests: readonly string[]): Promise<Record<string, string>> {
  const results: Record<string, string> = {};
  for (const requested of requests) results[requested] = await outcome(ws, requested);
  return results;
}

it("resolves tracks/metadata.json inside the music workspace", async () => {
  const ws = musicWorkspace();
  expect(await outcomes(ws, ["tracks/metadata.json", "tracks\\metadata.json"]), "what the policy does with each spelling").toEqual({
    "tracks/metadata.json": `inside: ${join("tracks", "metadata.json")}`,
    "tracks\\metadata.json": `inside: ${join("tracks", "metadata.json")}`,
  });
});

it("refuses ../tracks/metadata.json because it leaves the workspace", async () => {
  const ws = musicWorkspace();
  expect(await outcomes(ws, ["../tracks/metadata.json"]), "what the policy does with a request that climbs out").toEqual({
    "../tracks/metadata.json": "escapes",
  });
});

it("sorts a Windows session's references into inside, absolute and escaping", async () => {
  const ws = musicWorkspace();
  const results = await outcomes(
    ws,
    session.references.map((reference) => reference.path),
  );
  expect(results, "what the policy does with each reference of the session file").toEqual({
    "tracks\\metadata.json": `inside: ${join("tracks", "metadata.json")}`,
    "tracks\\01-intro\\bass.wav": `inside: ${join("tracks", "01-intro", "bass.wav")}`,
    "samples\\kick.wav": `inside: ${join("samples", "kick.wav")}`,
    "C:\\Users\\ana\\Music\\Samples\\snare.wav": "absolute",
    "\\\\studio-nas\\library\\pads\\warm-pad.wav": "absolute",
    "D:loops\\vinyl-crackle.wav": "absolute",
    "..\\artwork\\cover.png": "escapes",
  });
});
