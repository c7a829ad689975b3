// What several widgets share: text escaped into their HTML at build time, and, in the page, finding
// elements and naming the code blocks that scroll. Kept small: anything one widget uses stays in its module.
import type { SiteText } from "../text/en.js";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function all<T extends Element>(selector: string, root: ParentNode = document): T[] {
  return Array.from(root.querySelectorAll<T>(selector));
}

/**
 * A code block that scrolls sideways must be reachable from the keyboard (WCAG 2.1.1): such a block,
 * and only such a block, joins the tab order with a name. Whether it scrolls depends on the window's
 * width, so this runs again when the window or a block's size changes, and when a widget shows a block.
 */
export function markScrollable(words: SiteText["widgets"], root: ParentNode = document): void {
  for (const block of all<HTMLElement>("pre.code", root)) {
    const scrolls = block.scrollWidth > block.clientWidth + 1;
    if (scrolls === block.hasAttribute("tabindex")) continue;
    if (scrolls) {
      const caption = block.closest("figure")?.querySelector("figcaption")?.textContent?.trim();
      const language = block.dataset.lang;
      block.tabIndex = 0;
      block.setAttribute("role", "group");
      block.setAttribute("aria-label", words.scrolls(caption ?? (language ? words.codeIn(language) : words.code)));
    } else {
      block.removeAttribute("tabindex");
      block.removeAttribute("role");
      block.removeAttribute("aria-label");
    }
  }
}
