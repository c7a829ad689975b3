// The course's two editions, as a vocabulary every layer may use. English is the source; Simplified
// Chinese (zh-CN) is its twin, written beside it: every lesson, page, structured field and learner-facing
// message exists in both. Which edition a process speaks is chosen in lab/i18n/locale.ts.
export const LOCALES = ["en", "zh-CN"] as const;
export type Locale = (typeof LOCALES)[number];

/** The edition that is translated from English. */
export const TWIN_LOCALE = "zh-CN" satisfies Locale;

/** What each edition calls itself, on the switch that leads to it. */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = { en: "English", "zh-CN": "简体中文" };

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}
