// The site's words in Simplified Chinese: the English table's twin (en.ts), typed by it.
import { term, type GlossaryTerm } from "../../../lab/i18n/glossary.js";
import { VERDICTS } from "../../../lab/evidence/words/zh-CN.js";
import type { SiteText } from "./en.js";

const zh = (name: GlossaryTerm) => term(name, "zh-CN");
const CHALLENGE_MARK = `${zh("Challenge path")}已开启，这个浏览器中未展开任何部分`;

export const WORDS: SiteText = {
  gap: "",
  page: {
    skip: "跳到正文",
    tagline: "工具、沙箱与副作用控制",
    footer: "Forge Lab · MIT 许可 · 学习进度只保存在这个浏览器中。",
    siteLinks: "网站",
    glossary: zh("Glossary"),
    homeTitle: "Forge Lab",
    homeDescription: "一门讲 Agent Harness 中工具、沙箱与副作用控制的课程。",
    mapTitle: `${zh("Course map")} — Forge Lab`,
    mapDescription: "课程在 Agent Harness 中的位置、用到的概念、需要先掌握什么、卡住时怎么办，以及各个阶段如何层层递进。",
    stageTitle: (nn, title) => `${zh("Stage")} ${nn} · ${title} — Forge Lab`,
    glossaryTitle: `${zh("Glossary")} — Forge Lab`,
    glossaryDescription: "课程中每个术语的英文与简体中文对照。",
    untranslated: "本页还没有简体中文版，下面显示英文原文。",
    repositoryFile: (path) => `仓库中的 ${path}`,
  },
  nav: {
    label: "课程",
    onThisPage: "本页内容",
    stages: zh("Stage"),
    courseMap: zh("Course map"),
    progress: `进度与${zh("Self-check")}`,
  },
  home: {
    boardTitle: "你的进度",
    boardCaption: "每个阶段的状态",
    columns: [zh("Stage"), "课程", "状态"],
    challengeMark: CHALLENGE_MARK,
    statesNote: (states, mark) =>
      `状态依次为：${states.join(" → ")}。一个已通过的阶段，如果读取${zh("Self-check")}结果时“挑战”开关是打开的，而且在那次运行之前，这个浏览器中没有展开过它的任何隐藏部分，还会标上“${mark}”。页面能看到的只有这些：你在别处读过什么（比如课程的 Markdown 文件），它无从知道。`,
    reset: "重置进度",
    selfCheckHeading: `${zh("Self-check")}：载入 verification.json`,
  },
  stage: {
    eyebrow: (nn) => `${zh("Stage")} ${nn}`,
    labDownloadedHtml: (nn) => `我已经把实验下载到本机，并运行了 <code>npm test -- stage-${nn}</code>`,
    labPresentHtml: "实验就在这台机器上：本页由 <code>npm start</code> 提供。",
    challengeSwitch: `${zh("Challenge path")}：在我主动展开之前，隐藏示范步骤和${zh("Reference solution")}`,
  },
  widgets: {
    chooseOne: "选择一个答案",
    why: "原因：",
    experimentId: zh("Experiment id"),
    inputScenario: zh("Input scenario"),
    evidenceFolder: zh("Evidence folder"),
    yourAcceptance: `你的${zh("Acceptance")}`,
    acceptanceNote: "（取自你最近载入的验证文件）",
    acceptance: { pending: "待验收", passed: "已通过", notPassed: "尚未通过" },
    hintsLabel: `逐级${zh("Hint")}`,
    hint: (n) => `${zh("Hint")} ${n}。`,
    showHint: (n, total) => `显示${zh("Hint")} ${n}（共 ${total} 条）`,
    fault: zh("Fault"),
    faultFile: zh("Fault file"),
    targetTest: zh("Target test"),
    expectedFailure: zh("Expected failure"),
    alsoFailing: zh("Also failing"),
    defaultFault: "（本阶段的默认故障）",
    faultHeadingHtml: (idHtml) => `${zh("Fault")} ${idHtml}`,
    diffHeading: "故障，即它对参考实现打的补丁（修复就是撤销它）",
    faultsIntroHtml: (count, commandHtml) => `本阶段有 ${count} 个故障；${commandHtml} 会列出它们。`,
    instructor: {
      closed: `显示${zh("Instructor")}视图：${zh("Fault contract")}与修复`,
      open: `收起${zh("Instructor")}视图：${zh("Fault contract")}与修复`,
    },
    strongAnswer: {
      closed: `展开：${zh("What a strong answer contains")}的要点`,
      open: `收起：${zh("What a strong answer contains")}的要点`,
    },
    rubricNote: "勾选你的回答已经涵盖的要点。这只供你自己对照：只保存在这个浏览器中。",
    badge: { unknown: "未检查", passed: "通过", failed: "失败", missing: "缺失" },
    code: "代码",
    codeIn: (language) => `代码（${language}）`,
    scrolls: (name) => `${name}，可横向滚动`,
  },
  reveals: {
    foldChallengeHtml: (what) => `展开隐藏部分：${what}`,
    foldOpenHtml: (what) => `收起：${what}`,
    solution: {
      closed: `展开${zh("Reference solution")}`,
      challenge: `显示${zh("Reference solution")}（${zh("Challenge path")}上已隐藏）`,
      open: `收起${zh("Reference solution")}`,
    },
    challengeNote: `在${zh("Challenge path")}上隐藏。打开它会记录在这个浏览器中：此后完成的运行即使通过，也只标为通过，不再多说。`,
  },
  panel: {
    masteryHeading: (nn) => `载入${zh("Stage")} ${nn} 的 verification.json`,
    privacyHtml: `文件只在这个浏览器里读取，不会上传任何内容。${zh("Self-check")}核对的是实验约定，不是认证：文件记录的是你自己在 <code>workspace/</code> 中代码的一次运行（不是参考实现的副本），各项计数前后一致，并且本阶段当前测试集中的每个测试都通过了。`,
    limitsHtml: "它无法证明的是：没有人手工改过这个文件。一个班级可以信任的结果，来自你仓库的 CI 运行，而不是你机器上的一个文件。",
    chooseHtml: "选择 <code>verification.json</code>",
    dropHint: "或者把文件拖到这里",
    localEvidence: "本仓库检出中的证据文件",
    verdictLabel: `${zh("Self-check")}结论`,
    referenceRunsNote:
      "针对课程自带代码树（solution、faulty、start）的运行，由 verify 和故障实验室写下：载入其中一个，会说明它为什么不计入。",
  },
  client: {
    storageRefused: "这个浏览器在这里拒绝本地存储：进度只保留到你离开本页为止。",
    challengePassed: `已通过：读取结果时${zh("Challenge path")}已开启，而且在那次运行之前，这个浏览器中没有展开本课的任何部分。你在别处读过什么，本页无从得知。`,
    challengeRevealed: (when) => `你在 ${when} 于这个浏览器中展开了一个隐藏部分：此后完成的运行即使通过，也只标为通过，不再多说。`,
    challengeHidden: (parts) =>
      `本课有 ${parts} 个部分处于隐藏状态。这个浏览器中还没有展开任何部分：现在读取的通过结果，会标上“${CHALLENGE_MARK}”。`,
    resetConfirm: "要重置所有阶段的进度吗？你的文件和证据不会被改动。",
    resetDone: "进度已重置，其他内容都没有改动。",
    quizRight: (letter) => `答对了：答案是 ${letter}。`,
    quizWrong: (chosen, answer) => `不太对：你选了 ${chosen}，答案是 ${answer}。`,
    dropNothing: "没有可读取的内容：请拖入 verification.json 文件本身。",
    unreadable: (file, reason) => `浏览器无法读取 ${file}：${reason}`,
    about: (file, message) => `${file}：${message}`,
    challengeSeen: `${zh("Challenge path")}已开启，这次运行之前，这个浏览器中没有展开任何部分。`,
    otherStage: (nn) => `（这个文件属于${zh("Stage")} ${nn}，已更新该阶段的进度。）`,
    load: (file) => `载入 ${file}`,
    noOwnEvidence: "还没有你自己代码的运行：npm test -- stage-NN 会写下它的 verification.json。",
    referenceRuns: (count) => `参考运行（${count} 个）`,
    couldNotLoad: (file, reason) => `无法载入 ${file}：${reason}`,
    serverAnswered: (status) => `服务器返回 ${status}`,
  },
  verdicts: VERDICTS,
  map: {
    diagramTitle: "学习路径",
    figcaption: "各阶段按课程顺序排列。从一个阶段连到后面某个阶段的弧线表示：后一个阶段的参考实现导入了前一个阶段的模块。",
    tableCaption: "每个阶段依赖什么、提供什么、受什么约束",
    description: (count, imports, alone) => {
      const said = imports.map(({ nn, list }) => `${zh("Stage")} ${nn} 导入${zh("Stage")} ${list}`).join("；");
      return `${count} 个阶段，按课程顺序排列。${said ? `${said}。` : ""}${alone === 0 ? "每个阶段都导入了别的阶段，或被别的阶段导入" : `${alone} 个阶段独立存在`}。图后的表格列出同样的信息。`;
    },
  },
  glossary: {
    heading: zh("Glossary"),
    introHtml: "课程使用的每个术语的英文与简体中文对照：课程的标题、生成块、本网站和实验的命令行都从这份列表取词。",
    noteColumn: "说明（英文）",
  },
};
