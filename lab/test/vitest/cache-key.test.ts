// The key the lab adds to vitest's module cache on disk: a transformed module names the files its imports
// resolved to, so a module compiled in one tree must never be served in another.
import { join } from "node:path";
import { expect, it } from "vitest";
import { MODULE_DIR } from "../../core/layout.js";
import { moduleCacheKey } from "../../vitest/resolver.js";
import { temporaryFolder, writeTree } from "../../testing.js";

const TEST = 'import { createRegistry } from "forge/tools/registry";\nimport { expect } from "vitest";\n';

/** Two references and a learner's workspace, each with the registry; the second reference also has the journal. */
function trees() {
  const root = temporaryFolder();
  writeTree(root, {
    [`reference-a/${MODULE_DIR}/registry.ts`]: "export {};",
    [`reference-b/${MODULE_DIR}/registry.ts`]: "export {};",
    [`reference-b/${MODULE_DIR}/journal.ts`]: 'import "./registry.js";',
    [`workspace/${MODULE_DIR}/registry.ts`]: "export {};",
  });
  const at = (name: string) => join(root, name);
  return {
    root,
    a: { layers: [at("reference-a")], learner: null },
    b: { layers: [at("reference-a"), at("reference-b")], learner: null },
    workspace: { layers: [at("workspace")], learner: at("workspace") },
    at,
  };
}

it("keys a test by where its imports of the course's modules resolve, so each tree has its own transform", () => {
  const { a, b, workspace, at, root } = trees();
  const test = join(root, "stages", "registry.test.ts");
  expect(moduleCacheKey(a, test, TEST), "against reference a").toBe(`forge/tools/registry=${at(`reference-a/${MODULE_DIR}/registry.ts`)}`);
  expect(moduleCacheKey(b, test, TEST), "against reference b, layered over a").toBe(
    `forge/tools/registry=${at(`reference-b/${MODULE_DIR}/registry.ts`)}`,
  );
  expect(moduleCacheKey(workspace, test, TEST), "against the workspace").toBe(
    `forge/tools/registry=${at(`workspace/${MODULE_DIR}/registry.ts`)}`,
  );
  // A module's relative import of a sibling resolves through the layers too.
  const journal = at(`reference-b/${MODULE_DIR}/journal.ts`);
  expect(moduleCacheKey(b, journal, 'import "./registry.js";')).toBe(`./registry.js=${at(`reference-b/${MODULE_DIR}/registry.ts`)}`);
  // Imports that are not the course's modules resolve the same in every tree: the key has nothing to add.
  expect(moduleCacheKey(a, test, 'import { expect } from "vitest";\nimport "../lab/outcome.js";')).toBe("");
});

it("never caches the learner's modules, a virtual module, or a module whose import reaches a stand-in", () => {
  const { a, workspace, at, root } = trees();
  const test = join(root, "stages", "journal.test.ts");
  expect(moduleCacheKey(workspace, at(`workspace/${MODULE_DIR}/registry.ts`), "export {};"), "the learner's module").toBe(false);
  expect(moduleCacheKey(a, "\0forge-missing:journal", "throw error;"), "a virtual module").toBe(false);
  expect(moduleCacheKey(a, test, 'import { journal } from "forge/tools/journal";'), "a missing module").toBe(false);
  writeTree(root, { [`reference-a/${MODULE_DIR}/journal.ts/placeholder`]: "" });
  expect(moduleCacheKey(a, test, 'import { journal } from "forge/tools/journal.js";'), "a folder where a module belongs").toBe(false);
});
