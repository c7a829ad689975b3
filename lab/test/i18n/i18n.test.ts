// How the lab chooses the language of its messages, and the pieces that let it speak Chinese: the
// environment's precedence, FORGE_LANG's strict reading, the line that refuses a wrong one, the lesson
// a message points to, and columns that line up with Chinese in them.
import { join } from "node:path";
import { expect, it } from "vitest";
import { loadCatalog } from "../../catalog/load.js";
import { repoPath } from "../../core/layout.js";
import { displayWidth, padDisplay } from "../../core/style.js";
import { lessonIn } from "../../i18n/content.js";
import { isLocale } from "../../core/locale.js";
import { editionOf, forgeLang, localeFromEnvironment, UnknownLocaleError } from "../../i18n/locale.js";
import { chooseLocale } from "../../i18n/locale.js";

it("reads FORGE_LANG first, then LC_ALL, LC_MESSAGES and LANG in that order, then the system's own locale", () => {
  const chosen = {
    "FORGE_LANG over every other": localeFromEnvironment({ FORGE_LANG: "zh-CN", LC_ALL: "en_US.UTF-8", LANG: "en_US.UTF-8" }, "en-US"),
    "FORGE_LANG=en over a Chinese system": localeFromEnvironment({ FORGE_LANG: "en", LC_ALL: "zh_CN.UTF-8" }, "zh-CN"),
    "LC_ALL over LC_MESSAGES and LANG": localeFromEnvironment({ LC_ALL: "zh_CN.UTF-8", LC_MESSAGES: "en_US", LANG: "en_US" }, "en-US"),
    "LC_MESSAGES over LANG": localeFromEnvironment({ LC_MESSAGES: "en_GB.UTF-8", LANG: "zh_CN.UTF-8" }, "zh-CN"),
    "LANG alone": localeFromEnvironment({ LANG: "zh_CN.UTF-8" }, "en-US"),
    "the system's tag when no variable names a language": localeFromEnvironment({}, "zh-Hans-CN"),
    "English when nothing names one": localeFromEnvironment({}, "C"),
  };
  expect(chosen, "the edition chosen, by what the environment holds").toEqual({
    "FORGE_LANG over every other": "zh-CN",
    "FORGE_LANG=en over a Chinese system": "en",
    "LC_ALL over LC_MESSAGES and LANG": "zh-CN",
    "LC_MESSAGES over LANG": "en",
    "LANG alone": "zh-CN",
    "the system's tag when no variable names a language": "zh-CN",
    "English when nothing names one": "en",
  });
});

it("falls back to the locale every Intl service resolves when no variable names a language", () => {
  const reported = Intl.DateTimeFormat().resolvedOptions().locale;
  expect(localeFromEnvironment({ LANG: "C.UTF-8" }), `the edition for a system Node reports as ${reported}`).toBe(
    editionOf(reported) ?? "en",
  );
});

it("passes over C, POSIX and an empty FORGE_LANG to the next thing that names a language", () => {
  const chosen = {
    "LC_ALL=C": localeFromEnvironment({ LC_ALL: "C", LANG: "zh_CN.UTF-8" }, "en-US"),
    "LC_ALL=POSIX": localeFromEnvironment({ LC_ALL: "POSIX", LANG: "zh_CN.UTF-8" }, "en-US"),
    "LANG=C.UTF-8": localeFromEnvironment({ LANG: "C.UTF-8" }, "zh-CN"),
    "FORGE_LANG empty": localeFromEnvironment({ FORGE_LANG: "", LANG: "zh_CN.UTF-8" }, "en-US"),
    "FORGE_LANG blank": localeFromEnvironment({ FORGE_LANG: "  ", LC_ALL: "zh_TW.UTF-8" }, "en-US"),
  };
  expect(chosen, "the edition chosen when a variable states no language").toEqual({
    "LC_ALL=C": "zh-CN",
    "LC_ALL=POSIX": "zh-CN",
    "LANG=C.UTF-8": "zh-CN",
    "FORGE_LANG empty": "zh-CN",
    "FORGE_LANG blank": "zh-CN",
  });
});

it("reads a system locale tag as an edition: any Chinese as zh-CN, any other language as English", () => {
  const tags = [undefined, "", "C", "POSIX", "C.UTF-8", "zh_CN.UTF-8", "zh_TW.Big5", "zh-Hant-HK", "zh", "en_US", "de_DE.UTF-8", "ja_JP"];
  expect(Object.fromEntries(tags.map((tag) => [String(tag), editionOf(tag)])), "editionOf, by tag").toEqual({
    undefined: null,
    "": null,
    C: null,
    POSIX: null,
    "C.UTF-8": null,
    "zh_CN.UTF-8": "zh-CN",
    "zh_TW.Big5": "zh-CN",
    "zh-Hant-HK": "zh-CN",
    zh: "zh-CN",
    en_US: "en",
    "de_DE.UTF-8": "en",
    ja_JP: "en",
  });
});

it("takes FORGE_LANG only as the exact name of an edition, and refuses constructor and __proto__", () => {
  const accepted = ["en", "zh-CN", "zh-cn", "ZH_CN", " en "];
  expect(Object.fromEntries(accepted.map((value) => [value, forgeLang(value)])), "forgeLang, by value").toEqual({
    en: "en",
    "zh-CN": "zh-CN",
    "zh-cn": "zh-CN",
    ZH_CN: "zh-CN",
    " en ": "en",
  });
  for (const value of ["constructor", "__proto__", "toString", "zh", "fr"]) {
    expect(() => forgeLang(value), `forgeLang(${JSON.stringify(value)})`).toThrow(UnknownLocaleError);
    expect(() => localeFromEnvironment({ FORGE_LANG: value }, "en-US"), `FORGE_LANG=${value}`).toThrow(
      `FORGE_LANG must be one of "en", "zh-CN", got ${JSON.stringify(value)}`,
    );
  }
  const verdicts = ["en", "zh-CN", "zh", "constructor", 1, undefined].map((value) => isLocale(value));
  expect(verdicts, "isLocale of en, zh-CN, zh, constructor, 1, undefined").toEqual([true, true, false, false, false, false]);
});

it("says a wrong FORGE_LANG in one line, in the language the rest of the environment asks for", () => {
  expect(chooseLocale({ FORGE_LANG: "fr", LC_ALL: "en_US.UTF-8" }), "FORGE_LANG=fr on an English system").toEqual({
    error: `FORGE_LANG="fr" names no edition of the course: use one of en, zh-CN, or leave it unset to follow the system's language.`,
  });
  expect(chooseLocale({ FORGE_LANG: "__proto__", LANG: "zh_CN.UTF-8" }), "FORGE_LANG=__proto__ on a Chinese system").toEqual({
    error: `FORGE_LANG="__proto__" 不是本课程的语言版本：请设为 en 或 zh-CN，或者不设置，跟随系统语言。`,
  });
  expect(chooseLocale({ FORGE_LANG: "zh-CN" }), "FORGE_LANG=zh-CN").toEqual({ locale: "zh-CN" });
});

it("points to a lesson's Chinese twin when it is written, and to the English lesson until then", () => {
  const stage = loadCatalog().stages[0];
  if (!stage) throw new Error("the course has no stage");
  const twin = lessonIn(stage, "zh-CN");
  expect({ file: repoPath(twin.file), locale: twin.locale }, "stage 01's lesson in Chinese").toEqual({
    file: `stages/${stage.id}/README.zh-CN.md`,
    locale: "zh-CN",
  });
  expect(lessonIn(stage, "en"), "stage 01's lesson in English").toEqual({ file: stage.readmePath, locale: "en" });
  const unwritten = { readmePath: join(stage.dir, "no-such-lesson", "README.md") };
  expect(lessonIn(unwritten, "zh-CN"), "a lesson with no Chinese twin, asked for in Chinese").toEqual({
    file: unwritten.readmePath,
    locale: "en",
  });
});

it("measures text in terminal columns, a Chinese character taking two", () => {
  expect(displayWidth("阶段 01"), "columns of 阶段 01").toBe(7);
  expect(displayWidth("（共 4 条）："), "columns of full-width punctuation and Chinese").toBe(13);
  expect(displayWidth("registry.ts ✔"), "columns of ASCII and a check mark").toBe(13);
  expect(padDisplay("未开始", 8), "未开始 padded to 8 columns").toBe("未开始  ");
  expect(padDisplay("in progress", 4), "a cell wider than the column").toBe("in progress");
});
