// Which Chromium the site's browser tests drive, found the same way on every machine. The one home of the
// lookup: the site's tests and `lab doctor` both ask here. In order:
//   1. CHROME_PATH (or the older CHROMIUM_PATH), when set: the user's word, never second-guessed;
//   2. the usual names on PATH (chromium, google-chrome, chrome, msedge, …) and the usual install folders;
//   3. the browsers Playwright installed (`npx playwright install chromium`);
//   Where a headless shell (the same Chromium without a window system) stands beside a whole browser, the
//   shell comes first: the tests run headless, as Playwright runs them, and the shell spends about a third
//   less CPU on the same pages.
//   4. on Linux x64, the headless Chromium that the optional dependency @sparticuz/chromium ships inside its
//      npm package, unpacked on first use into node_modules/.cache, with the few libraries it needs.
// A machine with none of these gets a message that says what to install.
import { execFileSync } from "node:child_process";
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { dirs, ROOT } from "./layout.js";

type Environment = Readonly<Record<string, string | undefined>>;

export type BrowserSource = "CHROME_PATH" | "PATH" | "install folder" | "Playwright" | "@sparticuz/chromium";

export interface FoundBrowser {
  readonly source: BrowserSource;
  readonly executablePath: string;
  /** Variables the browser process needs (the libraries and fonts of @sparticuz/chromium). */
  readonly env: Readonly<Record<string, string>>;
  /** In words, for doctor and for test failures: what was found and where. */
  readonly description: string;
}

/** Why no browser was found, as data, so that each edition of `lab doctor` can say it in its own words. */
export type BrowserProblem =
  | { readonly kind: "not executable"; readonly variable: string; readonly value: string }
  /** Nothing found; `bundled` says why @sparticuz/chromium could not stand in (its failure is the package's own words). */
  | { readonly kind: "none"; readonly bundled: "arm64" | "not linux" | { readonly failure: string } };

export type BrowserLookup =
  | { readonly found: FoundBrowser }
  /** `reason` is the problem in English, as the site's tests report it. */
  | { readonly found: null; readonly problem: BrowserProblem; readonly reason: string };

/** What the lookup may look at; tests replace it to try every platform and every missing piece. */
export interface BrowserProbe {
  readonly env: Environment;
  readonly platform: NodeJS.Platform;
  readonly arch: string;
  readonly home: string;
  readonly isExecutable: (file: string) => boolean;
  readonly listFolder: (folder: string) => readonly string[];
  /** The executable Playwright's own registry expects for its pinned Chromium, or null. */
  readonly playwrightExecutable: () => string | null;
  /** Unpacks @sparticuz/chromium and returns it, or a reason it is not available here. */
  readonly sparticuz: () => { executablePath: string; env: Record<string, string>; version: string } | string;
}

const NAMES: Readonly<Record<string, readonly string[]>> = {
  linux: [
    "chromium-headless-shell",
    "chrome-headless-shell",
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "chrome",
    "microsoft-edge",
    "microsoft-edge-stable",
  ],
  darwin: ["chromium", "google-chrome", "chrome"],
  win32: ["chrome.exe", "msedge.exe", "chromium.exe"],
};

function installFolders(probe: BrowserProbe): string[] {
  if (probe.platform === "darwin") {
    return [
      "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
      "/Applications/Chromium.app/Contents/MacOS/Chromium",
      "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
      join(probe.home, "Applications", "Google Chrome.app", "Contents", "MacOS", "Google Chrome"),
    ];
  }
  if (probe.platform === "win32") {
    const roots = [probe.env.ProgramFiles, probe.env["ProgramFiles(x86)"], probe.env.LOCALAPPDATA].filter((root) => root !== undefined);
    return roots.flatMap((root) => [
      join(root, "Google", "Chrome", "Application", "chrome.exe"),
      join(root, "Chromium", "Application", "chrome.exe"),
      join(root, "Microsoft", "Edge", "Application", "msedge.exe"),
    ]);
  }
  return [];
}

/** Where Playwright keeps its browsers: PLAYWRIGHT_BROWSERS_PATH, else its per-platform cache folder. */
function playwrightFolder(probe: BrowserProbe): string {
  const configured = probe.env.PLAYWRIGHT_BROWSERS_PATH;
  if (configured && configured !== "0") return configured;
  if (probe.platform === "win32") return join(probe.env.LOCALAPPDATA ?? join(probe.home, "AppData", "Local"), "ms-playwright");
  if (probe.platform === "darwin") return join(probe.home, "Library", "Caches", "ms-playwright");
  return join(probe.env.XDG_CACHE_HOME ?? join(probe.home, ".cache"), "ms-playwright");
}

/** Any Chromium build Playwright installed, newest revision first (the pinned one may not be there). */
function playwrightBuilds(probe: BrowserProbe): string[] {
  const folder = playwrightFolder(probe);
  const revision = (name: string) => Number(/-(\d+)$/.exec(name)?.[1] ?? 0);
  const builds = probe
    .listFolder(folder)
    .filter((name) => /^chromium(?:_headless_shell)?-\d+$/.test(name))
    .sort((a, b) => revision(b) - revision(a) || (a.startsWith("chromium_headless_shell-") ? -1 : 1));
  const inside: Readonly<Record<string, readonly string[]>> = {
    linux: [
      "chrome-headless-shell-linux64/chrome-headless-shell",
      "chrome-linux/headless_shell",
      "chrome-linux64/chrome",
      "chrome-linux/chrome",
    ],
    darwin: [
      "chrome-headless-shell-mac-arm64/chrome-headless-shell",
      "chrome-headless-shell-mac-x64/chrome-headless-shell",
      "chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
      "chrome-mac-x64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
      "chrome-mac/Chromium.app/Contents/MacOS/Chromium",
    ],
    win32: ["chrome-headless-shell-win64/chrome-headless-shell.exe", "chrome-win64/chrome.exe", "chrome-win/chrome.exe"],
  };
  return builds.flatMap((build) => (inside[probe.platform] ?? []).map((path) => join(folder, build, ...path.split("/"))));
}

/** Finds a browser; nothing is launched. */
export function findBrowser(probe: BrowserProbe = systemProbe()): BrowserLookup {
  const found = (source: BrowserSource, executablePath: string, description: string, env: Record<string, string> = {}) => ({
    found: { source, executablePath, env, description },
  });
  for (const variable of ["CHROME_PATH", "CHROMIUM_PATH"] as const) {
    const configured = probe.env[variable];
    if (configured) {
      return probe.isExecutable(configured)
        ? found("CHROME_PATH", configured, `${configured} (from ${variable})`)
        : {
            found: null,
            problem: { kind: "not executable", variable, value: configured },
            reason: `${variable} is set to ${configured}, which is not an executable file: fix or unset it`,
          };
    }
  }
  const path = (probe.env.PATH ?? probe.env.Path ?? "").split(probe.platform === "win32" ? ";" : ":").filter((folder) => folder !== "");
  for (const name of NAMES[probe.platform] ?? NAMES.linux ?? []) {
    for (const folder of path) {
      const file = join(folder, name);
      if (probe.isExecutable(file)) return found("PATH", file, `${file} (${name} on PATH)`);
    }
  }
  for (const file of installFolders(probe))
    if (probe.isExecutable(file)) return found("install folder", file, `${file} (installed browser)`);
  const pinned = probe.playwrightExecutable();
  for (const file of [...(pinned ? [pinned] : []), ...playwrightBuilds(probe)]) {
    if (probe.isExecutable(file)) return found("Playwright", file, `${file} (installed by Playwright)`);
  }
  const install =
    "install Chromium or Chrome (Debian/Ubuntu: apt-get install chromium), run npx playwright install chromium, or set CHROME_PATH";
  if (probe.platform !== "linux" || probe.arch !== "x64") {
    const arm64 = probe.platform === "linux" && probe.arch === "arm64";
    const why = arm64
      ? "@sparticuz/chromium ships only an x64 binary in its npm package (its arm64 build is a separate download)"
      : `@sparticuz/chromium is for Linux only`;
    return {
      found: null,
      problem: { kind: "none", bundled: arm64 ? "arm64" : "not linux" },
      reason: `no Chromium or Chrome found, and ${why}: ${install}`,
    };
  }
  const bundled = probe.sparticuz();
  if (typeof bundled === "string")
    return {
      found: null,
      problem: { kind: "none", bundled: { failure: bundled } },
      reason: `no Chromium or Chrome found, and ${bundled}: ${install}`,
    };
  return found(
    "@sparticuz/chromium",
    bundled.executablePath,
    `${bundled.executablePath} (the headless Chromium of @sparticuz/chromium ${bundled.version})`,
    bundled.env,
  );
}

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (process.platform !== "win32") accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function listFolder(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

function playwrightExecutable(): string | null {
  try {
    // playwright-core answers where its pinned Chromium would be, whether or not it is installed.
    const registry = createRequire(join(ROOT, "package.json"))("playwright-core") as { chromium: { executablePath(): string } };
    return registry.chromium.executablePath();
  } catch {
    return null;
  }
}

/**
 * @sparticuz/chromium unpacks itself into the temporary folder (os.tmpdir()/chromium), where another
 * project's version may already sit. It is unpacked here by a child Node whose TMPDIR is a folder of its
 * own, one per installed version, under node_modules/.cache: moved into place whole, so two processes
 * unpacking at once never see half a browser, and `npm ci` removes it with the package.
 */
function unpackSparticuz(): ReturnType<BrowserProbe["sparticuz"]> {
  const require = createRequire(join(ROOT, "package.json"));
  let main: string;
  try {
    main = require.resolve("@sparticuz/chromium");
  } catch {
    return "the optional dependency @sparticuz/chromium is not installed (npm ci installs it on Linux)";
  }
  let packageFolder = dirname(main);
  while (!existsSync(join(packageFolder, "package.json")) || !existsSync(join(packageFolder, "bin"))) {
    if (dirname(packageFolder) === packageFolder) return "@sparticuz/chromium is installed without its bin folder";
    packageFolder = dirname(packageFolder);
  }
  const version = (JSON.parse(readFileSync(join(packageFolder, "package.json"), "utf8")) as { version: string }).version;
  const folder = join(dirs.cache, `sparticuz-chromium-${version}`);
  const executablePath = join(folder, "chromium");
  const libraries = join(folder, "al2023", "lib");
  const fontsFolder = join(folder, "fonts", "fonts");
  const fontConfig = join(folder, "fonts.conf");
  if (!existsSync(executablePath)) {
    const staging = `${folder}.${process.pid}.tmp`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    const script = 'const { default: chromium } = await import("@sparticuz/chromium"); await chromium.executablePath();';
    try {
      execFileSync(process.execPath, ["--input-type=module", "-e", script], {
        cwd: ROOT,
        // The package unpacks the libraries Chromium needs (NSS, NSPR, expat) only where it believes it
        // runs on Amazon Linux 2023; said so, it unpacks them too, for a machine that has none of its own.
        env: { ...process.env, TMPDIR: staging, TMP: staging, TEMP: staging, AWS_LAMBDA_JS_RUNTIME: "nodejs20.x" },
        stdio: "pipe",
        timeout: 120_000,
      });
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      return `@sparticuz/chromium could not be unpacked: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`;
    }
    // The fonts it ships, and the machine's own: its fonts.conf names a folder of the AWS Lambda layout.
    writeFileSync(
      join(staging, "fonts.conf"),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n  <dir>${fontsFolder}</dir>\n  <cachedir>${join(folder, "fonts-cache")}</cachedir>\n</fontconfig>\n`,
    );
    try {
      renameSync(staging, folder);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // another process moved its copy into place first
    }
    if (!existsSync(executablePath)) return "@sparticuz/chromium was unpacked but its binary is missing";
  }
  const ldPath = [libraries, process.env.LD_LIBRARY_PATH].filter((part) => part).join(delimiter);
  return { executablePath, version, env: { LD_LIBRARY_PATH: ldPath, FONTCONFIG_FILE: fontConfig } };
}

export function systemProbe(): BrowserProbe {
  return {
    env: process.env,
    platform: process.platform,
    arch: process.arch,
    home: homedir(),
    isExecutable,
    listFolder,
    playwrightExecutable,
    sparticuz: unpackSparticuz,
  };
}

/** The options playwright-core's chromium.launch needs for a found browser: headless, sandbox off (CI runs as root). */
export function launchOptions(browser: FoundBrowser) {
  return {
    executablePath: browser.executablePath,
    env: { ...process.env, ...browser.env },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-quic",
    ],
  };
}
