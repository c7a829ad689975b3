// axe-core in a page of the site, as the browser tests run it: injected by playwright-core (the page's
// Content-Security-Policy does not apply to what the test driver evaluates), WCAG 2.2 A and AA and
// best practices. Each violation is one line that names the rule, the element and why.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AxeResults } from "axe-core";
import type { Page } from "playwright-core";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA (axe tags 2.2's A criteria with the 2.0/2.1 ones), and best practices. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] as const;

/**
 * Every violating node of the page as it is now, as "rule (impact): help — target — html". `layoutOnly`
 * leaves out color-contrast, the one slow rule whose outcome a narrower window cannot change: for a
 * second pass at a phone's width, where what scrolls and what wraps does change.
 */
export async function axeViolations(page: Page, options: { readonly layoutOnly?: boolean } = {}): Promise<string[]> {
  // What the last click changed is laid out and painted first, as a person would see it.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    ({ tags, layoutOnly }) =>
      (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe.run(document, {
        runOnly: { type: "tag", values: tags },
        rules: layoutOnly ? { "color-contrast": { enabled: false } } : {},
        resultTypes: ["violations"],
        // No rule of these tags reads the style sheets' text (the one that does is experimental), and
        // fetching them is refused on a page opened from disk.
        preload: false,
      }),
    { tags: [...AXE_TAGS], layoutOnly: options.layoutOnly === true },
  );
  return results.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) => `${violation.id} (${violation.impact ?? "?"}): ${violation.help} — ${node.target.join(" ")} — ${node.html.slice(0, 160)}`,
    ),
  );
}
