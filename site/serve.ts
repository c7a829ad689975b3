// The local server of `npm start`: the built site, plus a read-only list of this checkout's evidence
// files so the self-check can offer them. It listens on the loopback interface only.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { extname, join, normalize } from "node:path";
import { readFileState } from "../lab/core/files.js";
import { isInside } from "../lab/core/inside.js";
import { dirs, evidenceRoot } from "../lab/core/layout.js";
import { targetOfEvidence } from "../lab/evidence/build.js";
import type { Target } from "../lab/trees/targets.js";
import { EVIDENCE_ENDPOINT } from "./client/course.js";

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
};

export interface EvidenceEntry {
  /** The key the page asks for; only keys from this list are ever served. */
  readonly key: string;
  readonly stage: string;
  readonly target: Target;
  readonly file: string;
}

export function listEvidence(root: string = dirs.evidence): EvidenceEntry[] {
  const course = evidenceRoot(root);
  if (!existsSync(course)) return [];
  const entries: EvidenceEntry[] = [];
  for (const folder of readdirSync(course, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    for (const file of readdirSync(join(course, folder.name), { withFileTypes: true })) {
      const target = file.isFile() ? targetOfEvidence(file.name) : null;
      if (target === null) continue;
      const key = `${folder.name}/${file.name}`;
      entries.push({ key, stage: folder.name, target, file: key });
    }
  }
  return entries.sort((a, b) => (a.key < b.key ? -1 : 1));
}

/** Whether a Host header names this machine on the port the server listens on. */
export function isLocalHost(host: string | undefined, server: Server): boolean {
  const address = server.address();
  if (!host || typeof address !== "object" || address === null) return false;
  return [`localhost:${address.port}`, `127.0.0.1:${address.port}`, `[::1]:${address.port}`].includes(host.toLowerCase());
}

export function startServer(options: { root: string; port: number; evidence?: string }): Promise<Server> {
  const { root, port } = options;
  const evidence = options.evidence ?? dirs.evidence;
  const server = createServer((request, response) => {
    const send = (status: number, body: string | Buffer, type = "text/plain; charset=utf-8") => {
      response.writeHead(status, { "content-type": type, "cache-control": "no-store", "x-content-type-options": "nosniff" });
      response.end(request.method === "HEAD" ? undefined : body);
    };
    if (request.method !== "GET" && request.method !== "HEAD") return send(405, "Only GET and HEAD are served.");
    // A page on another site can point a name it controls at 127.0.0.1 (DNS rebinding) and read what we
    // serve: only the names of this machine, with the port we listen on, are answered.
    if (!isLocalHost(request.headers.host, server))
      return send(403, "This server answers only to localhost, 127.0.0.1 and [::1] on its own port.");
    let path: string;
    try {
      path = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    } catch {
      return send(400, "Bad request path.");
    }
    if (path === `/${EVIDENCE_ENDPOINT}`) return send(200, JSON.stringify(listEvidence(evidence)), TYPES[".json"]);
    if (path.startsWith(`/${EVIDENCE_ENDPOINT}/`)) {
      // Only a key from the listing is served: the request never becomes a path.
      const key = path.slice(EVIDENCE_ENDPOINT.length + 2);
      const entry = listEvidence(evidence).find((candidate) => candidate.key === key);
      const state = entry ? readFileState(join(evidenceRoot(evidence), entry.key)) : null;
      if (state?.kind !== "file") return send(404, "No such evidence file.");
      return send(200, state.bytes, TYPES[".json"]);
    }
    const wanted = normalize(join(root, path.endsWith("/") ? `${path}index.html` : path));
    if (!isInside(root, wanted) || !existsSync(wanted) || !statSync(wanted).isFile()) {
      return send(404, "Not found.");
    }
    return send(200, readFileSync(wanted), TYPES[extname(wanted)] ?? "application/octet-stream");
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}
