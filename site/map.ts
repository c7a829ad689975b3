// The course map page: stages/README.md rendered, with its learning-path block replaced by a diagram
// drawn at build time from the catalog (inline SVG: the page fetches nothing) and the same facts as a
// table, which is also the diagram's text alternative.
import { blockPattern } from "../lab/authoring/lesson.js";
import { pathCells, listOf, type PathStage } from "../lab/authoring/map.js";
import { withLf } from "../lab/core/files.js";
import { escapeHtml, markdown, slug } from "./render.js";

const NODE_WIDTH = 300;
const NODE_HEIGHT = 44;
const ROW_GAP = 10;
const PAD = 4;
/** How far an arc reaches to the right: a little more for each row it spans, so nested arcs never meet. */
const ARC_BASE = 18;
const ARC_PER_ROW = 14;

const rowTop = (row: number) => PAD + row * (NODE_HEIGHT + ROW_GAP);
const rowMiddle = (row: number) => rowTop(row) + NODE_HEIGHT / 2;

/** What the diagram shows, in words: its description for assistive technology. */
export function pathDescription(path: readonly PathStage[]): string {
  const nn = (id: string) => path.find((stage) => stage.id === id)?.nn ?? id;
  const imports = path
    .filter((stage) => stage.dependsOn.length > 0)
    .map((stage) => `stage ${stage.nn} imports ${stage.dependsOn.length === 1 ? "stage" : "stages"} ${listOf(stage.dependsOn.map(nn))}`);
  const alone = path.length - path.filter((stage) => stage.dependsOn.length > 0 || stage.usedBy.length > 0).length;
  const sentence = imports.join("; ");
  const said = sentence ? `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}. ` : "";
  return `${path.length} stages in course order. ${said}${alone} stand${alone === 1 ? "s" : ""} alone. The table after the diagram lists the same facts.`;
}

/**
 * The stages top to bottom in course order; an arc on the right from a stage to a later one means the
 * later stage's reference imports the earlier one's module.
 */
export function pathDiagram(path: readonly PathStage[]): string {
  const row = new Map(path.map((stage, index) => [stage.id, index]));
  const right = PAD + NODE_WIDTH;
  /** Where the k-th of n arcs meets a node's right edge: spread over its height, so no two arrows overlap. */
  const anchor = (index: number, k: number, n: number) =>
    n === 1 ? rowMiddle(index) : rowTop(index) + 8 + (k * (NODE_HEIGHT - 16)) / (n - 1);
  const arcs = path.flatMap((stage) =>
    stage.dependsOn.map((id, k) => {
      const from = row.get(id) ?? 0;
      const to = row.get(stage.id) ?? 0;
      const source = path[from];
      const start = anchor(from, source?.usedBy.indexOf(stage.id) ?? 0, source?.usedBy.length ?? 1);
      const end = anchor(to, k, stage.dependsOn.length);
      const reach = right + ARC_BASE + ARC_PER_ROW * Math.abs(to - from);
      return `<path class="arc" d="M ${right} ${start} C ${reach} ${start}, ${reach} ${end}, ${right + 2} ${end}" marker-end="url(#path-arrow)"/>`;
    }),
  );
  const longest = Math.max(
    0,
    ...path.flatMap((stage) => stage.dependsOn.map((id) => Math.abs((row.get(stage.id) ?? 0) - (row.get(id) ?? 0)))),
  );
  const width = right + ARC_BASE + ARC_PER_ROW * longest + PAD;
  const height = rowTop(path.length) - ROW_GAP + PAD;
  const nodes = path.map((stage, index) => {
    const top = rowTop(index);
    const module = stage.modules.map((file) => file.replace(/^forge\/tools\//, "")).join(", ");
    return `<g class="node"><rect x="${PAD}" y="${top}" width="${NODE_WIDTH}" height="${NODE_HEIGHT}" rx="6"/><text class="node-title" x="${PAD + 12}" y="${top + 18}">${escapeHtml(`${stage.nn} · ${stage.title}`)}</text><text class="node-module" x="${PAD + 12}" y="${top + 35}">${escapeHtml(module)}</text></g>`;
  });
  return `<svg class="path-diagram" role="img" aria-labelledby="path-diagram-title path-diagram-desc" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">
<title id="path-diagram-title">The learning path</title>
<desc id="path-diagram-desc">${escapeHtml(pathDescription(path))}</desc>
<defs><marker id="path-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path class="arrow" d="M 0 0 L 10 5 L 0 10 z"/></marker></defs>
${arcs.join("\n")}
${nodes.join("\n")}
</svg>`;
}

/** The same facts as the diagram, one row per stage: the page's text alternative and its reference. */
export function pathTable(path: readonly PathStage[]): string {
  const md = markdown(0);
  const rows = path.map((stage) => {
    const cells = pathCells(stage, path);
    return `<tr><th scope="row"><a href="stages/${stage.id}.html">${stage.nn} · ${escapeHtml(stage.title)}</a></th><td>${md.renderInline(cells.dependsOn)}</td><td>${md.renderInline(cells.provides)}</td><td>${md.renderInline(cells.constrainedBy)}</td></tr>`;
  });
  return `<table class="path"><caption>What each stage depends on, provides and is constrained by</caption><thead><tr><th scope="col">Stage</th><th scope="col">Depends on</th><th scope="col">Provides</th><th scope="col">Constrained by</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/** The course map's main content: its prose as written, with the learning path drawn. */
export function mapMain(markdownText: string, path: readonly PathStage[]): string {
  const key = "FORGEWIDGETPATH";
  const text = withLf(markdownText)
    .replace(blockPattern("path"), `\n${key}\n`)
    // The tool loop's block is plain markdown between its markers: only the markers go.
    .replace(/^<!-- \/?forge:loop -->\n/gm, "");
  const figure = `<figure class="path-figure">${pathDiagram(path)}<figcaption>Stages in course order. An arc from one stage to a later one: the later stage's reference imports the earlier one's module.</figcaption></figure>${pathTable(path)}`;
  const html = markdown(0)
    .render(text)
    .replace(`<p>${key}</p>`, () => figure)
    .replace(/<h2>(.*?)<\/h2>/g, (_match: string, title: string) => `<h2 id="${slug(title)}">${title}</h2>`);
  return `<article class="course-map">${html}</article>`;
}
