// Builds the static course site into site/dist: a home page, a page per stage, one script and one
// stylesheet. The result works opened straight from disk and from any static host.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { build as esbuild } from "esbuild";
import { dirs } from "../lab/core/layout.js";
import { headings } from "../lab/authoring/lesson.js";
import type { StagePageData } from "./client/course.js";
import { courseData, loadCourse, stagePage } from "./content.js";
import { homeMain, markdown, page, stageMain, stageNav } from "./render.js";

const SITE = dirs.site;
export const DIST = dirs.siteDist;

export interface PageSize {
  readonly page: string;
  /** HTML + JS + CSS in bytes, code listings (`<pre>` elements) excluded. */
  readonly bytes: number;
  readonly listingBytes: number;
}

export interface BuildResult {
  readonly pages: readonly string[];
  readonly sizes: readonly PageSize[];
  readonly skipped: readonly string[];
}

function listingBytes(html: string): number {
  let total = 0;
  for (const match of html.matchAll(/<pre[\s\S]*?<\/pre>/g)) total += Buffer.byteLength(match[0]);
  return total;
}

export async function buildSite(outDir: string = DIST): Promise<BuildResult> {
  const course = loadCourse();
  const data = courseData(course);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, "assets"), { recursive: true });
  mkdirSync(join(outDir, "stages"), { recursive: true });

  const bundle = await esbuild({
    entryPoints: [join(SITE, "client", "main.ts")],
    bundle: true,
    format: "iife", // a module script is refused on file:// pages; a classic one is not
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    write: false,
  });
  const script = bundle.outputFiles[0]?.contents ?? new Uint8Array();
  const theme = readFileSync(createRequire(import.meta.url).resolve("highlight.js/styles/github.css"), "utf8");
  const style = `${readFileSync(join(SITE, "styles.css"), "utf8")}\n${theme}`;
  writeFileSync(join(outDir, "assets", "app.js"), script);
  writeFileSync(join(outDir, "assets", "app.css"), style);

  const pages: Array<{ path: string; html: string }> = [];
  const overview = markdown(0).render(readFileSync(join(SITE, "overview.md"), "utf8"));
  pages.push({
    path: "index.html",
    html: page({
      title: "Forge Lab",
      description: "A course on tools, sandboxes and side-effect control for agent harnesses.",
      depth: 0,
      main: homeMain(data, overview),
      course: data,
    }),
  });
  for (const content of course.stages) {
    const stageData: StagePageData = {
      id: content.stage.id,
      prediction: { answer: content.spec.prediction.answer, options: content.spec.prediction.options },
      hints: content.spec.hints.length,
      rubric: content.spec.design.rubric.length,
    };
    pages.push({
      path: stagePage(content.stage),
      html: page({
        title: `Stage ${content.stage.nn} · ${content.spec.title} — Forge Lab`,
        description: content.spec.summary,
        depth: 1,
        main: stageMain(content),
        course: data,
        stage: stageData,
        nav: stageNav(content.stage.id, data, headings(content.readme)),
      }),
    });
  }
  const sizes: PageSize[] = [];
  for (const { path, html } of pages) {
    writeFileSync(join(outDir, path), html);
    const listings = listingBytes(html);
    sizes.push({
      page: path,
      bytes: Buffer.byteLength(html) - listings + script.byteLength + Buffer.byteLength(style),
      listingBytes: listings,
    });
  }
  writeFileSync(join(outDir, "sizes.json"), `${JSON.stringify(sizes, null, 2)}\n`);
  return {
    pages: pages.map((entry) => entry.path),
    sizes,
    skipped: course.skipped.map((problem) => `${problem.stage}: ${problem.message}`),
  };
}
