// The course's vocabulary in both editions: the one home of every term a lesson heading, a generated
// block, the site or the lab CLI shows. `npm run generate` writes it out as docs/glossary.md, and the
// Chinese lessons use the same words, so the two editions and the site agree.
import type { Locale } from "../core/locale.js";

export interface Term {
  readonly en: string;
  readonly "zh-CN": string;
  /** What the term names, for the glossary page. */
  readonly note: string;
  /**
   * Words a Chinese page must not use for this concept: the other renderings the edition once had, or the
   * stray English a sentence kept. Verify refuses them in every Chinese lesson, page and message
   * (lab/i18n/rejected.ts), outside code and English quotations, and names this term's word instead.
   */
  readonly rejected?: readonly string[];
}

export const GLOSSARY = [
  // The parts of a lesson, in the order a lesson has them.
  { en: "The problem", "zh-CN": "先看一个具体问题", note: "section 1: a concrete case that fails today" },
  { en: "Predict", "zh-CN": "先做判断", note: "section 2: a question to answer before reading on" },
  { en: "Concepts", "zh-CN": "概念", note: "section 3" },
  { en: "Experiment card", "zh-CN": "实验卡", note: "section 4: the experiment's id, input, evidence folder and acceptance" },
  { en: "Worked example", "zh-CN": "教师示范", note: "section 5" },
  { en: "Reference solution", "zh-CN": "参考实现", note: "section 6: the module under solutions/" },
  { en: "Guided practice", "zh-CN": "带提示练习", note: "section 7" },
  { en: "Completion criteria", "zh-CN": "完成标准", note: "section 8" },
  { en: "Fault lab", "zh-CN": "故障实验室", note: "section 9: an injected fault, the test that catches it, the diagnosis" },
  { en: "Transfer challenge", "zh-CN": "迁移挑战", note: "section 10: the same capability in another scenario" },
  { en: "Design question", "zh-CN": "设计解释题", note: "section 11" },
  { en: "Mastery evidence", "zh-CN": "掌握证据", note: "section 12: the tests that must pass against the learner's code" },
  // Inside the generated blocks.
  { en: "Answer", "zh-CN": "答案", note: "the answer to the prediction" },
  { en: "Hint", "zh-CN": "提示", note: "one of the graded hints (逐级提示)" },
  { en: "Experiment id", "zh-CN": "实验 ID", note: "experiment card" },
  { en: "Input scenario", "zh-CN": "输入场景", note: "experiment card" },
  { en: "Evidence folder", "zh-CN": "证据目录", note: "experiment card: where a run writes verification.json" },
  { en: "Acceptance", "zh-CN": "验收", note: "experiment card: pending, passed or failed" },
  { en: "Usually takes", "zh-CN": "通常用时", note: "experiment card: how long a learner usually spends on the stage" },
  { en: "Fault", "zh-CN": "故障", note: "the id of an injected fault" },
  { en: "Fault file", "zh-CN": "故障文件", note: "the faulty module" },
  { en: "Target test", "zh-CN": "目标测试", note: "the test that must catch the fault" },
  { en: "Expected failure", "zh-CN": "预期失败", note: "what the target test's failure message must match" },
  { en: "Also failing", "zh-CN": "同时失败", note: "other tests the fault may fail" },
  { en: "Diagnosis", "zh-CN": "诊断顺序", note: "the ordered steps from the failure to the cause" },
  { en: "Fix principle", "zh-CN": "修复原则", note: "the rule the fix follows" },
  { en: "Fault contract", "zh-CN": "故障合同", note: "failure.json: the fault, its target test and expected failure" },
  { en: "What changes", "zh-CN": "改变的条件", note: "transfer challenge: what differs from the worked example" },
  { en: "Done when", "zh-CN": "完成标准", note: "transfer challenge: its criteria" },
  { en: "What a strong answer contains", "zh-CN": "好的回答应包含", note: "design question: the rubric" },
  { en: "Open when stuck", "zh-CN": "卡住时再打开", note: "a fold of the lesson that the challenge path hides" },
  // The course and its parts.
  { en: "Stage", "zh-CN": "阶段", note: "one capability, one lesson, one module" },
  { en: "Course map", "zh-CN": "课程地图", note: "stages/README.md" },
  { en: "Workspace", "zh-CN": "工作区", note: "workspace/: the learner's own code" },
  { en: "Evidence", "zh-CN": "证据", note: "evidence/: what a test run records" },
  { en: "Self-check", "zh-CN": "本地自检", note: "the site reads verification.json in the browser; nothing is uploaded" },
  { en: "Challenge path", "zh-CN": "挑战路径", note: "the site's mode that hides the folds and the reference solution" },
  { en: "Reference tree", "zh-CN": "solution 树", note: "solutions/: the reference modules" },
  { en: "Faulty tree", "zh-CN": "faulty 树", note: "faulty/: the reference with one injected fault" },
  { en: "Start tree", "zh-CN": "起点树", note: "a stage before its module is written" },
  { en: "Mutation score", "zh-CN": "变异得分", note: "the share of small changes to the reference that the tests catch" },
  { en: "Learner", "zh-CN": "学员", note: "" },
  { en: "Instructor", "zh-CN": "讲师", note: "" },
  // The self-check's states, in order.
  { en: "Not started", "zh-CN": "未开始", note: "self-check state 1" },
  { en: "Reading", "zh-CN": "阅读中", note: "self-check state 2" },
  { en: "Lab downloaded", "zh-CN": "已下载实验", note: "self-check state 3" },
  { en: "Test results read", "zh-CN": "已读取测试结果", note: "self-check state 4" },
  { en: "Self-check passed", "zh-CN": "自检通过", note: "self-check state 5" },
  // The transfer scenarios.
  { en: "Software delivery", "zh-CN": "软件交付", note: "scenario" },
  { en: "Office research", "zh-CN": "办公研究", note: "scenario" },
  { en: "Music creation", "zh-CN": "音乐创作", note: "scenario" },
  // What the stages teach.
  { en: "Side effect", "zh-CN": "副作用", note: "" },
  { en: "Tool", "zh-CN": "工具", note: "" },
  { en: "Capability", "zh-CN": "能力", note: "stage 01" },
  { en: "Registry", "zh-CN": "注册表", note: "stage 01" },
  { en: "Path policy", "zh-CN": "路径策略", note: "stage 02" },
  { en: "Change plan", "zh-CN": "变更计划", note: "stage 03" },
  {
    en: "Plan digest",
    "zh-CN": "计划摘要",
    note: "stage 03: the SHA-256 an approval binds; 摘要 alone always means a digest, never a summary",
  },
  {
    en: "Approval",
    "zh-CN": "审批",
    note: "stage 04: a reviewer's consent to one exact plan (审批 as in 审批门控); 确认 keeps its everyday sense, to confirm",
    rejected: ["批准", "审阅"],
  },
  { en: "Reviewer", "zh-CN": "审批人", note: "stage 04: the person who approves a plan", rejected: ["审阅者", "审核者"] },
  { en: "Approval gate", "zh-CN": "审批门控", note: "stage 04", rejected: ["确认门禁"] },
  {
    en: "Gate",
    "zh-CN": "门控",
    note: "a check every call passes before it runs (the approval gate, stage 11's interpreter gate)",
    rejected: ["门禁"],
  },
  {
    en: "Auto-approve",
    "zh-CN": "自动放行",
    note: "stage 09: a command that runs without asking; 放行 is the verb, require_approval is 需要审批",
    rejected: ["自动批准"],
  },
  { en: "Atomic write", "zh-CN": "原子写入", note: "stage 05" },
  { en: "Rollback journal", "zh-CN": "回滚日志", note: "stage 06" },
  { en: "Side-effect controller", "zh-CN": "副作用控制器", note: "stage 07" },
  { en: "Read-only workspace tools", "zh-CN": "只读工作区工具", note: "stage 08" },
  { en: "Terminal path scope", "zh-CN": "终端路径范围", note: "stage 09" },
  { en: "Output decoding", "zh-CN": "输出解码", note: "stage 10" },
  { en: "Native executor", "zh-CN": "原生执行器", note: "stage 11" },
  // File-system words the lessons use.
  {
    en: "Symbolic link (symlink)",
    "zh-CN": "符号链接",
    note: "an entry that names another path, which opening it follows; error messages and tests say `symlink`",
  },
  { en: "Hard link", "zh-CN": "硬链接", note: "a second name of the same file (the same inode); `nlink` counts the names" },
  { en: "Junction", "zh-CN": "目录联接", note: "a Windows link to a folder; Node's `lstat` reports it as a symbolic link (stage 08)" },
  { en: "Folder", "zh-CN": "目录", note: "in the lessons and in the CLI alike", rejected: ["文件夹"] },
  {
    en: "Path walk",
    "zh-CN": "逐段遍历",
    note: "stages 02 and 08: checking a path one component at a time on disk; 遍历 for short",
    rejected: ["逐级检查", "逐级遍历"],
  },
  { en: "Walk over real paths", "zh-CN": "真实路径遍历", note: "stage 02: the path walk that resolves each existing component" },
  // The attacks, by the names a reader searches for; each lesson gives the English on first use.
  {
    en: "Path traversal",
    "zh-CN": "路径穿越",
    note: "a request that climbs out with `..` or an absolute form",
    rejected: ["路径遍历", "目录穿越", "目录遍历"],
  },
  { en: "Symlink escape", "zh-CN": "符号链接逃逸", note: "a link inside the root whose target is outside it" },
  {
    en: "TOCTOU (time of check to time of use)",
    "zh-CN": "TOCTOU 竞态",
    note: "the path changes between the check and the use (检查时刻与使用时刻之间)",
  },
  {
    en: "Mount namespace",
    "zh-CN": "挂载命名空间",
    note: "isolation: a process sees only the mounts it is given",
    rejected: ["mount namespace"],
  },
  { en: "Killed (by a signal)", "zh-CN": "被杀死", note: "a process ended by SIGKILL or another signal", rejected: ["killed"] },
  // Words of the contract and of refusal.
  { en: "Contract", "zh-CN": "合同", note: "what a tool, a request or a fault promises (故障合同, 结果合同)", rejected: ["契约"] },
  { en: "Fail closed", "zh-CN": "失败即拒绝", note: "stage 11: refuse when the promised guard is missing", rejected: ["失败即关闭"] },
  {
    en: "Summary (of a job or a run)",
    "zh-CN": "汇总",
    note: "the CI job summary (作业汇总), a test runner's last lines; never 摘要, which is a digest",
    rejected: ["作业摘要", "运行摘要", "变异摘要"],
  },
  {
    en: "What stays open",
    "zh-CN": "尚未堵上的缺口",
    note: "the paragraph of a lesson that says what its check does not close",
    rejected: ["尚未解决的问题", "仍未解决的问题", "仍未解决"],
  },
  { en: "Shared sample library", "zh-CN": "共享采样库", note: "the music scenario's library outside the EP", rejected: ["共享素材库"] },
  // The course site.
  { en: "Glossary", "zh-CN": "术语表", note: "this list: every term in both editions, a page of the site" },
] as const satisfies readonly Term[];

export type GlossaryTerm = (typeof GLOSSARY)[number]["en"];

const BY_ENGLISH: ReadonlyMap<string, Term> = new Map(GLOSSARY.map((term) => [term.en, term]));

/** A term of the glossary in one edition. */
export function term(en: GlossaryTerm, locale: Locale): string {
  const found = BY_ENGLISH.get(en);
  if (!found) throw new Error(`"${en}" is not in the glossary`);
  return found[locale];
}

/** docs/glossary.md: every term in both editions. */
export function glossaryPage(): string {
  const rows = GLOSSARY.map((entry: Term) => `| ${entry.en} | ${entry["zh-CN"]} | ${entry.note} | ${(entry.rejected ?? []).join("、")} |`);
  return [
    "# Glossary · 术语表",
    "",
    "Every term the course uses, in English and in Simplified Chinese. Lesson headings, generated blocks, the site",
    "and the lab CLI take their words from this list (`lab/i18n/glossary.ts`); `npm run generate` writes this page.",
    "",
    "课程使用的每个术语的英文与简体中文对照。课程标题、生成块、网站和 lab 命令行都从这份列表取词",
    "（`lab/i18n/glossary.ts`）；本页由 `npm run generate` 生成。",
    "",
    "Each term has one Chinese word. The words in the last column are refused by `npm run verify` in every Chinese",
    "lesson, page and message (outside code and English quotations).",
    "",
    "每个概念只用一个中文术语。最后一列是不再使用的译法：`npm run verify` 在所有中文课程、页面和消息中拒绝它们",
    "（代码和英文引文除外）。",
    "",
    "| English | 简体中文 | What it names | Not used (不再使用) |",
    "|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}
