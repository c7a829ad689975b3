// Builds the static course site into site/dist: each edition's home page, course map, glossary and a
// page per stage (English at the root, Simplified Chinese under zh-CN/), a script per edition, the home
// pages' small script and one stylesheet. The result works opened straight from disk and from any static host.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build as esbuild, transform, type Plugin } from "esbuild";
import { headings } from "../lab/authoring/lesson.js";
import { learningPath } from "../lab/authoring/map.js";
import { dirs, localized } from "../lab/core/layout.js";
import { LOCALES, type Locale } from "../lab/core/locale.js";
import { EDITION_DIRS, GLOSSARY_PAGE, MAP_PAGE, packCourse, selfCheckScript, type StagePageData } from "./client/course.js";
import { TEXT } from "./client/text.js";
import { contentIn, type Course, courseData, loadCourse, stagePage } from "./content.js";
import { mapMain } from "./map.js";
import { appScript, challengeParts, glossaryMain, homeMain, markdown, page, siteNav, stageMain, withoutSwitchLine } from "./render.js";

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
  /** Each edition's self-check script, which a page loads when a learner first checks a file. */
  readonly selfCheckSizes: ReadonlyArray<{ readonly script: string; readonly bytes: number }>;
  readonly skipped: readonly string[];
  /** Pages of an edition that show the English text, because its translation is not written yet. */
  readonly untranslated: readonly string[];
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
  /** Its twins in the other editions (stages/README.zh-CN.md), those that exist. */
  readonly courseMapTwins: Readonly<Partial<Record<Locale, string>>>;
}

export function siteSources(): SiteSources {
  const courseMapTwins: Partial<Record<Locale, string>> = {};
  for (const locale of LOCALES) {
    const twin = localized(dirs.courseMap, locale);
    if (locale !== "en" && existsSync(twin)) courseMapTwins[locale] = readFileSync(twin, "utf8");
  }
  return { course: loadCourse(), courseMap: readFileSync(dirs.courseMap, "utf8"), courseMapTwins };
}

/** The browser code's `./words.js` answered with the edition's own table: a page loads only its language. */
function editionWords(locale: Locale): Plugin {
  return {
    name: "edition-words",
    setup(build) {
      build.onResolve({ filter: /^\.\/words\.js$/ }, () => ({ path: join(SITE, "client", "text", `${locale}.ts`) }));
    },
  };
}

/** One browser script, bundled: a classic script, because a module script is refused on file:// pages. */
async function bundle(entry: string, locale: Locale = "en", define: Record<string, string> = {}): Promise<Uint8Array> {
  const result = await esbuild({
    entryPoints: [join(SITE, "client", entry)],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    // Chinese text as UTF-8, 3 bytes a character rather than a 6-byte escape; pages and the server say UTF-8.
    charset: "utf8",
    plugins: [editionWords(locale)],
    define,
    write: false,
  });
  return result.outputFiles[0]?.contents ?? new Uint8Array();
}

/** Builds the site from the repository, or from the sources given (the tests give a synthetic lesson). */
export async function buildSite(outDir: string = DIST, sources: SiteSources = siteSources()): Promise<BuildResult> {
  const { course, courseMap, courseMapTwins } = sources;
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, "assets"), { recursive: true });

  const scripts = new Map(await Promise.all(LOCALES.map(async (locale) => [locale, await bundle("main.ts", locale)] as const)));
  const home = await bundle("home.ts");
  // Minified like the scripts: every page loads it, and every byte of it counts against the page budget.
  const style = (await transform(readFileSync(join(SITE, "styles.css"), "utf8"), { loader: "css", minify: true, charset: "utf8" })).code;
  for (const [locale, script] of scripts) writeFileSync(join(outDir, "assets", appScript(locale)), script);
  // The self-check, loaded by a page only when a learner checks a file: the schema, the checks and the
  // edition's course data (client/selfcheck.ts).
  const selfChecks = new Map(
    await Promise.all(
      LOCALES.map(async (locale) => {
        const packed = JSON.stringify(packCourse(courseData(course, locale)));
        return [locale, await bundle("selfcheck.ts", locale, { FORGE_COURSE: packed })] as const;
      }),
    ),
  );
  for (const [locale, script] of selfChecks) writeFileSync(join(outDir, "assets", selfCheckScript(locale)), script);
  writeFileSync(join(outDir, "assets", "home.js"), home);
  writeFileSync(join(outDir, "assets", "app.css"), style);

  const pages: Array<{ path: string; html: string; locale: Locale }> = [];
  const untranslated: string[] = [];
  for (const locale of LOCALES) {
    const edition = EDITION_DIRS[locale];
    mkdirSync(join(outDir, edition, "stages"), { recursive: true });
    const data = courseData(course, locale);
    const text = TEXT[locale].page;
    const overview = markdown(0, locale).render(withoutSwitchLine(readFileSync(localized(join(SITE, "overview.md"), locale), "utf8")));
    pages.push({
      locale,
      path: `${edition}index.html`,
      html: page({
        locale,
        path: "index.html",
        title: text.homeTitle,
        description: text.homeDescription,
        main: homeMain(data, overview, locale),
      }),
    });

    // Until the map's twin is written, the edition shows the English map, its path drawn in the edition.
    const twinMap = locale === "en" ? courseMap : courseMapTwins[locale];
    const mapLocale: Locale = twinMap === undefined ? "en" : locale;
    const mapText = twinMap ?? courseMap;
    if (mapLocale !== locale) untranslated.push(`${edition}${MAP_PAGE}`);
    pages.push({
      locale,
      path: `${edition}${MAP_PAGE}`,
      html: page({
        locale,
        path: MAP_PAGE,
        title: text.mapTitle,
        description: text.mapDescription,
        main: mapMain(
          mapText,
          learningPath(
            course.stages.map((content) => content.stage),
            locale,
          ),
          locale,
          mapLocale,
        ),
        nav: siteNav({ locale, current: MAP_PAGE, course: data, sections: headings(mapText), sectionsLocale: mapLocale, depth: 0 }),
      }),
    });

    pages.push({
      locale,
      path: `${edition}${GLOSSARY_PAGE}`,
      html: page({
        locale,
        path: GLOSSARY_PAGE,
        title: text.glossaryTitle,
        description: text.glossaryDescription,
        main: glossaryMain(locale),
        nav: siteNav({ locale, current: GLOSSARY_PAGE, course: data, sections: [], depth: 0 }),
      }),
    });

    for (const english of course.stages) {
      const content = contentIn(english, locale) ?? english;
      const path = stagePage(content.stage);
      if (content.locale !== locale) untranslated.push(`${edition}${path}`);
      const stageData: StagePageData = {
        id: content.stage.id,
        prediction: { answer: content.spec.prediction.answer, options: content.spec.prediction.options },
        hints: content.spec.hints.length,
        rubric: content.spec.design.rubric.length,
        challengeParts: challengeParts(content),
      };
      pages.push({
        locale,
        path: `${edition}${path}`,
        html: page({
          locale,
          path,
          title: text.stageTitle(content.stage.nn, content.spec.title),
          description: content.spec.summary,
          main: stageMain(content, locale),
          stage: stageData,
          nav: siteNav({
            locale,
            current: content.stage.id,
            course: data,
            sections: headings(content.readme),
            sectionsLocale: content.locale,
            depth: 1,
          }),
        }),
      });
    }
  }

  const sizes: PageSize[] = [];
  for (const { path, html, locale } of pages) {
    writeFileSync(join(outDir, path), html);
    const listings = listingBytes(html);
    const script = (scripts.get(locale)?.byteLength ?? 0) + (path.endsWith("index.html") ? home.byteLength : 0);
    sizes.push({
      page: path,
      bytes: Buffer.byteLength(html) - listings + script + Buffer.byteLength(style),
      listingBytes: listings,
    });
  }
  const selfCheckSizes = [...selfChecks].map(([locale, script]) => ({
    script: `assets/${selfCheckScript(locale)}`,
    bytes: script.byteLength,
  }));
  writeFileSync(join(outDir, "sizes.json"), `${JSON.stringify({ pages: sizes, selfCheck: selfCheckSizes }, null, 2)}\n`);
  return {
    pages: pages.map((entry) => entry.path),
    sizes,
    selfCheckSizes,
    skipped: course.skipped.map((problem) => `${problem.stage}: ${problem.message}`),
    untranslated,
  };
}
