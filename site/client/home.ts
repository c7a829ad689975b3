// The script in the head of each edition's home page: runs before the page is drawn, and sends a learner
// who chose the other edition there (its address is the page's `<link rel="alternate">` for it). Kept
// apart from main.ts, which is deferred: a redirect after drawing would flash the wrong language.
import { editionToOpen, rememberedEdition } from "./edition.js";

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // a browser that refuses storage here: no edition is remembered
  }
}

const wanted = editionToOpen(document.documentElement.lang, rememberedEdition(storage()));
const twin = wanted ? document.querySelector<HTMLLinkElement>(`link[rel="alternate"][hreflang="${wanted}"]`) : null;
if (twin) location.replace(twin.href);
