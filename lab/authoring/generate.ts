// What `npm run generate` does: rewrite everything the repository derives from its sources — the JSON
// Schema files, tsconfig.json's per-stage entries, the course map's blocks and the generated blocks of the
// lesson READMEs.
// Safe to run at any time; it reports what changed and what keeps a lesson from being generated.
import { existsSync, readFileSync } from "node:fs";
import type { Catalog } from "../catalog/catalog.js";
import { withLf, writeFileAtomic } from "../core/files.js";
import { localized, repoPath } from "../core/layout.js";
import { LOCALES } from "../core/locale.js";
import { courseMapSync, generatedFiles } from "./generated.js";
import { syncBlocks } from "./lesson.js";
import { committedSummary } from "../mutation/stage.js";

export interface Generation {
  /** Repository paths of the files rewritten. */
  readonly updated: readonly string[];
  readonly problems: readonly string[];
}

/** Rewrites the generated files, and the lesson blocks of the chosen stages (every stage when none). */
export function generate(catalog: Catalog, chosen: readonly string[] = []): Generation {
  const updated: string[] = [];
  const problems: string[] = catalog.problems.map((problem) => `${problem.file}: ${problem.message}`);
  const update = (file: string, content: string) => {
    // A file that differs only in its line endings is left alone: .gitattributes gives it LF in the repository.
    if (existsSync(file) && withLf(readFileSync(file, "utf8")) === withLf(content)) return;
    writeFileAtomic(file, content);
    updated.push(repoPath(file));
  };
  for (const { file, content } of generatedFiles(catalog)) update(file, content);
  problems.push(...courseMapSync(catalog).problems);
  for (const stage of catalog.stages) {
    if (chosen.length > 0 && !chosen.includes(stage.id)) continue;
    if (!stage.spec || !stage.contract) continue;
    // Each edition's lesson that exists; a missing twin is verify's parity check to name.
    for (const locale of LOCALES) {
      const readme = localized(stage.readmePath, locale);
      if (!existsSync(readme)) continue;
      const sync = syncBlocks(withLf(readFileSync(readme, "utf8")), {
        stage,
        spec: stage.spec,
        contract: stage.contract,
        mutation: committedSummary(stage),
        locale,
      });
      problems.push(...sync.problems.map((problem) => `${repoPath(readme)}: ${problem}`));
      update(readme, sync.text);
    }
  }
  return { updated, problems };
}
