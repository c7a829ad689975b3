// The course map page: the learning path drawn from the catalog as inline SVG, with the same facts as a
// table, and the rest of stages/README.md rendered as written.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { loadCatalog } from "../../lab/catalog/load.js";
import { learningPath } from "../../lab/authoring/map.js";
import { dirs } from "../../lab/core/layout.js";
import { mapMain, pathDescription, pathDiagram } from "../map.js";

const path = learningPath(loadCatalog().stages);

it("draws one node per stage and one arc per import, and says the same in words", () => {
  const svg = pathDiagram(path);
  const imports = path.reduce((sum, stage) => sum + stage.dependsOn.length, 0);
  expect([...svg.matchAll(/<g class="node">/g)].length, "nodes in the diagram").toBe(path.length);
  expect([...svg.matchAll(/<path class="arc" /g)].length, "arcs in the diagram").toBe(imports);
  expect(svg, "the diagram is an image named by its title and description").toMatch(
    /^<svg class="path-diagram" role="img" aria-labelledby="path-diagram-title path-diagram-desc"/,
  );
  expect(pathDescription(path), "the description").toBe(
    `${path.length} stages in course order. Stage 06 imports stage 05; stage 07 imports stages 02, 03, 04, 05 and 06; stage 11 imports stage 10; stage 12 imports stages 01, 02, 04, 07, 08, 09 and 11. Every stage is imported or imports another. The table after the diagram lists the same facts.`,
  );
  expect(svg, "nothing in the diagram is fetched").not.toMatch(/(?:href|src)="(?!#)|url\((?!#)/);
});

it("renders the course map with the path drawn and tabled, and no block marker left", () => {
  const html = mapMain(readFileSync(dirs.courseMap, "utf8"), path);
  expect(html, "the diagram").toContain('<svg class="path-diagram"');
  expect([...html.matchAll(/<tr><th scope="row"><a href="stages\/stage-\d\d-[a-z0-9-]+\.html">/g)].length, "table rows").toBe(path.length);
  expect(html, "the stage 07 row").toMatch(/07 · Side-effect controller<\/a><\/th><td>stages 02, 03, 04, 05 and 06<\/td>/);
  expect(html, "generated-block markers").not.toContain("forge:");
  expect(html, "the tool loop, highlighted").toContain('<pre class="code" data-lang="ts">');
  expect(html, "anchors for the side navigation").toContain('<h2 id="when-you-are-stuck">When you are stuck</h2>');
  expect(html, "the link to stage 01").toContain('<a href="stages/stage-01-capability-registry.html">stage 01 · Capability registry</a>');
});
