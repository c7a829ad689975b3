// The generated blocks' words in one edition.
import type { Locale } from "../../core/locale.js";
import { BLOCK_WORDS as english, type BlockWords } from "./en.js";
import { BLOCK_WORDS as chinese } from "./zh-CN.js";

export type { BlockWords };

export const BLOCK_WORDS: Readonly<Record<Locale, BlockWords>> = { en: english, "zh-CN": chinese };
