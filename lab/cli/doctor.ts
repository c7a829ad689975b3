// `lab doctor`: checks a machine before a class, and says what to do about each problem.
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import semver from "semver";
import { findBrowser, launchOptions, type BrowserLookup } from "../core/browser.js";
import { dirs, ROOT } from "../core/layout.js";
import type { Output } from "./shared.js";

export interface Finding {
  readonly ok: boolean;
  readonly check: string;
  readonly detail: string;
}

/** The Node.js versions package.json's `engines` allows, e.g. ">=20.19". */
function supportedNode(): string {
  const manifest = JSON.parse(readFileSync(dirs.packageJson, "utf8")) as { engines?: { node?: string } };
  return manifest.engines?.node ?? "*";
}

/** Whether a Node.js version is one `engines` allows, and what to do when it is not. */
export function checkNode(version: string, range: string): Finding {
  const ok = semver.satisfies(version, range);
  return {
    ok,
    check: `Node.js ${version}`,
    detail: ok
      ? `supported (package.json engines: ${range})`
      : `package.json engines asks for ${range}: install a current Node.js 20 or 22`,
  };
}

/** Finds the browser and starts it once, so "found" means it runs here. */
async function checkBrowser(lookup: BrowserLookup): Promise<Finding> {
  const check = "Chromium for the site's browser tests";
  if (!lookup.found) return { ok: false, check, detail: `${lookup.reason}; only npm run verify needs it` };
  try {
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch(launchOptions(lookup.found));
    const version = browser.version();
    await browser.close();
    return { ok: true, check, detail: `${lookup.found.description}, version ${version}` };
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
    return { ok: false, check, detail: `${lookup.found.description} was found but does not start: ${reason}` };
  }
}

function canWrite(folder: string): boolean {
  try {
    mkdirSync(folder, { recursive: true });
    const probe = join(folder, `.doctor-${process.pid}`);
    writeFileSync(probe, "");
    rmSync(probe);
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

export async function diagnose(lookup: BrowserLookup = findBrowser()): Promise<Finding[]> {
  const require = createRequire(join(ROOT, "package.json"));
  const missing = ["vitest", "tsx", "zod", "typescript", "playwright-core"].filter((name) => {
    try {
      require.resolve(`${name}/package.json`);
      return false;
    } catch {
      return true;
    }
  });
  return [
    checkNode(process.versions.node, supportedNode()),
    {
      ok: missing.length === 0,
      check: "dependencies",
      detail: missing.length === 0 ? "installed" : `missing ${missing.join(", ")}: run npm ci in the repository`,
    },
    {
      ok: canWrite(dirs.workspace),
      check: "workspace/ is writable",
      detail: canWrite(dirs.workspace) ? "yes" : "no: check the folder's owner and permissions",
    },
    {
      ok: canWrite(dirs.evidence),
      check: "evidence/ is writable",
      detail: canWrite(dirs.evidence) ? "yes" : "no: test runs cannot record their results; check the folder's permissions",
    },
    {
      ok: existsSync(join(dirs.workspace, "tsconfig.json")),
      check: "workspace/tsconfig.json",
      detail: existsSync(join(dirs.workspace, "tsconfig.json"))
        ? "present: your editor checks workspace/ with the settings the tests use"
        : "missing: the tests type-check your code with it; bring it back with git checkout -- workspace/tsconfig.json",
    },
    await checkBrowser(lookup),
  ];
}

export function printDoctor(findings: readonly Finding[], output: Output): boolean {
  for (const finding of findings) output.out(`${finding.ok ? "✔" : "✘"} ${finding.check}: ${finding.detail}`);
  const problems = findings.filter((finding) => !finding.ok).length;
  output.out(problems === 0 ? "Ready for class." : `${problems} problem(s) to fix before class.`);
  return problems === 0;
}
