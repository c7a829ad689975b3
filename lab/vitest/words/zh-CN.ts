// What `npm test` says to a learner in Simplified Chinese, typed by the English table.
import { FILE_KINDS_ZH } from "../../i18n/file-kinds.js";
import type { TestWords } from "./en.js";

export const TEST_WORDS: TestWords = {
  notWritten: (module, file) => `forge/tools/${module} 尚未编写：请创建 ${file}。`,
  notWrittenExplained: (module, file, lesson, section, earlier) =>
    `forge/tools/${module} 尚未编写：请创建 ${file}（说明见 ${lesson} 的“${section}”一节）。${
      earlier ? `它属于更早的阶段 ${earlier}。` : ""
    }`,
  notInTree: (module, tree, stage) => `${stage} 的 ${tree} 树中没有 forge/tools/${module}。`,
  notAFile: (file, what) => `${file} ${FILE_KINDS_ZH[what]}，不是文件：请把它移开，在那里写模块。`,
  evidenceNotWritten: (file, reason) => `测试已经运行，但 ${file} 无法写入（${reason}）：本地自检和 lab status 都看不到这次运行。`,
  typeScript: (where, syntax, code, message, more) =>
    `${where} ${syntax ? "语法" : "类型"}错误 ${code}：${message}${more > 0 ? `（后面还有 ${more} 处，先改这一处）` : ""}`,
  notATarget: (source, value, targets) => `${source}="${value}" 不是代码树。可选：${targets.join("、")}（默认是 workspace）。`,
  exportMissing: (file, names, importer) => `${file} 没有导出 ${names}，而 ${importer} 要导入它们。`,
  noSuchStage: (number, range) =>
    `没有第 ${number} 阶段：${range ? `阶段编号从 ${range.first} 到 ${range.last}` : "这个检出里没有任何阶段"}（例如 npm test -- stage-01）。`,
  labOption: (option, command) => `${option} 是 lab 的 test 命令的选项，不是 vitest 的：${command}`,
  unknownOption: (message) => `${message}（npm test 把参数原样交给 vitest；npx vitest --help 列出它的选项）。`,
};
