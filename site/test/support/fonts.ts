// The site's font stacks, read from its stylesheet: the tests check them against the fonts each
// platform ships, and against what the browser computes for a Chinese page.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dirs } from "../../../lab/core/layout.js";

export const STYLES = readFileSync(join(dirs.site, "styles.css"), "utf8");

/** The families of a CSS custom property holding a font stack, in order, unquoted. */
export function stackOf(property: string, css: string = STYLES): string[] {
  const value = new RegExp(`${property}:\\s*([^;]+);`).exec(css)?.[1];
  if (!value) throw new Error(`styles.css declares no ${property}`);
  return value
    .split(",")
    .map((family) => family.trim().replace(/^"(.*)"$/, "$1"))
    .filter((family) => family !== "");
}

/** How a browser prints a font-family list: names with a space quoted, generic families bare. */
export function computedForm(families: readonly string[]): string {
  return families.map((family) => (/\s/.test(family) ? `"${family}"` : family)).join(", ");
}
