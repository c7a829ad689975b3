// The JSON Schema files committed beside the data they describe, exported from the zod schemas.
// Editors use them to check stage.json and failure.json as you type; a lab test fails when one is stale.
import { join } from "node:path";
import { z } from "zod";
import { layoutOf, ROOT, type Layout } from "../core/layout.js";
import { failureSchema } from "../catalog/failure-schema.js";
import { stageSchema } from "../catalog/stage-schema.js";
import { verificationSchema } from "../evidence/schema.js";

export interface ExportedSchema {
  readonly file: string;
  readonly content: string;
}

const render = (schema: Record<string, unknown>) => `${JSON.stringify(schema, null, 2)}\n`;

/** The schema files of a checkout (this one unless told): its committed files, wherever FORGE_EVIDENCE points a run's evidence. */
export function exportedSchemas(dirs: Layout = layoutOf(ROOT)): ExportedSchema[] {
  return [
    {
      file: join(dirs.evidence, "verification.schema.json"),
      content: render({
        ...z.toJSONSchema(verificationSchema, { target: "draft-2020-12", io: "output" }),
        title: "Forge Lab stage verification",
      }),
    },
    {
      file: join(dirs.stages, "stage.schema.json"),
      content: render({ ...z.toJSONSchema(stageSchema, { target: "draft-2020-12" }), title: "Forge Lab stage.json" }),
    },
    {
      file: join(dirs.fixtures, "failure.schema.json"),
      content: render({ ...z.toJSONSchema(failureSchema, { target: "draft-2020-12" }), title: "Forge Lab failure.json" }),
    },
  ];
}
