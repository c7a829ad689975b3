// The edition the learner chose with the language switch, remembered in this browser apart from their
// progress. Each edition's home page (the English one is also the site's entry) sends the learner to the
// remembered edition before it is drawn; any other page stays as it is, since the learner asked for it.
import { isLocale, type Locale } from "../../lab/core/locale.js";

export const EDITION_KEY = "forge-lab/edition";

/** The remembered edition, or null when none is, or the storage cannot be read. */
export function rememberedEdition(storage: Pick<Storage, "getItem"> | null): Locale | null {
  try {
    const value = storage?.getItem(EDITION_KEY);
    return isLocale(value) ? value : null;
  } catch {
    return null;
  }
}

export function rememberEdition(storage: Pick<Storage, "setItem"> | null, locale: Locale): void {
  try {
    storage?.setItem(EDITION_KEY, locale);
  } catch {
    // a refused write: the switch still leads to the other edition, which is just not remembered
  }
}

/** The edition a home page in `here` should send the learner to, or null to stay. */
export function editionToOpen(here: string, remembered: Locale | null): Locale | null {
  return remembered !== null && remembered !== here ? remembered : null;
}
