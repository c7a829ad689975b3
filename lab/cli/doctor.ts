// `lab doctor`: checks a machine before a class, and says what to do about each problem.
import { accessSync, constants, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import semver from "semver";
import stripJsonComments from "strip-json-comments";
import { findBrowser, launchOptions, type BrowserLookup } from "../core/browser.js";
import { readFileState, type FileState } from "../core/files.js";
import { dirs, ROOT } from "../core/layout.js";
import type { Messages } from "../i18n/messages.js";
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
export function checkNode(version: string, range: string, text: Messages): Finding {
  const ok = semver.satisfies(version, range);
  return { ok, check: text.doctor.node(version), detail: ok ? text.doctor.nodeSupported(range) : text.doctor.nodeUnsupported(range) };
}

/** Finds the browser and starts it once, so "found" means it runs here. */
async function checkBrowser(lookup: BrowserLookup, text: Messages): Promise<Finding> {
  const check = text.doctor.browser;
  if (!lookup.found) return { ok: false, check, detail: text.doctor.noBrowser(lookup.problem, lookup.reason) };
  try {
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch(launchOptions(lookup.found));
    const version = browser.version();
    await browser.close();
    return { ok: true, check, detail: text.doctor.browserFound(lookup.found, version) };
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
    return { ok: false, check, detail: text.doctor.browserFails(lookup.found, reason) };
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

export async function diagnose(text: Messages, lookup: BrowserLookup = findBrowser()): Promise<Finding[]> {
  const require = createRequire(join(ROOT, "package.json"));
  const missing = ["vitest", "tsx", "zod", "typescript", "playwright-core"].filter((name) => {
    try {
      require.resolve(`${name}/package.json`);
      return false;
    } catch {
      return true;
    }
  });
  const { doctor } = text;
  const workspaceWritable = canWrite(dirs.workspace);
  const evidenceWritable = canWrite(dirs.evidence);
  return [
    checkNode(process.versions.node, supportedNode(), text),
    {
      ok: missing.length === 0,
      check: doctor.dependencies,
      detail: missing.length === 0 ? doctor.installed : doctor.missing(text.list(missing)),
    },
    { ok: workspaceWritable, check: doctor.workspaceWritable, detail: workspaceWritable ? doctor.yes : doctor.workspaceNotWritable },
    { ok: evidenceWritable, check: doctor.evidenceWritable, detail: evidenceWritable ? doctor.yes : doctor.evidenceNotWritable },
    checkTsconfig(readFileState(join(dirs.workspace, "tsconfig.json")), text),
    await checkBrowser(lookup, text),
  ];
}

/**
 * workspace/tsconfig.json: there, a regular file, and JSON as TypeScript reads it (comments and trailing
 * commas allowed). A file that is there but broken stops the editor and every test run, so "present"
 * alone would be a green that does not hold.
 */
export function checkTsconfig(state: FileState, text: Messages): Finding {
  const check = "workspace/tsconfig.json";
  if (state.kind === "missing") return { ok: false, check, detail: text.doctor.tsconfigMissing };
  if (state.kind === "other") return { ok: false, check, detail: text.doctor.tsconfigNotAFile(state.what) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripJsonComments(state.bytes.toString("utf8"), { trailingCommas: true }));
  } catch (error) {
    return { ok: false, check, detail: text.doctor.tsconfigBroken(error instanceof Error ? error.message : String(error)) };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { ok: false, check, detail: text.doctor.tsconfigBroken(text.doctor.notAnObject) };
  }
  return { ok: true, check, detail: text.doctor.tsconfigPresent };
}

export function printDoctor(findings: readonly Finding[], output: Output, text: Messages): boolean {
  for (const finding of findings) output.out(text.doctor.finding(finding.ok, finding.check, finding.detail));
  const problems = findings.filter((finding) => !finding.ok).length;
  output.out(problems === 0 ? text.doctor.ready : text.doctor.problems(problems));
  return problems === 0;
}
