// The self-check's verdicts in Simplified Chinese, typed by the English table so neither can lack one.
import { term, type GlossaryTerm } from "../../i18n/glossary.js";
import type { VerdictWords } from "./en.js";

const zh = (name: GlossaryTerm) => term(name, "zh-CN");
const quoteList = (names: readonly string[]) => names.map((name) => `“${name}”`).join("、");

export const VERDICTS: VerdictWords = {
  tooLarge: (megabytes) => `这个文件有 ${megabytes} MB；验证文件只有几 KB，所以没有读取它。`,
  notJson: (reason) => `这个文件不是 JSON（${reason}）。请选择测试运行写下的 verification.json。`,
  notObject: "这个文件是 JSON，但不是验证文件：它不包含对象。",
  noSchemaVersion: "这个文件没有 schemaVersion：它不是 Forge Lab 的验证文件。",
  otherVersion: (version, readable) =>
    `这个文件的 schema 版本是 ${version}；本网站能读取的版本是 ${readable.join(" 和 ")}。请用这个版本的实验重新运行测试。`,
  wholeFile: "（文件）",
  issues: (shown, more) => `${shown.join("；")}${more > 0 ? `（另有 ${more} 处）` : ""}`,
  schemaMismatch: (issues) => `这个文件不符合验证文件的 schema：${issues}。`,
  unknownStage: (stage) => `这个文件属于“${stage}”，它不是本课程的阶段。`,
  otherExperiment: (named, stage, expected) => `这个文件写的实验是“${named}”，但 ${stage} 的实验是“${expected}”。`,
  targets: {
    workspace: "你自己在 workspace/ 中的代码",
    solution: "参考实现",
    faulty: "故障实验室的 faulty 树",
    start: "本阶段的起点（前面各阶段的参考实现，不含本阶段的模块）",
  },
  notWorkspace: (description, target, run) =>
    `这个文件来自针对${description}的运行（target "${target}"），不是你的工作区，所以不计入。请在你自己的代码上运行 ${run}，然后载入它写下的 verification.json。`,
  courseCode: (path, run) => `这次运行测试的是 ${path}，这是课程自带的代码，不是你的工作区，所以不计入。请在你自己的代码上运行 ${run}。`,
  copyKinds: { reference: "参考实现", faulty: "故障实验室的故障模块" },
  referenceCopy: (path, kind, run) =>
    `参考副本，不计入：${path} 与课程的${kind}逐字节相同（行尾除外），就像 npm run lab -- start 复制出来的那样，所以它通过测试并不能证明你的任何工作。用 npm run lab -- restore 找回你自己的文件，或者自己编写，然后再运行 ${run}。`,
  missingModules: (files) => `这次运行没有找到 ${files.join(" 或 ")}：测试运行时，本阶段的模块还没有写出来。`,
  acceptance: (acceptance) => `这次运行自己记录的验收结果是 "${acceptance}"，不是 "passed"。`,
  duplicates: (names) => `文件中 ${quoteList(names)} 出现了不止一次；一次运行对每个测试只记录一次，所以文件被改过。`,
  countsDiffer: (counts) =>
    `汇总与文件自己的列表不一致（${counts.map(({ key, claimed, actual }) => `${key} 记为 ${claimed}，列表给出 ${actual}`).join("；")}），所以文件被改过。`,
  unknownTests: (names, stage, nn) =>
    `文件列出了 ${names.length} 个 ${stage} 没有的测试：${quoteList(names)}。改过名的测试或旧版课程的结果都不计入：请重新运行 npm test -- stage-${nn}。`,
  strayFiles: (stage, files) => `文件中列出了 ${stage} 没有的测试文件：${quoteList(files)}。`,
  missingTests: (names, total) => `本阶段的 ${total} 个测试中，有 ${names.length} 个没有出现在文件里：${quoteList(names)}。`,
  notPassedTests: (tests) => `有 ${tests.length} 个测试没有通过：${tests.map((test) => `“${test.name}”（${test.status}）`).join("、")}。`,
  loadErrors: (count, first) => `有 ${count} 个测试文件没有加载：${first}`,
  ciUrl: (url, runId, repository) => `CI 运行的 URL ${url} 不是 ${repository} 的运行 ${runId} 的 URL，所以文件被改过。`,
  ciCommit: (built, recorded) => `CI 运行构建的是提交 ${built}，文件记录的检出却在 ${recorded}，所以文件被改过。`,
  runners: {
    "self-hosted": "，运行在自托管的 runner 上，这并不比本地运行证明得更多",
    "github-hosted": "，运行在 GitHub 托管的 runner 上",
    unknown: "",
  },
  ciClaim: (url, commit, runner) =>
    `文件声称它由 GitHub Actions 运行 ${url} 写下，对应提交 ${commit}${runner}：这是一项需要对照那次运行自己的产物来核实的声明，本身并不是证明。`,
  passed: (total, stage, generatedAt) =>
    `${zh("Self-check passed")}：${stage} 的全部 ${total} 个测试，在你自己工作区代码的一次运行中通过（${generatedAt}）。`,
  notPassed: (stage, problems) => `已读取 ${stage} 的结果，尚未通过。${problems.join("")}`,
  ciEvidenceNote:
    "来自 CI 运行的证据会写明产生它的 GitHub Actions 运行：它的 URL、仓库和提交。这是文件做出的声明，不是证明：任何人都可以把它写进文件。只有当文件正是那次运行上传的那一份时，它才能证明结果：请你自己从那次运行的产物中取得它（运行页面，或 gh run download），这样结果就是 GitHub 自己的 runner 针对那个提交算出来的。除了本地自检检查的内容之外，它不能证明代码是学员自己的作品；自托管的 runner 是由它的所有者控制的机器，所以它的运行并不比本地运行证明得更多。",
};
