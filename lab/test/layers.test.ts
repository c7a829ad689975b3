// The engine's layers point one way. Every source file of the lab and the site belongs to a layer, and a
// file imports only from its own layer or the layers below it (type imports and `import()` count: a
// hidden arrow is still an arrow), and no files import each other in a circle. The order is the order
// data flows in (docs/design.md, "The lab, laid out by the pipeline its data follows").
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import ts from "typescript-5";
import { expect, it } from "vitest";
import { ROOT } from "../core/layout.js";

/** Bottom to top. A file's layer is the first whose folder (or file) holds it. */
const LAYERS: ReadonlyArray<{ readonly name: string; readonly holds: readonly string[] }> = [
  { name: "core", holds: ["lab/core/"] },
  { name: "catalog", holds: ["lab/catalog/"] },
  { name: "i18n", holds: ["lab/i18n/"] },
  { name: "trees", holds: ["lab/trees/"] },
  { name: "vitest", holds: ["lab/vitest/", "lab/testing.ts", "lab/outcome.ts"] },
  { name: "evidence", holds: ["lab/evidence/"] },
  { name: "mutation", holds: ["lab/mutation/"] },
  { name: "authoring", holds: ["lab/authoring/"] },
  { name: "verify", holds: ["lab/verify/"] },
  { name: "site's browser code", holds: ["site/client/"] },
  { name: "site", holds: ["site/"] },
  { name: "attack", holds: ["lab/attack/"] },
  { name: "cli and bench", holds: ["lab/cli/", "lab/bench/"] },
  { name: "entry points", holds: ["lab/bin/", "site/bin/"] },
];

const isTest = (file: string) => /(^|\/)test\//.test(file) || file.endsWith(".test.ts");

/** The tracked sources of the lab and the site, tests left out (they may use anything). */
function sources(): string[] {
  const listed = execFileSync("git", ["ls-files", "-z", "--", "lab", "site"], { cwd: ROOT, encoding: "utf8" });
  return listed.split("\0").filter((file) => /\.(?:ts|mts|mjs)$/.test(file) && !isTest(file) && !file.startsWith("site/dist/"));
}

function layerOf(file: string): number {
  return LAYERS.findIndex((layer) => layer.holds.some((holds) => (holds.endsWith("/") ? file.startsWith(holds) : file === holds)));
}

const parsed = new Map<string, string[]>();

/** Every file a source imports from this repository: static, type-only, re-exported and `import("…")`. Parsed once per file. */
function importsOf(file: string): string[] {
  const known = parsed.get(file);
  if (known) return known;
  const found = parseImports(file);
  parsed.set(file, found);
  return found;
}

function parseImports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      specifiers.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) specifiers.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) =>
      normalize(join(dirname(file), specifier))
        .replace(/\.js$/, ".ts")
        .split("\\")
        .join("/"),
    )
    .filter((target) => !relative(ROOT, join(ROOT, target)).startsWith(".."));
}

// Each test lists the tracked files with git and parses a few hundred sources: seconds on a loaded
// machine, so neither leans on vitest's default timeout.
const PARSES_THE_SOURCES = { timeout: 60_000 };

it("keeps every layer of the lab and the site importing only from itself or the layers below it", PARSES_THE_SOURCES, () => {
  const files = sources();
  const unplaced = files.filter((file) => layerOf(file) < 0);
  expect(unplaced, "source files that belong to no layer (add their folder to LAYERS)").toEqual([]);
  const upward: string[] = [];
  for (const file of files) {
    for (const target of importsOf(file)) {
      const to = layerOf(target);
      const from = layerOf(file);
      if (to > from) upward.push(`${file} (${LAYERS[from]?.name}) imports ${target} (${LAYERS[to]?.name})`);
    }
  }
  expect(upward, "imports that run up from a lower layer to a higher one").toEqual([]);
});

it("has no circle of imports among the lab's and the site's files", PARSES_THE_SOURCES, () => {
  const files = new Set(sources());
  const edges = new Map([...files].map((file) => [file, importsOf(file).filter((target) => files.has(target))]));
  // Tarjan's strongly connected components: every component of more than one file is a circle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let counter = 0;
  const connect = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      const self = (edges.get(file) ?? []).includes(file);
      if (component.length > 1 || self) circles.push(component.sort());
    }
  };
  for (const file of files) if (!index.has(file)) connect(file);
  expect(circles, "files that import each other in a circle").toEqual([]);
});
