// The compiled catalog: what `npm run generate` found in every stage.json and fault contract, validated,
// with each file's hash. `vitest.config.ts` reads it instead of validating the files again, so a learner's
// `npm test` loads no schema library; verify fails when it is stale, and a file edited since makes
// `readCompiledCatalog` stop with one line that says to run `npm run generate`.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { entryKind, withLf } from "../core/files.js";
import { dirs, repoPath, type Layout } from "../core/layout.js";
import { readCatalog, type Catalog, type ProblemSink, type SpecReader } from "./catalog.js";
import type { FaultContract } from "./failure-schema.js";
import type { StageSpec } from "./stage-schema.js";

export const COMPILED_CATALOG_VERSION = 1;

/** One data file as generation read it. */
export interface CompiledFile {
  /** Repository path. */
  readonly path: string;
  /** SHA-256 of the content with LF line endings (a CRLF checkout reads the same), or null when missing. */
  readonly sha256: string | null;
  /** The validated content, or null when it had problems. */
  readonly data: StageSpec | FaultContract | null;
  /** What was wrong with it, as the validating reader said. */
  readonly problems: readonly string[];
}

export interface CompiledCatalog {
  readonly version: typeof COMPILED_CATALOG_VERSION;
  readonly files: readonly CompiledFile[];
}

/** The hash a compiled entry records for a file's content as it is now; null when there is no file. */
export function contentHash(file: string): string | null {
  if (!existsSync(file)) return null;
  // A FIFO would block the read forever, a folder cannot be read: neither is what generation hashed.
  if (entryKind(file) !== "file") return "not a file";
  return createHash("sha256")
    .update(withLf(readFileSync(file, "utf8")))
    .digest("hex");
}

/** A data file changed after generation, or generation never saw it: the compiled catalog cannot answer for it. */
export class StaleCatalogError extends Error {
  constructor(readonly file: string) {
    super(`${file} is not what the compiled catalog was made from: run npm run generate`);
    this.name = "StaleCatalogError";
  }
}

/**
 * The catalog from the compiled file. A file whose hash differs from its entry throws StaleCatalogError;
 * so does a compiled file that is missing or of another version.
 */
export function readCompiledCatalog(layout: Layout = dirs): Catalog {
  const compiledPath = repoPath(layout.compiledCatalog, layout.root);
  if (entryKind(layout.compiledCatalog) !== "file") throw new StaleCatalogError(compiledPath);
  let compiled: CompiledCatalog;
  try {
    // Trusted as written: generation validated every entry, and verify checks the file is fresh.
    compiled = JSON.parse(readFileSync(layout.compiledCatalog, "utf8")) as CompiledCatalog;
  } catch {
    throw new StaleCatalogError(compiledPath);
  }
  if (compiled.version !== COMPILED_CATALOG_VERSION || !Array.isArray(compiled.files)) throw new StaleCatalogError(compiledPath);
  const entries = new Map(compiled.files.map((entry) => [entry.path, entry]));
  const read = (file: string, problem: ProblemSink) => {
    const path = repoPath(file, layout.root);
    const entry = entries.get(path);
    if (entry === undefined || entry.sha256 !== contentHash(file)) throw new StaleCatalogError(path);
    for (const message of entry.problems) problem(file, message);
    return entry.data;
  };
  const reader: SpecReader = {
    stage: (file, problem) => read(file, problem) as StageSpec | null,
    contract: (file, problem) => read(file, problem) as FaultContract | null,
  };
  return readCatalog(layout, reader);
}
