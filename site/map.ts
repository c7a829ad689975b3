// The course map page: stages/README.md (or its twin) rendered, with its learning-path block replaced by
// a diagram drawn at build time from the catalog (inline SVG: the page fetches nothing) and the same
// facts as a table, which is also the diagram's text alternative; both in the page's edition.
import { blockPattern } from "../lab/authoring/lesson.js";
import { PATH_COLUMNS, pathCells, listOf, type PathStage } from "../lab/authoring/map.js";
import type { Locale } from "../lab/core/locale.js";
import { TEXT } from "./client/text.js";
import { escapeHtml } from "./client/widgets/shared.js";
import { langAttribute, markdown, untranslatedNote, withHeadingIds, withoutSwitchLine } from "./render.js";

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
export function pathDescription(path: readonly PathStage[], locale: Locale = "en"): string {
  const nn = (id: string) => path.find((stage) => stage.id === id)?.nn ?? id;
  const imports = path
    .filter((stage) => stage.dependsOn.length > 0)
    .map((stage) => ({ nn: stage.nn, list: listOf(stage.dependsOn.map(nn), locale), several: stage.dependsOn.length > 1 }));
  const alone = path.length - path.filter((stage) => stage.dependsOn.length > 0 || stage.usedBy.length > 0).length;
  return TEXT[locale].map.description(path.length, imports, alone);
}

/**
 * The stages top to bottom in course order; an arc on the right from a stage to a later one means the
 * later stage's reference imports the earlier one's module.
 */
export function pathDiagram(path: readonly PathStage[], locale: Locale = "en"): string {
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
<title id="path-diagram-title">${TEXT[locale].map.diagramTitle}</title>
<desc id="path-diagram-desc">${escapeHtml(pathDescription(path, locale))}</desc>
<defs><marker id="path-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path class="arrow" d="M 0 0 L 10 5 L 0 10 z"/></marker></defs>
${arcs.join("\n")}
${nodes.join("\n")}
</svg>`;
}

/** The same facts as the diagram, one row per stage: the page's text alternative and its reference. */
export function pathTable(path: readonly PathStage[], locale: Locale = "en"): string {
  const md = markdown(0, locale);
  const rows = path.map((stage) => {
    const cells = pathCells(stage, path, locale);
    return `<tr><th scope="row"><a href="stages/${stage.id}.html">${stage.nn} · ${escapeHtml(stage.title)}</a></th><td>${md.renderInline(cells.dependsOn)}</td><td>${md.renderInline(cells.provides)}</td><td>${md.renderInline(cells.constrainedBy)}</td></tr>`;
  });
  const columns = PATH_COLUMNS[locale].map((column) => `<th scope="col">${column}</th>`).join("");
  return `<table class="path"><caption>${TEXT[locale].map.tableCaption}</caption><thead><tr>${columns}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/**
 * The course map's main content: its prose as written, with the learning path drawn in the page's
 * edition. `textLocale` is the edition the markdown is in: English while the map has no translation,
 * which the page then marks and says.
 */
export function mapMain(markdownText: string, path: readonly PathStage[], locale: Locale = "en", textLocale: Locale = locale): string {
  const key = "FORGEWIDGETPATH";
  const text = withoutSwitchLine(markdownText)
    .replace(blockPattern("path"), `\n${key}\n`)
    // The two tool loops' blocks are plain markdown between their markers: only the markers go.
    .replace(/^<!-- \/?forge:(?:checked-)?loop -->\n/gm, "");
  const drawn = `<figure class="path-figure">${pathDiagram(path, locale)}<figcaption>${TEXT[locale].map.figcaption}</figcaption></figure>${pathTable(path, locale)}`;
  // Inside a map shown in English, the path is still in the page's edition.
  const figure = textLocale === locale ? drawn : `<div${langAttribute(locale, textLocale)}>${drawn}</div>`;
  const html = withHeadingIds(
    markdown(0, textLocale)
      .render(text)
      .replace(`<p>${key}</p>`, () => figure),
  );
  const lang = langAttribute(textLocale, locale);
  return `${lang ? untranslatedNote(locale) : ""}<article class="course-map"${lang}>${html}</article>`;
}
