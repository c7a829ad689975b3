// Builds the static course site into site/dist: a home page, the course map, a page per stage, one
// script and one stylesheet. The result works opened straight from disk and from any static host.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build as esbuild } from "esbuild";
import { dirs } from "../lab/core/layout.js";
import { headings } from "../lab/authoring/lesson.js";
import { learningPath } from "../lab/authoring/map.js";
import { MAP_PAGE, type StagePageData } from "./client/course.js";
import { type Course, courseData, loadCourse, stagePage } from "./content.js";
import { mapMain } from "./map.js";
import { challengeParts, homeMain, markdown, page, siteNav, stageMain } from "./render.js";

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

export interface SiteSources {
  readonly course: Course;
  /** The course map's markdown (stages/README.md). */
  readonly courseMap: string;
}

export function siteSources(): SiteSources {
  return { course: loadCourse(), courseMap: readFileSync(dirs.courseMap, "utf8") };
}

/** Builds the site from the repository, or from the sources given (the tests give a synthetic lesson). */
export async function buildSite(outDir: string = DIST, sources: SiteSources = siteSources()): Promise<BuildResult> {
  const { course, courseMap } = sources;
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
  const style = readFileSync(join(SITE, "styles.css"), "utf8");
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
  pages.push({
    path: MAP_PAGE,
    html: page({
      title: "Course map — Forge Lab",
      description:
        "Where the course sits in an agent harness, its concepts, what to know first, what to do when stuck, and how the stages build on each other.",
      depth: 0,
      main: mapMain(courseMap, learningPath(course.stages.map((content) => content.stage))),
      course: data,
      nav: siteNav(MAP_PAGE, data, headings(courseMap), 0),
    }),
  });
  for (const content of course.stages) {
    const stageData: StagePageData = {
      id: content.stage.id,
      prediction: { answer: content.spec.prediction.answer, options: content.spec.prediction.options },
      hints: content.spec.hints.length,
      rubric: content.spec.design.rubric.length,
      challengeParts: challengeParts(content),
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
        nav: siteNav(content.stage.id, data, headings(content.readme), 1),
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
