// The fixed words and sentences of a lesson's generated blocks, in Simplified Chinese.
import type { BlockWords } from "./en.js";

export const BLOCK_WORDS: BlockWords = {
  hint: (index: number, count: number) => `提示 ${index}（共 ${count} 条）`,
  acceptance: (run: string) => `\`${run}\` 通过之前为 \`pending\`；每次运行都会在 \`verification.json\` 中记下 \`passed\` 或 \`failed\``,
  none: "无",
  diagnosis: "诊断顺序：",
  fixPrinciple: "**修复原则**：",
  moreFaults: (count: number, fault: string) =>
    `${count === 1 ? "本阶段还有一个故障，它有" : `本阶段还有 ${count} 个故障，每个都有`}自己的故障合同和代码树；\`npm run lab -- fault ${fault} --list\` 列出本阶段的故障，\`npm run lab -- fault ${fault} <fault-id>\` 演示其中一个：`,
  caughtBy: (test: string) => `，由测试 ${test}发现`,
  scenario: (title: string, scenario: string) => `**${title}**（${scenario}）`,
  whatChanges: "*改变的条件*：",
  doneWhen: "完成标准：",
  testsThatCheck: "检查它的测试：",
  mastery: "你在 `workspace/` 里写的代码必须通过这些测试：",
  minutes: ([shortest, longest]: readonly [number, number]) => `${shortest}–${longest} 分钟`,
  order: "按这个顺序让测试变绿：",
  // The English name stays whole, in code, so a learner finds it in vitest's output; the gloss follows.
  test: (name: string, gloss?: string) => (gloss ? `\`${name}\`（${gloss}）` : `\`${name}\``),
  testSeparator: "；",
  anyOrder: (count: number) => `共 ${count} 个测试，顺序不限。从“掌握证据”下的第一个开始，每改一次就运行一次本阶段的测试。`,
};
