// The words of `npm test` in one edition.
import type { Locale } from "../../core/locale.js";
import { TEST_WORDS as english, type TestWords } from "./en.js";
import { TEST_WORDS as chinese } from "./zh-CN.js";

export type { TestWords };

const TABLES: Readonly<Record<Locale, TestWords>> = { en: english, "zh-CN": chinese };

export function testWords(locale: Locale): TestWords {
  return TABLES[locale];
}
