// Every word the lab CLI shows, in Simplified Chinese, typed by the English table. The course's terms
// come from the glossary (`term`).
import type { FoundBrowser } from "../../core/browser.js";
import { FILE_KINDS_ZH } from "../../i18n/file-kinds.js";
import { term, type GlossaryTerm } from "../../i18n/glossary.js";
import { MARKS, type CliWords } from "./en.js";

const zhTerm = (words: GlossaryTerm) => term(words, "zh-CN");

const STAGE_NAMES_ZH = "阶段可以写成 4、04、stage-04 或 stage-04-approval-gate。";

const BROWSER_SOURCE_ZH: Readonly<Record<FoundBrowser["source"], string>> = {
  CHROME_PATH: "由环境变量指定",
  PATH: "在 PATH 上找到",
  "install folder": "已安装的浏览器",
  Playwright: "由 Playwright 安装",
  "@sparticuz/chromium": "@sparticuz/chromium 自带的无头 Chromium",
};

const describeBrowserZh = (found: FoundBrowser) => `${found.executablePath}（${BROWSER_SOURCE_ZH[found.source]}）`;

export const CLI_WORDS: CliWords = {
  locale: "zh-CN",
  list: (items) => items.join("、"),

  commands: {
    status: {
      summary: "每个阶段：你的模块、最近一次证据、状态和下一步",
      help: `只读取 workspace/ 和 evidence/，不做任何改动。--markdown 把同样的状态打印成 Markdown 表格，
也就是课程 GitHub Actions 工作流的作业汇总（job summary）。`,
    },
    start: {
      summary: "把 workspace/ 置于某个阶段的起点（即它之前各阶段的参考实现）",
      help: `先打印计划：要新建、覆盖或保持不变的每个文件，附内容哈希。内容与参考实现不同的文件，只有经你同意
才会被覆盖：加 --yes，或在终端里回答 yes；两者都没有时拒绝执行，以状态 1 退出。每个被替换的文件都先
保存到 .lab/backups/，每次写入都是原子的，任何一步失败都会全部回滚。撤销用 restore。
它用的正是课程自己的参考模块：计划 → 绑定计划摘要的审批 → 原子写入 → 回滚。${STAGE_NAMES_ZH}
示例：npm run lab -- start 4`,
    },
    restore: {
      summary: "撤销一次 start：被替换的文件逐字节恢复，新建的文件被删除",
      help: `不给备份名时，撤销最近一次尚未恢复的 start；给出 .lab/backups/ 中的某个名字，则撤销那一次命令
（start 或 restore）。你之后改过的文件，只有经你同意才会被替换（--yes，或在终端里回答 yes）；restore
替换的一切都会先存入一份新备份，所以 restore 本身也能撤销：它会打印撤销它的命令。
示例：npm run lab -- restore`,
    },
    fault: {
      summary: `${zhTerm("Fault lab")}：复现某个阶段注入的一个故障、列出全部故障，或打开并检查你的修复`,
      help: `不带选项时（讲师演示）：针对某个故障的代码树运行该阶段的测试（没有给出故障 ID 时用该阶段的默认故障），
并打印故障合同、哪些测试失败及其失败消息、诊断顺序、修复原则，以及故障对参考实现打的补丁（修复就是撤销它）。
只有故障被原样复现时才以状态 0 退出——复现不等于修复。
--list   列出该阶段的全部故障，每行一个，默认故障在前
--open   把有故障的模块复制到 faultlab/stage-NN-<slug>/（非默认故障复制到
         faultlab/stage-NN-<slug>/<fault-id>/），供你修复
--check  用你修好的副本运行该阶段的测试，报告已修复（状态 0）或未修复（状态 1）
${STAGE_NAMES_ZH}
示例：npm run lab -- fault 5 --list，然后 npm run lab -- fault 5 <fault-id>`,
    },
    hint: {
      summary: "某个阶段的下一条逐级提示（会记住进度），或全部提示",
      help: `每运行一次多显示一条提示，从轻轻点拨到几乎给出答案。${STAGE_NAMES_ZH}
示例：npm run lab -- hint 2`,
    },
    test: {
      summary: "运行某个阶段的测试，与 npm test 相同；--previous 加上之前的阶段；--all 运行你开始过的每个阶段",
      help: `不加 --watch 时只运行一次。--previous 同时运行之前每个阶段的测试，改动一旦破坏了之前的阶段，立刻就能
看到。--target 选择代码树（默认是 workspace，即你的代码）。
--all 针对你的代码，运行 workspace/ 中已有模块的每个阶段的测试：也就是课程的 GitHub Actions 工作流在
每次推送时运行的内容。${STAGE_NAMES_ZH}
示例：npm run lab -- test 5 --previous
      npm run lab -- test 4 --target solution
      npm run lab -- test --all`,
    },
    export: {
      summary: "把某个阶段的 verification.json 转成 CI 仪表盘读取的 CTRF 或 JUnit XML 格式",
      help: `读取该阶段的证据（默认是你自己的运行结果，--target 可以指定其他代码树），写成 CTRF JSON（用 ctrf 包的
校验器检查）或 JUnit XML，默认写在证据旁边，--out 可以指定文件（--out - 则直接打印）。每个测试都保留名称、
状态、耗时和失败消息；没能加载的测试文件记为一条失败条目，以该文件命名。${STAGE_NAMES_ZH}
示例：npm run lab -- export 4 --format junit`,
    },
    class: {
      summary: `供${zhTerm("Instructor")}使用：根据多名${zhTerm("Learner")}的证据目录或 artifact zip 生成班级报告（HTML 和 CSV）`,
      help: `<folder> 中每名学员一项：一个目录（他们的 evidence/，或解压后的 artifact），或者从他们的 forge-lab
工作流运行下载的 artifact .zip（用 gh run download，或在该次运行的页面下载）。在 <folder>（或 --out 指定的
目录）中写出 class-report.html（学员 × 阶段，每格是课程网站本地自检的判定，标出 CI 运行，可排序，直接从
磁盘打开即可使用）和 class-report.csv。不解压任何内容：zip 条目在内存中读取，每个文件读取前都先检查大小。
示例：npm run lab -- class ~/classes/spring`,
    },
    verify: {
      summary: "项目自身的验证，与 npm run verify 相同，逐个阶段显示进度",
      help: "针对每个阶段的 solution、faulty 和 start 树运行测试，再运行 lab 和网站自身的测试以及类型检查。",
    },
    doctor: {
      summary: "上课前检查这台机器：Node、依赖、写权限、编辑器设置、Chromium",
      help: `除了在 workspace/ 和 evidence/ 中创建又删除的一个探测文件，不做任何改动。报告网站的浏览器测试将使用
哪个浏览器，并启动它一次：依次查找 CHROME_PATH、PATH 上或常见安装位置的 Chromium 或 Chrome、Playwright
安装的浏览器，最后（Linux x64）是 @sparticuz/chromium 自带的那一个。`,
    },
    new: {
      summary: "供课程作者使用：为新阶段搭好脚手架，所有文件就位，每处待写内容都做了标记",
      help: `创建 stages/stage-NN-<slug>/（含十二个小节及其生成块的 README、stage.json、第一个测试文件）、参考模块
的桩、一个占位的故障补丁及其故障合同，全部符合各自的 schema，然后运行 npm run generate。每处待写内容都标着
PLACEHOLDER；在阶段完成之前，npm run verify 会逐一列出它们。模块名默认取 slug 的最后一个词。
示例：npm run lab -- new 12 sandbox-profile --module profile`,
    },
    "new-fault": {
      summary: "供课程作者使用：把一个故障写成对本阶段参考实现的一处改动（补丁），分两次运行",
      help: `第一次运行把本阶段模块的草稿放到 .lab/fault-drafts/ 中（故障已有版本时用它，否则用参考实现），并为新故障
搭好故障合同的脚手架。编辑草稿，做出构成这个故障的那一处改动。第二次运行时，如果草稿与参考实现恰好只有一处
不同，就把它保存为 faulty/<stage>/<fault-id>.patch。然后运行：npm run lab -- fault <stage> <fault-id>。
示例：npm run lab -- new-fault 5 short-write`,
    },
    serve: {
      summary: "通过 stdio 把你的阶段 12 服务器（或参考实现）提供给 MCP 客户端，作用于你指定的目录",
      help: `在客户端的配置里这样启动：node lab/bin/forge-lab.mjs serve <root>。stdout 上只有 JSON-RPC；审计记录写到
stderr，每次调用一行 JSON。root 是工具可以触及的目录，只有这个参数能设定它。--target solution 提供参考实现，
而不是 workspace/ 里的代码。不加 --full-access 时所有命令都会被拒绝；加上后，run_command 会直接运行阶段 09
放行或有人审批通过的命令，没有沙箱。`,
    },
    "mcp-attack": {
      summary: "攻击四个 MCP 服务器（你的、参考实现、官方 filesystem 服务器的两个版本），统计有什么逃出了根目录",
      help: `在一个新建的临时目录上通过 stdio 启动每个服务器，根目录之外放着机密，用官方 SDK 的客户端驱动它：每一类用例都用
服务器列出的每个读取工具和 write_file 各试一遍。用例有：前缀相同的兄弟目录 <root>_evil、四个会被剥掉结尾字符的兄弟目录、
指向外部的符号链接（服务器启动前和启动后创建的都有）、读过一次之后被换成链接的目录、经由链接的写入、换了大小写拼写的
链接，以及 PayloadsAllTheThings 的路径穿越列表（相对路径和绝对路径各一遍）。只要任何一个回答里出现了外部的内容或只有
外部才有的名字，或者根目录之外有文件被创建或改动，就算一次逃逸。阳性对照（在根目录内读取、列出、写入）在每个服务器上
都必须成功。客户端会同意服务器提出的每一次审批，所以这张表衡量的是隔离（containment），不是同意（consent）。
参考实现（以及你的服务器，一旦 workspace/forge/tools/server.ts 存在）没有任何逃逸、且每个对照都通过时，退出状态为 0。
--server <name>  只攻击一个服务器：learner、reference、2025.3.28 或 2026.8.31
--sample         只用实验室测试所用的固定样本，而不是完整的穿越列表
示例：npm run lab -- mcp-attack --server reference`,
    },
  },

  cli: {
    overview: (lines) => `Forge Lab —— 用法：npm run lab -- <command> [options]   （或：forge-lab <command>）

命令：
${lines}

每个命令都支持 --help。${STAGE_NAMES_ZH}`,
    usage: (usage, summary, help) => `用法：npm run lab -- ${usage}\n\n${summary}。\n${help}`,
    notACommand: (name, commands) => `“${name}”不是命令。可用的命令：${commands}`,
    failed: (command, message) => `lab ${command} 失败：${message}`,
    option: (problem, command) => {
      const what =
        problem.kind === "unknown"
          ? `没有 ${problem.option} 这个选项`
          : problem.kind === "needs a value"
            ? `选项 ${problem.option} 需要一个值`
            : `选项 ${problem.option} 不接受值`;
      return `${what}。参见：npm run lab -- ${command} --help`;
    },
    nameAStage: (stages) => `请指定阶段：${stages} 之一（也可以只写编号）`,
    notAStage: (name, stages) => `“${name}”不是阶段。可用的阶段：${stages}（也可以写编号，例如 4）`,
    notAFile: (file, what) => `${file} ${FILE_KINDS_ZH[what]}，不是文件：请把它移开，再重新运行命令。`,
    chooseOneFaultMode: "--list、--open 和 --check 只能选一个",
    faultArguments: (extra) => `fault 只接受一个阶段和最多一个故障 ID；多出了 ${extra}`,
    listTakesNoFault: "--list 会列出该阶段的全部故障，不要再给故障 ID",
    testAllAlone: "--all 针对 workspace/ 运行你开始过的每个阶段：不要再给阶段、--previous 或 --target",
    nothingToTest: "workspace/ 中还没有任何阶段的模块，没有可测试的内容：npm run lab -- status 会告诉你从哪里开始。",
    testing: (stages) => `针对 workspace/ 测试 ${stages}。`,
    oneFolder: "请给出一个目录：class <folder>",
    verifying: (stages) => `正在验证${stages === null ? "每个阶段" : ` ${stages}`}…`,
    newArguments: "请给出阶段编号和 slug：new <NN> <slug>",
    notAStageNumber: (value) => `“${value}”不是阶段编号：请给出 1 到 99`,
    created: (file) => `已创建 ${file}`,
    updated: (file) => `已更新 ${file}`,
    newFaultArguments: "请给出阶段和故障 ID：new-fault <stage> <fault-id>",
    serveArguments: "请给出要提供的目录：serve <root> [--target workspace|solution] [--full-access]",
    serveTarget: (target) => `serve 只运行 workspace 或 solution，不运行 ${target}`,
    serveMissing: (target) =>
      `${target} 树中没有 forge/tools/server：请编写 workspace/forge/tools/server.ts（阶段 12），或使用 serve --target solution`,
    notAServer: (name, servers) => `“${name}”不是 mcp-attack 的服务器。可用的服务器：${servers}`,
    faultDrafted: (draft) => `编辑 ${draft}：做出构成这个故障的那一处改动，然后再次运行这条命令保存它。`,
    faultUnchanged: (draft) => `${draft} 仍与参考实现相同：先做出构成故障的改动，再运行这条命令。`,
    faultSeveral: (draft, hunks) => `${draft} 与参考实现有 ${hunks} 处不同；一个故障只是一处改动：撤销其余的改动，再运行这条命令。`,
    faultSaved: (patch, check) => `已保存 ${patch}。检查它：${check}`,
    newNext: (stage) => `下一步：npm run verify -- ${stage} 会逐项列出还要写的内容。`,
  },

  status: {
    header: [zhTerm("Stage"), `${zhTerm("Workspace")}模块`, `最近的${zhTerm("Evidence")}`, "状态", "下一步"],
    states: {
      "not started": zhTerm("Not started"),
      "copied by start": "由 start 复制",
      "in progress": "进行中",
      failing: "未通过",
      passed: "已通过",
      "changed since passing": "通过后有改动",
    },
    noEvidence: "无",
    unreadableEvidence: "无法读取",
    blocked: (module, what) => `${module} ${FILE_KINDS_ZH[what]}，不是文件：请把它移开，在那里写你的模块`,
    notStarted: (lesson, module) => `先读 ${lesson}，再创建 ${module}`,
    copied: (module) => `${module} 是课程的参考实现，而不是你的代码：请自己实现（npm run lab -- restore 能找回被 start 替换的文件）`,
    rerunUnreadable: (run) => `重新运行 ${run}：上次的证据文件无法读取`,
    run: (run) => `运行 ${run}`,
    passed: `在课程网站的${zhTerm("Self-check")}中载入它的 verification.json（npm start），然后进入下一阶段`,
    changed: (run) => `重新运行 ${run}：通过之后你的代码有改动`,
    create: (module, run) => `创建 ${module}，然后运行 ${run}`,
    unfinished: (run) => `运行 ${run}：上次运行没有跑完全部测试`,
    failing: (count, run, stage) => `修好 ${count} 个未通过的测试或测试文件，然后重新运行 ${run}（提示：npm run lab -- hint ${stage}）`,
    passedCount: (passed, total) => `${total} 个阶段中已通过 ${passed} 个。`,
    artifact: "本次运行的证据是 artifact `forge-lab-evidence`：每个阶段的 `verification.json` 都记录了本次运行的 URL 和提交。",
  },

  hint: {
    none: (stage) => `${stage} 没有有效的 stage.json，因此没有提示。`,
    shown: (nn, slug, index, total, hint) => `阶段 ${nn}（${slug}），第 ${index} 条${zhTerm("Hint")}（共 ${total} 条）：${hint}`,
    allShown: (total, stage) => `${stage} 的 ${total} 条提示都已显示；加 --all 可以再看一遍。`,
    next: (index, total) => `（再运行同一命令会显示第 ${index} 条，共 ${total} 条；加 --all 显示全部。）`,
    last: "（这是最后一条提示。）",
  },

  start: {
    actions: { create: "新建", overwrite: "覆盖", leave: "不变", keep: "保留" },
    yourWork: (stage) => `你为 ${stage} 写的代码`,
    differs: (stage) => `与 ${stage} 的参考实现不同`,
    reference: (stage) => `${stage} 的参考实现`,
    notAFile: (path, what) => `${path} ${FILE_KINDS_ZH[what]}，不是文件：请把它移开，再重新运行命令。未做任何改动。`,
    interrupted: (command, pid, startedAt, backup) =>
      `注意：之前有一条 lab 命令没有完成（“${command}”，进程 ${pid}，开始于 ${startedAt}）。${
        backup ? `它的备份在 .lab/backups/${backup}/：npm run lab -- restore ${backup} 可以撤销它做的改动。` : "它还没有改动任何东西。"
      }`,
    swept: (count, files) => `已删除中断的写入在 workspace/forge/tools/ 中留下的 ${count} 个临时文件：${files}`,
    plan: (stage) => `计划：把 workspace/ 置于 ${stage} 的起点（即它之前各阶段的参考模块）。`,
    nothingToDo: (stage) => `无需改动：workspace/ 已经是 ${stage} 的起点。`,
    ask: (count) => `要替换 ${count} 个内容与参考实现不同的文件吗？会保留备份。`,
    refuse: (files) => `未经同意，拒绝覆盖 ${files}：请加 --yes 重新运行（会保留备份）。`,
    nothingChanged: "未做任何改动。",
    done: (created, overwritten, digest) => `完成：新建 ${created} 个，覆盖 ${overwritten} 个（${zhTerm("Plan digest")} ${digest}）。`,
    backup: (name) => `备份：.lab/backups/${name}/；撤销：npm run lab -- restore ${name}`,
    next: (lesson, stage) => `下一步：阅读 ${lesson}，然后运行 npm test -- stage-${stage}`,
  },

  restore: {
    actions: { "as before": "未变", remove: "删除", recreate: "重建", restore: "恢复" },
    noSuchBackup: (name, known) => `.lab/backups/ 中没有名为“${name}”的备份。${known ? `已有的备份：${known}` : ""}`,
    nothingLeft: "没有可以恢复的备份了：start 没有改动过 workspace/（见 .lab/backups/）。",
    cannotRestore: (backup, reason) => `.lab/backups/${backup}/ 无法恢复：${reason}。`,
    plan: (command, createdAt, backup) => `计划：撤销 ${createdAt} 的“${command}”（.lab/backups/${backup}/）。`,
    changedSince: "  （之后有改动，已存入新备份）",
    badCopy: (path, backup) => `.lab/backups/${backup}/ 中 ${path} 的备份缺失，或与记录的哈希不符；未做任何改动。`,
    nothingToDo: (command) => `无需改动：workspace/ 已经是“${command}”之前的样子。`,
    ask: (count) => `要替换 ${count} 个你之后改过的文件吗？它们会存入一份新备份。`,
    refuse: (files, command) => `${files} 在“${command}”之后有改动，未经同意拒绝替换：请加 --yes 重新运行（它们会存入一份新备份）。`,
    restored: (command) => `已恢复：workspace/ 回到了“${command}”之前的样子。`,
    undo: (backup) => `被替换的内容保存在 .lab/backups/${backup}/；撤销这次 restore：npm run lab -- restore ${backup}`,
  },

  transaction: {
    noManifest: "没有 manifest.json",
    manifestNotJson: "它的 manifest.json 不是 JSON",
    notAManifest: (issue) => `它的 manifest.json 不是备份清单（${issue}）`,
    errors: {
      EROFS: "文件系统是只读的",
      ENOSPC: "磁盘已满",
      EDQUOT: "磁盘配额已用完",
      EACCES: "权限不足",
      EPERM: "操作不被允许（文件可能是只读的，或被其他程序占用）",
    },
    explained: (known, message) => `${known}（${message}）`,
    noFile: "无文件",
    notRegular: "不是普通文件",
    changedSincePlan: (path, before, now) => `${path} 在计划生成之后有改动（${before} → ${now}）`,
    badReadBack: (path) => `${path} 的备份副本读回的内容与写入的不一致`,
    stoppedBefore: (verb, reason) => `${verb} 在改动任何内容之前停止：${reason}。workspace/ 保持原样。`,
    changedWhile: (path, verb, before, now) => `${verb} 运行期间 ${path} 被改动（${before} → ${now}）；已在替换它之前停止`,
    rolledBack: (verb, reason) => `${verb} 失败，workspace/ 已回滚，没有改动：${reason}`,
    failedBeforeAny: (verb, reason) => `${verb} 在改动任何文件之前失败：${reason}。workspace/ 保持原样。`,
    failed: (verb, reason) => `${verb} 失败：${reason}。`,
    rollbackIncomplete: (count) => `回滚没有完成：有 ${count} 个文件与命令执行之前不同：`,
    originalsKept: (backup) => `所有原始文件都保存在 .lab/backups/${backup}/files/ 中；npm run lab -- restore ${backup} 会再试一次。`,
    changedByOthers: (path, original) => `${path} 在本命令写入之后又被别处改动；保持原样（原始文件：${original}）`,
    notPutBack: (path, reason, original) => `${path}：无法恢复：${reason}（原始文件：${original}）`,
    damagedCopy: "它的备份副本缺失或已损坏",
    holdsInstead: (now, before) => `它的内容是 ${now}，而不是 ${before}`,
  },

  lock: {
    busy: (command, pid, since) =>
      `另一条 lab 命令正在改动 workspace/：“${command}”（进程 ${pid}${since ? `，开始于 ${since}` : ""}）。请等它结束后再运行。`,
    contended: "无法取得 .lab/ 中的 lab 锁：其他 lab 命令不断启动。请稍后再试。",
  },

  fault: {
    noSuchFault: (stage, id, faults) => `${stage} 没有名为“${id}”的故障。它的故障：${faults}`,
    noContract: (stage, id, file) => `${stage} 的故障“${id}”没有有效的${zhTerm("Fault contract")}（${file}）。`,
    isDefault: "默认",
    caughtBy: (test) => `由“${test}”发现`,
    contractMissing: (file) => `（故障合同缺失或无效：${file}）`,
    title: (stage, id) => `${zhTerm("Fault lab")} · ${stage} · ${zhTerm("Fault")}“${id}”`,
    contract: zhTerm("Fault contract"),
    labels: {
      faultFile: zhTerm("Fault file"),
      targetTest: zhTerm("Target test"),
      expectedFailure: zhTerm("Expected failure"),
      alsoFailing: zhTerm("Also failing"),
    },
    nothing: "无",
    separator: "；",
    whatFailed: "针对 faulty 树失败的测试",
    didNotLoad: (file, message) => `${file} 未能加载：${message}`,
    othersPassed: (count) => `  （其余 ${count} 个测试通过）`,
    diagnosis: zhTerm("Diagnosis"),
    fixPrinciple: (text) => `${zhTerm("Fix principle")}：${text}`,
    theFix: "故障，即它对参考实现打的补丁（修复就是撤销它）：",
    noPatch: (id, patch) => `故障“${id}”没有补丁：缺少 ${patch}。`,
    reproduced: "故障已复现——这不是修复：指定的测试抓住了注入的故障，与故障合同所写的完全一致。",
    notReproduced: (reasons) =>
      `故障没有复现：${reasons
        .map((reason) =>
          reason.kind === "not by an assertion"
            ? `“${reason.test}”不是因断言而失败`
            : reason.kind === "message"
              ? `它的失败消息不匹配 /${reason.pattern}/`
              : `意外失败：${reason.failure}`,
        )
        .join("；")}`,
    repairInProgress: (file) => `${file} 中有你尚未完成的修复；要从有故障的模块重新开始，请加 --yes 重新运行。`,
    copied: (file) => `已把有故障的模块复制到 ${file}。`,
    repairThen: (args) => `在那里修复它，然后运行：npm run lab -- fault ${args} --check`,
    noRepair: (args) => `还没有可检查的修复：请先运行 npm run lab -- fault ${args} --open。`,
    fixed: (count, stage, file) => `已修复：使用 ${file}，${stage} 的全部 ${count} 个测试都通过了。`,
    notFixed: (count, file) => `未修复：${file} 还有 ${count} 个问题`,
  },

  doctor: {
    node: (version) => `Node.js ${version}`,
    nodeSupported: (range) => `受支持（package.json 的 engines：${range}）`,
    nodeUnsupported: (range, lines) => `package.json 的 engines 要求 ${range}：请安装较新的 Node.js ${lines.join("、")}`,
    dependencies: "依赖",
    installed: "已安装",
    missing: (names) => `缺少 ${names}，请在仓库中运行 npm ci`,
    workspaceWritable: "workspace/ 可写",
    evidenceWritable: "evidence/ 可写",
    yes: "是",
    workspaceNotWritable: "否，请检查该目录的所有者和权限",
    evidenceNotWritable: "否，测试运行无法记录结果；请检查该目录的权限",
    tsconfigPresent: "存在，编辑器会用测试所用的设置检查 workspace/",
    tsconfigMissing: "缺失，而测试要用它对你的代码做类型检查；可以用 git checkout -- workspace/tsconfig.json 找回",
    tsconfigNotAFile: (what) => `${FILE_KINDS_ZH[what]}，不是文件：请把它移开，再用 git checkout -- workspace/tsconfig.json 找回`,
    tsconfigBroken: (reason) => `不是有效的 JSON（${reason}）：编辑器和测试都用不了它；可以用 git checkout -- workspace/tsconfig.json 找回`,
    notAnObject: "它不是一个对象",
    browser: "网站浏览器测试所用的 Chromium",
    noBrowser: (problem) => {
      const install =
        "请安装 Chromium 或 Chrome（Debian/Ubuntu：apt-get install chromium）、运行 npx playwright install chromium，或设置 CHROME_PATH";
      if (problem.kind === "not executable")
        return `${problem.variable} 设为 ${problem.value}，但它不是可执行文件：请改正或取消设置；只有 npm run verify 需要它`;
      const why =
        problem.bundled === "arm64"
          ? "@sparticuz/chromium 的 npm 包只带 x64 版本（它的 arm64 版本需要另行下载）"
          : problem.bundled === "not linux"
            ? "@sparticuz/chromium 只支持 Linux"
            : problem.bundled.failure;
      return `没有找到 Chromium 或 Chrome，而且 ${why}：${install}；只有 npm run verify 需要它`;
    },
    browserFound: (found, version) => `${describeBrowserZh(found)}，版本 ${version}`,
    browserFails: (found, reason) => `找到了 ${describeBrowserZh(found)}，但无法启动：${reason}`,
    finding: (mark, check, detail) => `${MARKS[mark]} ${check}：${detail}`,
    ready: "可以上课了。",
    readyWithWarnings: (count) => `可以上课了，但上面有 ${count} 条警告。`,
    chineseFont: "中文版所用的字体",
    chineseFontFound: (font) => font,
    noChineseFont: (platform) =>
      `没有找到，网站的中文页面会显示成方框：${
        platform === "darwin" || platform === "win32"
          ? "请安装系统的简体中文语言支持"
          : "请安装 Noto Sans CJK（Debian 和 Ubuntu：sudo apt install fonts-noto-cjk；Fedora：sudo dnf install google-noto-sans-cjk-fonts；Arch：sudo pacman -S noto-fonts-cjk）"
      }`,
    chineseFontUnknown: (reason) => `无法判断：${reason}；中文页面需要 Noto Sans CJK SC 这样的字体`,
    problems: (count) => `上课前还有 ${count} 个问题要解决。`,
  },

  export: {
    nameAFormat: (formats) => `请指定格式：${formats.map((format) => `--format ${format}`).join(" 或 ")}`,
    notAFormat: (value, formats) => `“${value}”不是可用的格式：请用 ${formats.join(" 或 ")}`,
    noEvidence: (file, command) => `${file} 还不存在：请先运行 ${command}。`,
    notAFile: (file, what) => `${file} ${FILE_KINDS_ZH[what]}，不是文件。`,
    notJson: (file, reason) => `${file} 不是 JSON（${reason}）：请重新运行测试。`,
    notEvidence: (file, issue) => `${file} 不是证据文件：${issue ?? "无效"}。`,
    invalidCtrf: (stage, problems) => `${stage} 的 CTRF 报告没有通过 ctrf 校验器：${problems}`,
    wrote: (file, format, tests, source) => `已写出 ${file}（${format}，${tests} 个测试，来自 ${source}）`,
  },

  attack: {
    attacking: (server) => `正在攻击 ${server}…`,
    title: (payloads, lines, paths) =>
      `每类用例的逃逸次数 / 尝试次数。每个服务器都在一个新建的临时目录上运行，根目录之外放着机密；路径穿越列表：${
        payloads === "all" ? `全部 ${lines} 行，解码后共 ${paths} 个路径` : `实验室测试所用的样本，${paths} 个路径`
      }，相对路径和绝对路径各试一遍。`,
    caseClass: "用例类别",
    classes: {
      "prefix-sibling": "前缀相同的兄弟目录 <root>_evil（CVE-2025-53110）",
      "suffix-strip": "结尾字符被剥掉的兄弟目录 <root>\" ␠ ' ⇥（GHSA-7rgq-gccq-qphx）",
      symlink: "指向外部的符号链接，指向文件和目录（CVE-2025-53109）",
      "late-symlink": "服务器启动之后才创建的符号链接",
      "swapped-folder": "读过一次之后被换成链接的目录",
      "write-through-symlink": "经由符号链接写入，文件链接和目录链接",
      "case-spelled-symlink": "换了大小写拼写的符号链接",
      "payloads-relative": "PayloadsAllTheThings 路径穿越，相对路径",
      "payloads-absolute": "PayloadsAllTheThings 路径穿越，绝对路径",
    },
    controls: "根目录内的阳性对照（成功次数 / 尝试次数）",
    total: "逃逸总数 / 尝试总数",
    calls: "调用次数，用时",
    callsCell: (calls, seconds) => `${calls} 次，${seconds.toFixed(1)} 秒`,
    notWritten: "尚未编写",
    pending: "待定",
    failed: "失败",
    pendingReasons: {
      "case-sensitive disk":
        "这块磁盘区分大小写：LINK-FILE 不指向任何条目，所以没有可以借大小写混过去的链接；这一行要在不区分大小写的磁盘上运行（macOS、Windows）",
      "names refused": "这块磁盘不允许部分兄弟目录的名字，只攻击了它允许创建的那些",
    },
    pendingLine: (label, reason) => `待定 · ${label}：${reason}。`,
    notWrittenLine: (module) => `learner：${module} 还不存在（阶段 12），所以这一列显示“尚未编写”。`,
    failedLine: (server, error) => `无法攻击 ${server}：${error}`,
    toolsLine: (server, identity, tried, untried, approvals) =>
      `${server}（${identity}）：试过 ${tried}${untried === "" ? "" : `；未试 ${untried}`}；同意了 ${approvals} 次审批。`,
    controlFailed: (server, tool, args, problem) => `对照失败 · ${server} · ${tool} ${args}：${problem}`,
    firstEscapes: "每个服务器在每类用例中最先出现的逃逸：",
    escapeLine: (server, label, tool, args, what) => `  ${server} · ${label}：${tool} ${args} → ${what}`,
    consent:
      "攻击客户端会同意服务器提出的每一次审批（MCP elicitation），用的就是服务器给出的计划摘要：这张表衡量的是隔离（containment），不是同意（consent）。",
    passed: "通过：参考实现（以及你的服务器，如果已经编写）没有任何逃逸，每个阳性对照都成功了。",
    notPassed: "未通过：参考实现或你的服务器有逃逸，或者有阳性对照失败，或者有服务器无法攻击。",
  },

  class: {
    notAFolder: (folder) => `${folder} 不是目录：请给出每名学员各占一个目录或 artifact .zip 的那个目录。`,
    summary: (learners, passed, skipped) => `${learners} 名学员，共通过 ${passed} 个阶段；跳过 ${skipped} 项（详见页面）。`,
    wrote: (file) => `已写出 ${file}`,
  },
};
