// Both editions' words, for the build and the tests: the tables themselves are text/en.ts and
// text/zh-CN.ts. The browser code reads only its own edition's (words.ts).
import type { Locale } from "../../lab/core/locale.js";
import { type SiteText, WORDS as english } from "./text/en.js";
import { WORDS as chinese } from "./text/zh-CN.js";

export type { SiteText };

export const TEXT: Readonly<Record<Locale, SiteText>> = { en: english, "zh-CN": chinese };
