// The CLI's words in one edition.
import type { Locale } from "../../core/locale.js";
import { CLI_WORDS as english, type CliWords } from "./en.js";
import { CLI_WORDS as chinese } from "./zh-CN.js";

export type { CliWords };

const TABLES: Readonly<Record<Locale, CliWords>> = { en: english, "zh-CN": chinese };

export function cliWords(locale: Locale): CliWords {
  return TABLES[locale];
}
