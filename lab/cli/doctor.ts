// `lab doctor`: checks a machine before a class, and says what to do about each problem.
import { accessSync, constants, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { dirs, ROOT } from "../core/layout.js";
import type { Output } from "./shared.js";

export interface Finding {
  readonly ok: boolean;
  readonly check: string;
  readonly detail: string;
}

const MINIMUM_NODE = [20, 19] as const;

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

export function diagnose(chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"): Finding[] {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  const nodeOk = major > MINIMUM_NODE[0] || (major === MINIMUM_NODE[0] && minor >= MINIMUM_NODE[1]);
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
    {
      ok: nodeOk,
      check: `Node.js ${process.versions.node}`,
      detail: nodeOk ? "supported" : `needs ${MINIMUM_NODE.join(".")} or newer: install a current Node.js 20 or 22`,
    },
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
      ok: existsSync(chromium),
      check: "Chromium for the site's browser tests",
      detail: existsSync(chromium)
        ? chromium
        : `not found at ${chromium}: install it (Debian/Ubuntu: apt-get install -y chromium) or set CHROMIUM_PATH; only npm run verify needs it`,
    },
  ];
}

export function printDoctor(findings: readonly Finding[], output: Output): boolean {
  for (const finding of findings) output.out(`${finding.ok ? "✔" : "✘"} ${finding.check}: ${finding.detail}`);
  const problems = findings.filter((finding) => !finding.ok).length;
  output.out(problems === 0 ? "Ready for class." : `${problems} problem(s) to fix before class.`);
  return problems === 0;
}
