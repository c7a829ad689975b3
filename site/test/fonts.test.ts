// Chinese text needs a font that has its characters, and the site fetches none: the Chinese edition
// names the system fonts that cover Simplified Chinese on each platform, or a machine without them
// shows boxes. This checks the stack in styles.css against what each platform ships.
import { expect, it } from "vitest";
import { STYLES, stackOf } from "./support/fonts.js";

/** Fonts with Simplified Chinese that each platform ships or installs from its own packages, by family name. */
const PLATFORM_FONTS: Readonly<Record<string, readonly string[]>> = {
  // Microsoft YaHei since Vista.
  Windows: ["Microsoft YaHei"],
  // PingFang SC since 10.11; Hiragino Sans GB since 10.6; Heiti SC before PingFang.
  macOS: ["PingFang SC", "Hiragino Sans GB", "Heiti SC"],
  iOS: ["PingFang SC", "Heiti SC"],
  // Debian/Ubuntu fonts-noto-cjk, Fedora google-noto-sans-cjk-fonts, Arch noto-fonts-cjk (Noto Sans CJK SC,
  // or Noto Sans SC in the newer split packages); adobe-source-han-sans; fonts-wqy-microhei and
  // fonts-wqy-zenhei; fonts-droid-fallback.
  Linux: ["Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Micro Hei", "WenQuanYi Zen Hei", "Droid Sans Fallback"],
  // Noto Sans CJK since Android 5, Droid Sans Fallback before; its browsers also resolve the generic
  // sans-serif by the page's language.
  Android: ["Noto Sans CJK SC", "Droid Sans Fallback"],
  ChromeOS: ["Noto Sans CJK SC"],
  HarmonyOS: ["HarmonyOS Sans SC"],
};

it("names a system font with Simplified Chinese for every platform in the stack of :lang(zh-CN), and fetches none", () => {
  const stack = stackOf("--font-cjk");
  const uncovered = Object.entries(PLATFORM_FONTS)
    .filter(([, fonts]) => !fonts.some((font) => stack.includes(font)))
    .map(([platform, fonts]) => `${platform} (ships ${fonts.join(", ")})`);
  expect(uncovered, `platforms whose Chinese fonts the stack does not name: ${stack.join(", ")}`).toEqual([]);
  const known = new Set([...Object.values(PLATFORM_FONTS).flat(), "system-ui", "sans-serif"]);
  expect(
    stack.filter((family) => !known.has(family)),
    "families in the stack that no platform above ships (a typo names nothing)",
  ).toEqual([]);
  expect(stack.at(-1), "the stack's last family, the generic one every browser resolves by language").toBe("sans-serif");
  expect(
    /:root:lang\(zh-CN\)[^{]*\{\s*font-family:\s*var\(--font-cjk\);?\s*\}/.test(STYLES),
    "a Chinese page, and Chinese text inside an English one, is set in the stack",
  ).toBe(true);
  expect(STYLES.match(/@font-face|@import|url\(/g) ?? [], "fonts or styles the stylesheet would fetch").toEqual([]);
});
