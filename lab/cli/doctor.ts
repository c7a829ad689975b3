// `lab doctor`: checks a machine before a class, and says what to do about each problem.
import { execFileSync } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import semver from "semver";
import stripJsonComments from "strip-json-comments";
import { findBrowser, launchOptions, type BrowserLookup } from "../core/browser.js";
import { readFileState, type FileState } from "../core/files.js";
import { dirs, ROOT } from "../core/layout.js";
import { enginesRange, supportedLines } from "../core/node-lines.js";
import type { CliWords } from "./words/index.js";
import type { Output } from "./shared.js";

export interface Finding {
  readonly ok: boolean;
  readonly check: string;
  readonly detail: string;
  /** A finding that is not ok but does not stop a class: printed with ⚠, not counted as a problem. */
  readonly warning?: boolean;
}

/** Whether a Node.js version is one `engines` allows, and what to do when it is not. */
export function checkNode(version: string, range: string, text: CliWords): Finding {
  const ok = semver.satisfies(version, range);
  const detail = ok ? text.doctor.nodeSupported(range) : text.doctor.nodeUnsupported(range, supportedLines(range));
  return { ok, check: text.doctor.node(version), detail };
}

/** Finds the browser and starts it once, so "found" means it runs here. */
async function checkBrowser(lookup: BrowserLookup, text: CliWords): Promise<Finding> {
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

export async function diagnose(text: CliWords, lookup: BrowserLookup = findBrowser()): Promise<Finding[]> {
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
    checkNode(process.versions.node, enginesRange(), text),
    {
      ok: missing.length === 0,
      check: doctor.dependencies,
      detail: missing.length === 0 ? doctor.installed : doctor.missing(text.list(missing)),
    },
    { ok: workspaceWritable, check: doctor.workspaceWritable, detail: workspaceWritable ? doctor.yes : doctor.workspaceNotWritable },
    { ok: evidenceWritable, check: doctor.evidenceWritable, detail: evidenceWritable ? doctor.yes : doctor.evidenceNotWritable },
    checkTsconfig(readFileState(join(dirs.workspace, "tsconfig.json")), text),
    checkChineseFont(probeChineseFont(), text),
    await checkBrowser(lookup, text),
  ];
}

/** What a look for a font that covers Chinese found: its name, none, or that this machine cannot tell. */
export type FontProbe =
  | { readonly kind: "found"; readonly font: string }
  | { readonly kind: "none"; readonly platform: NodeJS.Platform }
  | { readonly kind: "unknown"; readonly reason: string };

// The fonts each platform ships that cover Simplified Chinese, by file: macOS and Windows have no
// fontconfig, and these are the files their own font stacks (site/styles.css) name.
const SYSTEM_CJK_FONTS: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  darwin: ["/System/Library/Fonts/PingFang.ttc", "/System/Library/Fonts/Hiragino Sans GB.ttc", "/System/Library/Fonts/STHeiti Light.ttc"],
  win32: [join(process.env.WINDIR ?? "C:\\Windows", "Fonts", "msyh.ttc"), join(process.env.WINDIR ?? "C:\\Windows", "Fonts", "simsun.ttc")],
};

/**
 * Looks for a font that covers Chinese: fontconfig's `fc-list :lang=zh` where it exists (Linux, the
 * BSDs), the system's own font files on macOS and Windows.
 */
export function probeChineseFont(platform: NodeJS.Platform = process.platform): FontProbe {
  const files = SYSTEM_CJK_FONTS[platform];
  if (files) {
    const found = files.find((file) => existsSync(file));
    return found ? { kind: "found", font: found } : { kind: "none", platform };
  }
  let listed: string;
  try {
    listed = execFileSync("fc-list", [":lang=zh", "family"], { encoding: "utf8", timeout: 10_000, stdio: ["ignore", "pipe", "ignore"] });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      kind: "unknown",
      reason: code === "ENOENT" ? "fc-list (fontconfig) is not installed" : `fc-list failed (${code ?? "exit status"})`,
    };
  }
  const first = listed.split("\n").find((line) => line.trim() !== "");
  return first ? { kind: "found", font: first.split(",")[0]?.trim() ?? first } : { kind: "none", platform };
}

/**
 * The Chinese edition of the site needs a font that covers Chinese, or it draws boxes. For a learner
 * who reads the Chinese edition that is a problem; for everyone else a warning.
 */
export function checkChineseFont(probe: FontProbe, text: CliWords): Finding {
  const check = text.doctor.chineseFont;
  const warning = text.locale !== "zh-CN";
  switch (probe.kind) {
    case "found":
      return { ok: true, check, detail: text.doctor.chineseFontFound(probe.font) };
    case "none":
      return { ok: false, warning, check, detail: text.doctor.noChineseFont(probe.platform) };
    case "unknown":
      return { ok: false, warning: true, check, detail: text.doctor.chineseFontUnknown(probe.reason) };
  }
}

/**
 * workspace/tsconfig.json: there, a regular file, and JSON as TypeScript reads it (comments and trailing
 * commas allowed). A file that is there but broken stops the editor and every test run, so "present"
 * alone would be a green that does not hold.
 */
export function checkTsconfig(state: FileState, text: CliWords): Finding {
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

export function printDoctor(findings: readonly Finding[], output: Output, text: CliWords): boolean {
  for (const finding of findings) {
    const mark = finding.ok ? "ok" : finding.warning ? "warning" : "problem";
    output.out(text.doctor.finding(mark, finding.check, finding.detail));
  }
  const problems = findings.filter((finding) => !finding.ok && !finding.warning).length;
  const warnings = findings.filter((finding) => !finding.ok && finding.warning).length;
  output.out(problems > 0 ? text.doctor.problems(problems) : warnings > 0 ? text.doctor.readyWithWarnings(warnings) : text.doctor.ready);
  return problems === 0;
}
