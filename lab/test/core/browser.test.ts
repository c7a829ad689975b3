// The browser lookup on every platform, with the machine replaced by a probe: which browser is taken,
// in which order, and what a machine without one is told. (The site's browser tests launch the browser
// this finds on the real machine.)
import { join } from "node:path";
import { expect, it } from "vitest";
import { findBrowser, type BrowserLookup, type BrowserProbe } from "../../core/browser.js";

/** A machine where exactly `files` are executable, with its folders listed from them. */
function machine(files: readonly string[], overrides: Partial<BrowserProbe> = {}): BrowserProbe & { sparticuzCalls: number } {
  const probe = {
    env: {},
    platform: "linux" as NodeJS.Platform,
    arch: "x64",
    home: "/home/ada",
    isExecutable: (file: string) => files.includes(file),
    listFolder: (folder: string) => [
      ...new Set(files.filter((file) => file.startsWith(`${folder}/`)).map((file) => file.slice(folder.length + 1).split("/")[0] ?? "")),
    ],
    playwrightExecutable: () => null,
    sparticuzCalls: 0,
    sparticuz() {
      probe.sparticuzCalls += 1;
      return {
        executablePath: "/repo/node_modules/.cache/forge-lab/sparticuz-chromium-147.0.0/chromium",
        env: { LD_LIBRARY_PATH: "/x" },
        version: "147.0.0",
      };
    },
    ...overrides,
  };
  return probe;
}

const taken = (lookup: BrowserLookup) =>
  lookup.found ? `${lookup.found.source}: ${lookup.found.executablePath}` : `none: ${lookup.reason}`;

it("takes CHROME_PATH first, and refuses one that is not an executable instead of looking elsewhere", () => {
  const files = ["/opt/chrome/chrome", "/usr/bin/chromium"];
  const env = { PATH: "/usr/bin", CHROME_PATH: "/opt/chrome/chrome" };
  expect(taken(findBrowser(machine(files, { env }))), "CHROME_PATH set to an executable").toBe("CHROME_PATH: /opt/chrome/chrome");
  expect(
    taken(findBrowser(machine(files, { env: { PATH: "/usr/bin", CHROMIUM_PATH: "/opt/chrome/chrome" } }))),
    "the older CHROMIUM_PATH",
  ).toBe("CHROME_PATH: /opt/chrome/chrome");
  expect(taken(findBrowser(machine(files, { env: { ...env, CHROME_PATH: "/opt/missing" } }))), "CHROME_PATH set to nothing").toBe(
    "none: CHROME_PATH is set to /opt/missing, which is not an executable file: fix or unset it",
  );
});

it("looks on PATH by the usual names in order, a headless shell first, then in the usual install folders of each platform", () => {
  const linux = machine(["/usr/local/bin/google-chrome", "/usr/bin/chromium"], { env: { PATH: "/usr/local/bin:/usr/bin" } });
  expect(taken(findBrowser(linux)), "Linux with Chromium and Chrome on PATH").toBe("PATH: /usr/bin/chromium");
  const shell = machine(["/usr/bin/chromium", "/usr/local/bin/chromium-headless-shell"], { env: { PATH: "/usr/bin:/usr/local/bin" } });
  expect(taken(findBrowser(shell)), "Linux with Chromium and its headless shell on PATH, the shell later").toBe(
    "PATH: /usr/local/bin/chromium-headless-shell",
  );
  const programFiles = "C:\\Program Files";
  const edge = join(programFiles, "Microsoft", "Edge", "Application", "msedge.exe");
  const windows = machine([edge], { platform: "win32", env: { Path: "C:\\Windows", ProgramFiles: programFiles } });
  expect(taken(findBrowser(windows)), "Windows with only Edge installed").toBe(`install folder: ${edge}`);
  const mac = machine(["/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"], { platform: "darwin", arch: "arm64" });
  expect(taken(findBrowser(mac)), "macOS with Chrome in Applications").toBe(
    "install folder: /Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  );
});

it("takes a browser Playwright installed, its pinned revision first, then the newest other one, its headless shell first", () => {
  const cache = "/home/ada/.cache/ms-playwright";
  const older = `${cache}/chromium-1100/chrome-linux64/chrome`;
  const newer = `${cache}/chromium_headless_shell-1200/chrome-headless-shell-linux64/chrome-headless-shell`;
  expect(taken(findBrowser(machine([older, newer]))), "two installed revisions, neither pinned").toBe(`Playwright: ${newer}`);
  const whole = `${cache}/chromium-1200/chrome-linux64/chrome`;
  expect(taken(findBrowser(machine([whole, newer]))), "one revision installed whole and as a headless shell").toBe(`Playwright: ${newer}`);
  const pinned = `${cache}/chromium-1255/chrome-linux64/chrome`;
  expect(taken(findBrowser(machine([older, pinned], { playwrightExecutable: () => pinned }))), "the pinned revision installed").toBe(
    `Playwright: ${pinned}`,
  );
  const moved = machine(["/srv/browsers/chromium-1000/chrome-linux/chrome"], { env: { PLAYWRIGHT_BROWSERS_PATH: "/srv/browsers" } });
  expect(taken(findBrowser(moved)), "PLAYWRIGHT_BROWSERS_PATH").toBe("Playwright: /srv/browsers/chromium-1000/chrome-linux/chrome");
});

it("falls back to @sparticuz/chromium on Linux x64 only, and says what to install everywhere else", () => {
  const x64 = machine([]);
  const lookup = findBrowser(x64);
  expect(taken(lookup), "Linux x64 with no browser").toBe(
    "@sparticuz/chromium: /repo/node_modules/.cache/forge-lab/sparticuz-chromium-147.0.0/chromium",
  );
  expect(lookup.found?.env, "the libraries the bundled browser brings").toEqual({ LD_LIBRARY_PATH: "/x" });
  const withBrowser = machine(["/usr/bin/chromium"], { env: { PATH: "/usr/bin" } });
  findBrowser(withBrowser);
  expect(withBrowser.sparticuzCalls, "unpacks of @sparticuz/chromium on a machine that has Chromium").toBe(0);
  const arm = machine([], { arch: "arm64" });
  expect(taken(findBrowser(arm)), "Linux arm64 with no browser").toMatch(
    /^none: no Chromium or Chrome found, and @sparticuz\/chromium ships only an x64 binary in its npm package .*: install Chromium or Chrome \(Debian\/Ubuntu: apt-get install chromium\), run npx playwright install chromium, or set CHROME_PATH$/,
  );
  expect(arm.sparticuzCalls, "unpacks of @sparticuz/chromium on arm64").toBe(0);
  const broken = machine([], {
    sparticuz: () => "the optional dependency @sparticuz/chromium is not installed (npm ci installs it on Linux)",
  });
  expect(taken(findBrowser(broken)), "Linux x64 without the optional dependency").toMatch(
    /^none: no Chromium or Chrome found, and the optional dependency @sparticuz\/chromium is not installed/,
  );
  expect(taken(findBrowser(machine([], { platform: "darwin" }))), "macOS with no browser").toMatch(
    /@sparticuz\/chromium is for Linux only/,
  );
});
