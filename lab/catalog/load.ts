// The catalog read from the files themselves, each validated against its schema; and the compiled
// catalog `npm run generate` writes from that reading (compiled.ts reads it back without a schema library).
import { existsSync, readFileSync } from "node:fs";
import type * as z from "zod/mini";
import { dirs, repoPath, type Layout } from "../core/layout.js";
import { readCatalog, type Catalog, type ProblemSink, type SpecReader } from "./catalog.js";
import { COMPILED_CATALOG_VERSION, contentHash, type CompiledCatalog, type CompiledFile } from "./compiled.js";
import { failureSchema } from "./failure-schema.js";
import { stageSchema } from "./stage-schema.js";

function readValidated<S extends z.ZodMiniType>(file: string, schema: S, problem: ProblemSink): z.infer<S> | null {
  if (!existsSync(file)) {
    problem(file, "missing");
    return null;
  }
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    problem(file, `not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.join(".") : "(top level)";
    problem(file, `${field}: ${issue.message}`);
  }
  return null;
}

const validating: SpecReader = {
  stage: (file, problem) => readValidated(file, stageSchema, problem),
  contract: (file, problem) => readValidated(file, failureSchema, problem),
};

/** Reads every stage of a checkout (this one unless told otherwise), validating each data file. */
export function loadCatalog(layout: Layout = dirs): Catalog {
  return readCatalog(layout, validating);
}

/** The compiled catalog of a checkout, as `npm run generate` writes it: every data file the catalog reads, validated. */
export function compileCatalog(layout: Layout = dirs): string {
  const files: CompiledFile[] = [];
  // Each read goes through the validating reader and is recorded as it went, problems included.
  const recorded =
    <T extends CompiledFile["data"]>(read: (file: string, problem: ProblemSink) => T) =>
    (file: string, problem: ProblemSink): T => {
      const problems: string[] = [];
      const data = read(file, (at, message) => {
        problems.push(message);
        problem(at, message);
      });
      files.push({ path: repoPath(file, layout.root), sha256: contentHash(file), data, problems });
      return data;
    };
  const reader: SpecReader = { stage: recorded(validating.stage), contract: recorded(validating.contract) };
  readCatalog(layout, reader);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const compiled: CompiledCatalog = { version: COMPILED_CATALOG_VERSION, files };
  // One line per data file, so that a diff of the compiled catalog names the file that changed.
  const lines = compiled.files.map((file) => JSON.stringify(file));
  return `{"version":${JSON.stringify(compiled.version)},"files":[\n${lines.join(",\n")}\n]}\n`;
}
