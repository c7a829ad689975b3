// Which edition a process speaks: FORGE_LANG, else the system's language.
import { LOCALES, type Locale } from "../core/locale.js";

/**
 * A locale tag as the system writes it (`zh_CN.UTF-8`, `zh-Hans`, `en_US`) read as one of the editions.
 * `C` and `POSIX` (with a codeset too: `C.UTF-8`, the default of many containers) state no language.
 */
export function editionOf(tag: string | undefined): Locale | null {
  if (!tag) return null;
  const lower = tag.trim().toLowerCase();
  const language = lower.split(/[.@]/)[0];
  if (language === "" || language === "c" || language === "posix") return null;
  return lower.startsWith("zh") ? "zh-CN" : "en";
}

/** A FORGE_LANG that names no edition; `value` is what it was set to, for a message in either edition. */
export class UnknownLocaleError extends Error {
  override readonly name = "UnknownLocaleError";
  constructor(readonly value: string) {
    super(`FORGE_LANG must be one of ${LOCALES.map((locale) => `"${locale}"`).join(", ")}, got ${JSON.stringify(value)}`);
  }
}

/** FORGE_LANG names an edition exactly (any case, `_` for `-`); anything else is a mistake worth saying. */
export function forgeLang(value: string): Locale {
  const wanted = value.trim().replace(/_/g, "-").toLowerCase();
  const found = LOCALES.find((locale) => locale.toLowerCase() === wanted);
  if (!found) throw new UnknownLocaleError(value);
  return found;
}

/** Environment variables, typed without Node's types: the site's browser code bundles this module (through the glossary). */
type Environment = Readonly<Record<string, string | undefined>>;
const processEnv = (): Environment => (globalThis as { process?: { env: Environment } }).process?.env ?? {};

/**
 * The language of the lab CLI's messages: FORGE_LANG when set, else the system locale in POSIX order
 * (LC_ALL, LC_MESSAGES, LANG), else the locale Node reports (Windows sets none of the variables, and many
 * containers set only `C.UTF-8`, which names no language).
 * Throws an UnknownLocaleError when FORGE_LANG names no edition.
 */
export function localeFromEnvironment(env: Environment = processEnv(), systemTag?: string): Locale {
  if (env.FORGE_LANG !== undefined && env.FORGE_LANG.trim() !== "") return forgeLang(env.FORGE_LANG);
  for (const name of ["LC_ALL", "LC_MESSAGES", "LANG"] as const) {
    const edition = editionOf(env[name]);
    if (edition) return edition;
  }
  return editionOf(systemTag ?? systemLocale()) ?? "en";
}

/**
 * The locale Node reports for the system (ICU's default), read through the cheapest of Intl's services:
 * every service resolves the same default, but a date formatter loads its calendar data first, 16 ms of
 * a test run's start on Node 24 against 0.3 ms for plural rules.
 */
function systemLocale(): string {
  return new Intl.PluralRules().resolvedOptions().locale;
}

// The one message a process may need before it knows its edition: FORGE_LANG names none. It is said in
// the language the rest of the environment asks for.
const UNKNOWN_LOCALE: Readonly<Record<Locale, (value: string, accepted: readonly string[]) => string>> = {
  en: (value, accepted) =>
    `FORGE_LANG=${JSON.stringify(value)} names no edition of the course: use one of ${accepted.join(", ")}, or leave it unset to follow the system's language.`,
  "zh-CN": (value, accepted) =>
    `FORGE_LANG=${JSON.stringify(value)} 不是本课程的语言版本：请设为 ${accepted.join(" 或 ")}，或者不设置，跟随系统语言。`,
};

/**
 * The edition the environment asks for, chosen once when a program starts; or, when FORGE_LANG names
 * no edition, the one line that says so — in the language the rest of the environment asks for.
 */
export function chooseLocale(env: Environment = processEnv()): { readonly locale: Locale } | { readonly error: string } {
  try {
    return { locale: localeFromEnvironment(env) };
  } catch (error) {
    if (!(error instanceof UnknownLocaleError)) throw error;
    const { FORGE_LANG: _wrong, ...rest } = env;
    return { error: UNKNOWN_LOCALE[localeFromEnvironment(rest)](error.value, LOCALES) };
  }
}
