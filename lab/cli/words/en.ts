// Every word the lab CLI shows, in English: help, results, errors, prompts, the status table, hints,
// the fault demonstration, doctor. The Chinese table beside it is typed by this one, so neither can lack
// a message; a message with values is a function of them. What is data stays as it is in both: paths,
// commands, test names, fault ids, JSON values, code.
import type { BrowserProblem, FoundBrowser } from "../../core/browser.js";
import type { NotAFile } from "../../core/files.js";
import type { Locale } from "../../core/locale.js";
import type { CaseClass, PendingReason } from "../../attack/suite.js";
import type { FindingMark, NotReproduced, OptionProblem, WorkspaceState } from "../vocabulary.js";

type Five = readonly [string, string, string, string, string];

export const MARKS: Readonly<Record<FindingMark, string>> = { ok: "✔", warning: "⚠", problem: "✘" };

const STAGE_NAMES_EN = "A stage can be named 4, 04, stage-04 or stage-04-approval-gate.";

export const CLI_WORDS = {
  locale: "en" as Locale,
  /** A list of names in running text. */
  list: (items: readonly string[]) => items.join(", "),

  /** The `--help` of each command, and what the overview lists. */
  commands: {
    status: {
      summary: "every stage: your module, your last evidence, its state and the next step",
      help: `Reads workspace/ and evidence/ only; changes nothing. --markdown prints the same states as a Markdown
table, the job summary of the course's GitHub Actions workflow.`,
    },
    start: {
      summary: "put workspace/ at a stage's starting point (the reference of the stages before it)",
      help: `Prints the plan first: each file to create, overwrite or leave, with content hashes. A file whose
content differs from the reference is overwritten only with your consent: --yes, or a yes on the
terminal; with neither it refuses and exits 1. Every replaced file is saved under .lab/backups/ first,
every write is atomic, and if any step fails everything is rolled back. Undo with: restore.
It uses the course's own reference modules: plan → approval bound to the plan digest → atomic writes
→ rollback. ${STAGE_NAMES_EN}
Example: npm run lab -- start 4`,
    },
    restore: {
      summary: "undo a start: replaced files come back byte for byte, created ones are removed",
      help: `Without a backup name, undoes the latest start not yet restored; a name from .lab/backups/ undoes that
command (a start, or a restore). A file you changed since is replaced only with your consent (--yes, or a
yes on the terminal), and everything restore replaces is first saved in a new backup, so a restore can
itself be undone: it prints the command that does it.
Example: npm run lab -- restore`,
    },
    fault: {
      summary: "the fault lab: reproduce one of a stage's injected faults, list them, or open and check your repair",
      help: `Without options (the instructor demo): runs the stage's tests against the tree of one of its faults
(the stage's default fault unless a fault id is given) and prints the contract, what failed and with
which message, the diagnosis steps, the fix principle and the fault's patch of the reference, which
the fix undoes. Exits 0 only when the fault is reproduced exactly — which is not a fix.
--list   lists the stage's faults, one line each, the default first
--open   copies the faulty module into faultlab/stage-NN-<slug>/ (faultlab/stage-NN-<slug>/<fault-id>/
         for a fault other than the default) for you to repair
--check  runs the stage's tests with your repaired copy and says fixed (exit 0) or not fixed (exit 1)
${STAGE_NAMES_EN}
Example: npm run lab -- fault 5 --list, then npm run lab -- fault 5 <fault-id>`,
    },
    hint: {
      summary: "the next graded hint of a stage (remembered), or all of them",
      help: `Each call shows one more hint, from a nudge to nearly the answer. ${STAGE_NAMES_EN}
Example: npm run lab -- hint 2`,
    },
    test: {
      summary: "run a stage's tests, as npm test does; --previous adds the earlier stages; --all every stage you started",
      help: `Runs once unless --watch. --previous also runs every earlier stage's tests, so a change that breaks
an earlier stage shows at once. --target picks the tree (workspace, your code, is the default).
--all runs the tests of every stage whose module exists in workspace/, against your code: what the
course's GitHub Actions workflow runs on every push. ${STAGE_NAMES_EN}
Examples: npm run lab -- test 5 --previous
          npm run lab -- test 4 --target solution
          npm run lab -- test --all`,
    },
    export: {
      summary: "convert a stage's verification.json to CTRF or JUnit XML, the formats CI dashboards read",
      help: `Reads the stage's evidence (your own run unless --target names another tree) and writes it as CTRF
JSON (checked with the ctrf package's validator) or JUnit XML, beside the evidence unless --out names
the file (--out - prints it). Every test keeps its name, status, duration and failure message; a test
file that did not load becomes a failed entry named after its file. ${STAGE_NAMES_EN}
Example: npm run lab -- export 4 --format junit`,
    },
    class: {
      summary: "for instructors: a class report (HTML and CSV) from many learners' evidence folders or artifact zips",
      help: `<folder> holds one entry per learner: a folder (their evidence/, or an artifact unpacked) or the
artifact .zip downloaded from their forge-lab workflow run (gh run download, or the run's page). Writes
class-report.html (learners × stages, each cell the course site's self-check verdict, CI runs marked,
sortable, works opened from disk) and class-report.csv into <folder>, or into --out. Nothing is
extracted: zip entries are read in memory, and every file is size-checked before it is read.
Example: npm run lab -- class ~/classes/spring`,
    },
    verify: {
      summary: "the project's own proof, as npm run verify, with progress stage by stage",
      help: "Runs every stage against its solution, faulty and start trees, the lab's and the site's tests and the type-check.",
    },
    doctor: {
      summary: "check this machine before a class: Node, dependencies, write access, the editor's settings, Chromium",
      help: `Changes nothing except a probe file it creates and removes in workspace/ and evidence/. Says which
browser the site's tests will use, and starts it once: CHROME_PATH, then Chromium or Chrome on PATH or
in its usual folder, then Playwright's browsers, then (Linux x64) the one @sparticuz/chromium ships.`,
    },
    new: {
      summary: "for course authors: scaffold a new stage, every file in place, each piece to write marked",
      help: `Creates stages/stage-NN-<slug>/ (README with the twelve sections and their generated blocks,
stage.json, a first test file), the reference module's stub, a placeholder fault patch and its contract, all valid
against their schemas, then runs npm run generate. Each piece still to write says PLACEHOLDER; npm run
verify lists every one of them until the stage is complete. The module defaults to the slug's last word.
Example: npm run lab -- new 12 sandbox-profile --module profile`,
    },
    "new-fault": {
      summary: "for course authors: write a fault as a one-change patch of the stage's reference, in two runs",
      help: `The first run puts a draft of the stage's module in .lab/fault-drafts/ (the fault's current version
when it has one, else the reference) and scaffolds the contract of a new fault. Edit the draft: make the
one change that is the fault. The second run saves the draft as faulty/<stage>/<fault-id>.patch when it
differs from the reference in exactly one place. Then: npm run lab -- fault <stage> <fault-id>.
Example: npm run lab -- new-fault 5 short-write`,
    },
    serve: {
      summary: "serve your stage 12 server (or the reference) to an MCP client over stdio, on a folder you name",
      help: `Start it from the client's configuration as: node lab/bin/forge-lab.mjs serve <root>. Only JSON-RPC goes
to stdout; the audit goes to stderr, one JSON line per call. The root is the folder the tools may touch, and
only this argument sets it. --target solution serves the reference instead of workspace/. Commands are refused
unless --full-access is given: then run_command runs what stage 09 approves or a person accepts, natively,
with no sandbox.`,
    },
    "mcp-attack": {
      summary: "attack four MCP servers (yours, the reference, two official filesystem releases) and count what escapes the root",
      help: `Starts each server over stdio on a fresh temporary folder with secrets outside its root, drives it with the
official SDK client, and tries every case class with every read tool the server lists and with write_file:
the prefix sibling <root>_evil, the four suffix-strip siblings, symlinks out (made before and after the server
started), a folder swapped for a link, writes through links, a link spelled in another case, and the
PayloadsAllTheThings traversal lists, relative and absolute. An escape is outside content or an outside-only
name in any answer, or a file created or changed outside the root. Positive controls (reads, lists and writes
inside the root) must succeed on every server. The client accepts every approval a server asks for, so the
table measures containment, not consent. Exits 0 when the reference (and your server, once
workspace/forge/tools/server.ts exists) lets nothing escape and every control passed.
--server <name>  attacks one server: learner, reference, 2025.3.28 or 2026.8.31
--sample         the fixed sample of the traversal lists the lab's tests use, instead of all of them
Example: npm run lab -- mcp-attack --server reference`,
    },
  },

  cli: {
    overview: (lines: string) => `Forge Lab — usage: npm run lab -- <command> [options]   (or: forge-lab <command>)

Commands:
${lines}

Every command has --help. ${STAGE_NAMES_EN}`,
    usage: (usage: string, summary: string, help: string) => `Usage: npm run lab -- ${usage}\n\n${summary}.\n${help}`,
    notACommand: (name: string, commands: string) => `"${name}" is not a command. Commands: ${commands}`,
    failed: (command: string, message: string) => `lab ${command} failed: ${message}`,
    option: (problem: OptionProblem, command: string) =>
      `${
        problem.kind === "unknown"
          ? `Unknown option '${problem.option}'`
          : problem.kind === "needs a value"
            ? `Option '${problem.option}' needs a value`
            : `Option '${problem.option}' takes no value`
      }. See: npm run lab -- ${command} --help`,
    nameAStage: (stages: string) => `name a stage: one of ${stages} (or just its number)`,
    notAStage: (name: string, stages: string) => `"${name}" is not a stage. Stages: ${stages} (a number such as 4 works too)`,
    notAFile: (file: string, what: NotAFile) => `${file} is ${what}, not a file: move it out of the way and run the command again.`,
    chooseOneFaultMode: "choose one of --list, --open and --check",
    faultArguments: (extra: string) => `fault takes a stage and at most one fault id; got ${extra}`,
    listTakesNoFault: "--list lists every fault of the stage; give no fault id",
    testAllAlone: "--all runs every stage you started, against workspace/: give it no stage, --previous or --target",
    nothingToTest: "No stage has its module in workspace/ yet, so there is nothing to test: npm run lab -- status says where to start.",
    testing: (stages: string) => `Testing ${stages} against workspace/.`,
    oneFolder: "give one folder: class <folder>",
    verifying: (stages: string | null) => `Verifying ${stages ?? "every stage"}…`,
    newArguments: "give a stage number and a slug: new <NN> <slug>",
    notAStageNumber: (value: string) => `"${value}" is not a stage number: give 1 to 99`,
    created: (file: string) => `created ${file}`,
    updated: (file: string) => `updated ${file}`,
    newNext: (stage: string) => `Next: npm run verify -- ${stage} lists what to write, piece by piece.`,
    newFaultArguments: "give a stage and a fault id: new-fault <stage> <fault-id>",
    serveArguments: "give the folder to serve: serve <root> [--target workspace|solution] [--full-access]",
    serveTarget: (target: string) => `serve runs workspace or solution, not ${target}`,
    serveMissing: (target: string) =>
      `forge/tools/server is not in the ${target} tree: write workspace/forge/tools/server.ts (stage 12), or serve --target solution`,
    notAServer: (name: string, servers: string) => `"${name}" is not a server of mcp-attack. Servers: ${servers}`,
    faultDrafted: (draft: string) => `Edit ${draft}: make the one change that is the fault, then run this command again to save it.`,
    faultUnchanged: (draft: string) => `${draft} is still the reference: make the change that is the fault, then run this command again.`,
    faultSeveral: (draft: string, hunks: number) =>
      `${draft} differs from the reference in ${hunks} places; a fault is one change: undo the others, then run this command again.`,
    faultSaved: (patch: string, check: string) => `Saved ${patch}. Check it: ${check}`,
  },

  status: {
    header: ["stage", "workspace module", "last evidence", "state", "next step"] as Five,
    states: {
      "not started": "not started",
      "copied by start": "copied by start",
      "in progress": "in progress",
      failing: "failing",
      passed: "passed",
      "changed since passing": "changed since passing",
    } satisfies Record<WorkspaceState, string>,
    noEvidence: "none",
    unreadableEvidence: "unreadable",
    blocked: (module: string, what: NotAFile) => `${module} is ${what}, not a file: move it away and write the module there`,
    notStarted: (lesson: string, module: string) => `read ${lesson}, then create ${module}`,
    copied: (module: string) =>
      `${module} is the course's reference, not your work: write your own (npm run lab -- restore brings back a file start replaced)`,
    rerunUnreadable: (run: string) => `rerun ${run}: the last evidence file cannot be read`,
    run: (run: string) => `run ${run}`,
    passed: "load its verification.json in the course site's self-check (npm start), then go on",
    changed: (run: string) => `rerun ${run}: your code changed since it passed`,
    create: (module: string, run: string) => `create ${module}, then run ${run}`,
    unfinished: (run: string) => `run ${run}: the last run did not finish every test`,
    failing: (count: number, run: string, stage: string) =>
      `fix the ${count} failing test(s) or test file(s), then rerun ${run} (hints: npm run lab -- hint ${stage})`,
    passedCount: (passed: number, total: number) => `${passed} of ${total} stages passed.`,
    artifact:
      "The evidence of this run is the artifact `forge-lab-evidence`: each stage's `verification.json` records this run's URL and commit.",
  },

  hint: {
    none: (stage: string) => `${stage} has no valid stage.json, so no hints.`,
    /** Which stage the hint is for, whatever was typed, and which of how many it is. */
    shown: (nn: string, slug: string, index: number, total: number, hint: string) =>
      `Stage ${nn} (${slug}), hint ${index} of ${total}: ${hint}`,
    allShown: (total: number, stage: string) => `All ${total} hints of ${stage} are shown; see them again with --all.`,
    next: (index: number, total: number) => `(The same command shows hint ${index} of ${total} next; --all shows every one.)`,
    last: "(That was the last hint.)",
  },

  start: {
    actions: { create: "create", overwrite: "overwrite", leave: "leave", keep: "keep" },
    yourWork: (stage: string) => `your work for ${stage}`,
    differs: (stage: string) => `differs from the reference of ${stage}`,
    reference: (stage: string) => `reference of ${stage}`,
    notAFile: (path: string, what: NotAFile) =>
      `${path} is ${what}, not a file: move it out of the way and run the command again. Nothing was changed.`,
    interrupted: (command: string, pid: number, startedAt: string, backup: string | null) =>
      `Note: an earlier lab command did not finish ("${command}", process ${pid}, ${startedAt}).${
        backup
          ? ` Its backup is .lab/backups/${backup}/: npm run lab -- restore ${backup} undoes what it did.`
          : " It had not changed anything yet."
      }`,
    swept: (count: number, files: string) =>
      `Removed ${count} temporary file(s) an interrupted write left in workspace/forge/tools/: ${files}`,
    plan: (stage: string) => `Plan: put workspace/ at the starting point of ${stage} (the reference modules of the stages before it).`,
    nothingToDo: (stage: string) => `Nothing to do: workspace/ already holds the starting point of ${stage}.`,
    ask: (count: number) => `Replace ${count} file(s) whose content differs from the reference? A backup is kept.`,
    refuse: (files: string) => `Refusing to overwrite ${files} without consent: rerun with --yes (a backup is kept).`,
    nothingChanged: "Nothing was changed.",
    done: (created: number, overwritten: number, digest: string) =>
      `Done: ${created} created, ${overwritten} overwritten (plan digest ${digest}).`,
    backup: (name: string) => `Backup: .lab/backups/${name}/ — undo with: npm run lab -- restore ${name}`,
    next: (lesson: string, stage: string) => `Next: read ${lesson} and run npm test -- stage-${stage}`,
  },

  restore: {
    actions: { "as before": "as before", remove: "remove", recreate: "recreate", restore: "restore" },
    noSuchBackup: (name: string, known: string | null) => `No backup named "${name}" in .lab/backups/.${known ? ` Backups: ${known}` : ""}`,
    nothingLeft: "There is no backup left to restore: start has not changed workspace/ (see .lab/backups/).",
    cannotRestore: (backup: string, reason: string) => `.lab/backups/${backup}/ cannot be restored: ${reason}.`,
    plan: (command: string, createdAt: string, backup: string) => `Plan: undo "${command}" from ${createdAt} (.lab/backups/${backup}/).`,
    changedSince: "  (changed since, kept in the new backup)",
    badCopy: (path: string, backup: string) =>
      `The backup of ${path} in .lab/backups/${backup}/ is missing or does not match its recorded hash; nothing was changed.`,
    nothingToDo: (command: string) => `Nothing to do: workspace/ is already as it was before "${command}".`,
    ask: (count: number) => `Replace ${count} file(s) you changed since? They are kept in a new backup.`,
    refuse: (files: string, command: string) =>
      `Refusing to replace ${files}, changed since "${command}", without consent: rerun with --yes (they are kept in a new backup).`,
    restored: (command: string) => `Restored: workspace/ is as it was before "${command}".`,
    undo: (backup: string) =>
      `What this replaced is kept in .lab/backups/${backup}/ — undo this restore with: npm run lab -- restore ${backup}`,
  },

  /** The backup-first transaction under start and restore (lab/cli/transaction.ts). */
  transaction: {
    noManifest: "it has no manifest.json",
    manifestNotJson: "its manifest.json is not JSON",
    notAManifest: (issue: string) => `its manifest.json is not a backup manifest (${issue})`,
    errors: {
      EROFS: "the file system is read-only",
      ENOSPC: "the disk is full",
      EDQUOT: "the disk quota is used up",
      EACCES: "permission denied",
      EPERM: "the operation is not permitted (a file may be read-only or held by another program)",
    },
    explained: (known: string, message: string) => `${known} (${message})`,
    noFile: "no file",
    notRegular: "not a regular file",
    changedSincePlan: (path: string, before: string, now: string) => `${path} changed since the plan was made (${before} → ${now})`,
    badReadBack: (path: string) => `the backup copy of ${path} does not read back as written`,
    stoppedBefore: (verb: string, reason: string) => `${verb} stopped before changing anything: ${reason}. workspace/ is as it was.`,
    changedWhile: (path: string, verb: string, before: string, now: string) =>
      `${path} changed while ${verb} ran (${before} → ${now}); stopped before replacing it`,
    rolledBack: (verb: string, reason: string) => `${verb} failed and workspace/ was rolled back, unchanged: ${reason}`,
    failedBeforeAny: (verb: string, reason: string) => `${verb} failed before changing any file: ${reason}. workspace/ is as it was.`,
    failed: (verb: string, reason: string) => `${verb} failed: ${reason}.`,
    rollbackIncomplete: (count: number) => `The rollback did not complete: ${count} file(s) differ from before the command:`,
    originalsKept: (backup: string) =>
      `Every original is kept in .lab/backups/${backup}/files/; npm run lab -- restore ${backup} tries again.`,
    changedByOthers: (path: string, original: string) =>
      `${path} was changed by someone else after this command wrote it; left as it is (original: ${original})`,
    notPutBack: (path: string, reason: string, original: string) => `${path}: could not be put back: ${reason} (original: ${original})`,
    damagedCopy: "its backup copy is missing or damaged",
    holdsInstead: (now: string, before: string) => `it holds ${now} instead of ${before}`,
  },

  lock: {
    busy: (command: string, pid: number, since: string | null) =>
      `Another lab command is changing workspace/: "${command}" (process ${pid}${since ? `, since ${since}` : ""}). Wait for it to finish, then run this again.`,
    contended: "Could not take the lab's lock in .lab/: other lab commands keep starting. Try again in a moment.",
  },

  fault: {
    noSuchFault: (stage: string, id: string | undefined, faults: string) => `${stage} has no fault "${id}". Its faults: ${faults}`,
    noContract: (stage: string, id: string, file: string) => `${stage} has no valid contract for fault "${id}" (${file}).`,
    isDefault: "default",
    caughtBy: (test: string) => `caught by "${test}"`,
    contractMissing: (file: string) => `(contract missing or invalid: ${file})`,
    title: (stage: string, id: string) => `Fault lab · ${stage} · fault "${id}"`,
    contract: "Contract",
    labels: { faultFile: "fault file", targetTest: "target test", expectedFailure: "expected failure", alsoFailing: "also failing" },
    nothing: "none",
    separator: "; ",
    whatFailed: "What failed against the faulty tree",
    didNotLoad: (file: string, message: string) => `${file} did not load: ${message}`,
    othersPassed: (count: number) => `  (${count} other tests passed)`,
    diagnosis: "Diagnosis, in order",
    fixPrinciple: (text: string) => `Fix principle: ${text}`,
    theFix: "The fault, as its patch of the reference (the fix undoes it):",
    noPatch: (id: string, patch: string) => `fault "${id}" has no patch: ${patch} is missing.`,
    reproduced: "fault reproduced — this is not a fix: the named test caught the injected fault, exactly as the contract says.",
    notReproduced: (reasons: readonly NotReproduced[]) =>
      `fault NOT reproduced: ${reasons
        .map((reason) =>
          reason.kind === "not by an assertion"
            ? `"${reason.test}" did not fail by an assertion`
            : reason.kind === "message"
              ? `its message does not match /${reason.pattern}/`
              : `unexpected: ${reason.failure}`,
        )
        .join("; ")}`,
    repairInProgress: (file: string) => `${file} holds your repair in progress; rerun with --yes to start over from the faulty module.`,
    copied: (file: string) => `Copied the faulty module to ${file}.`,
    repairThen: (args: string) => `Repair it there, then run: npm run lab -- fault ${args} --check`,
    noRepair: (args: string) => `There is no repair to check: run npm run lab -- fault ${args} --open first.`,
    fixed: (count: number, stage: string, file: string) => `fixed: all ${count} tests of ${stage} pass with ${file}.`,
    notFixed: (count: number, file: string) => `not fixed: ${count} problem(s) with ${file}`,
  },

  doctor: {
    node: (version: string) => `Node.js ${version}`,
    nodeSupported: (range: string) => `supported (package.json engines: ${range})`,
    nodeUnsupported: (range: string, lines: readonly number[]) =>
      `package.json engines asks for ${range}: install a current Node.js ${lines.length > 1 ? `${lines.slice(0, -1).join(", ")} or ${lines.at(-1)}` : lines.join("")}`,
    dependencies: "dependencies",
    installed: "installed",
    missing: (names: string) => `missing ${names}: run npm ci in the repository`,
    workspaceWritable: "workspace/ is writable",
    evidenceWritable: "evidence/ is writable",
    yes: "yes",
    workspaceNotWritable: "no: check the folder's owner and permissions",
    evidenceNotWritable: "no: test runs cannot record their results; check the folder's permissions",
    tsconfigPresent: "present: your editor checks workspace/ with the settings the tests use",
    tsconfigMissing: "missing: the tests type-check your code with it; bring it back with git checkout -- workspace/tsconfig.json",
    tsconfigNotAFile: (what: NotAFile) =>
      `${what}, not a file: move it away and bring the file back with git checkout -- workspace/tsconfig.json`,
    tsconfigBroken: (reason: string) =>
      `not valid JSON (${reason}): your editor and the tests cannot use it; bring it back with git checkout -- workspace/tsconfig.json`,
    notAnObject: "it is not an object",
    browser: "Chromium for the site's browser tests",
    // lab/core/browser.ts words what it finds in English for the site's tests too: said here as it is.
    noBrowser: (_problem: BrowserProblem, reason: string) => `${reason}; only npm run verify needs it`,
    browserFound: (found: FoundBrowser, version: string) => `${found.description}, version ${version}`,
    browserFails: (found: FoundBrowser, reason: string) => `${found.description} was found but does not start: ${reason}`,
    finding: (mark: FindingMark, check: string, detail: string) => `${MARKS[mark]} ${check}: ${detail}`,
    ready: "Ready for class.",
    readyWithWarnings: (count: number) => `Ready for class, with ${count} warning(s) above.`,
    chineseFont: "a font for the Chinese edition",
    chineseFontFound: (font: string) => font,
    noChineseFont: (platform: NodeJS.Platform) =>
      `none found, so the Chinese pages of the site show boxes: ${
        platform === "darwin" || platform === "win32"
          ? "install the system's Chinese (Simplified) language support"
          : "install Noto Sans CJK (Debian and Ubuntu: sudo apt install fonts-noto-cjk; Fedora: sudo dnf install google-noto-sans-cjk-fonts; Arch: sudo pacman -S noto-fonts-cjk)"
      }`,
    chineseFontUnknown: (reason: string) => `cannot tell: ${reason}; the Chinese pages need a font such as Noto Sans CJK SC`,
    problems: (count: number) => `${count} problem(s) to fix before class.`,
  },

  export: {
    nameAFormat: (formats: readonly string[]) => `name a format: --format ${formats.join(" or --format ")}`,
    notAFormat: (value: string, formats: readonly string[]) => `"${value}" is not a format: use ${formats.join(" or ")}`,
    noEvidence: (file: string, command: string) => `${file} does not exist yet: run ${command} first.`,
    notAFile: (file: string, what: NotAFile) => `${file} is ${what}, not a file.`,
    notJson: (file: string, reason: string) => `${file} is not JSON (${reason}): rerun the tests.`,
    notEvidence: (file: string, issue: string | null) => `${file} is not a verification file: ${issue ?? "invalid"}.`,
    invalidCtrf: (stage: string, problems: string) => `the CTRF report of ${stage} does not pass the ctrf validator: ${problems}`,
    wrote: (file: string, format: string, tests: number, source: string) => `wrote ${file} (${format}, ${tests} tests, from ${source})`,
  },

  /** `mcp-attack`: the table of escapes per case class and server. */
  attack: {
    attacking: (server: string) => `attacking ${server}…`,
    title: (payloads: "all" | "sample", lines: number, paths: number) =>
      `Escapes / attempts per case class. Each server runs on a fresh temporary folder with secrets outside its root; the traversal lists: ${
        payloads === "all" ? `all ${lines} lines, ${paths} paths once decoded` : `the lab's tests' sample, ${paths} paths`
      }, each relative and absolute.`,
    caseClass: "case class",
    classes: {
      "prefix-sibling": "prefix sibling <root>_evil (CVE-2025-53110)",
      "suffix-strip": "suffix-strip siblings <root>\" ␠ ' ⇥ (GHSA-7rgq-gccq-qphx)",
      symlink: "symlink out, to a file and a folder (CVE-2025-53109)",
      "late-symlink": "symlink made after the server started",
      "swapped-folder": "folder swapped for a link after a first read",
      "write-through-symlink": "write through a symlink, file and folder",
      "case-spelled-symlink": "symlink spelled in another letter case",
      "payloads-relative": "PayloadsAllTheThings traversals, relative",
      "payloads-absolute": "PayloadsAllTheThings traversals, absolute",
    } satisfies Record<CaseClass, string>,
    controls: "positive controls inside the root (successes / attempts)",
    total: "total escapes / attempts",
    calls: "calls made, seconds",
    callsCell: (calls: number, seconds: number) => `${calls} in ${seconds.toFixed(1)} s`,
    notWritten: "not written",
    pending: "pending",
    failed: "failed",
    pendingReasons: {
      "case-sensitive disk":
        "this disk is case-sensitive: LINK-FILE names no entry, so there is no case-folded link to follow; the row runs on a case-insensitive disk (macOS, Windows)",
      "names refused": "this disk refuses some of the siblings' names, so only those it allowed were attacked",
    } satisfies Record<PendingReason, string>,
    pendingLine: (label: string, reason: string) => `pending · ${label}: ${reason}.`,
    notWrittenLine: (module: string) => `learner: ${module} does not exist yet (stage 12), so its column says not written.`,
    failedLine: (server: string, error: string) => `${server} could not be attacked: ${error}`,
    toolsLine: (server: string, identity: string, tried: string, untried: string, approvals: number) =>
      `${server} (${identity}): tried ${tried}${untried === "" ? "" : `; left alone ${untried}`}; approvals accepted: ${approvals}.`,
    controlFailed: (server: string, tool: string, args: string, problem: string) =>
      `CONTROL FAILED · ${server} · ${tool} ${args}: ${problem}`,
    firstEscapes: "The first escapes of each class, per server:",
    escapeLine: (server: string, label: string, tool: string, args: string, what: string) =>
      `  ${server} · ${label}: ${tool} ${args} → ${what}`,
    consent:
      "The attack client accepts every approval a server asks for (MCP elicitation), with the plan digest it is offered: this table measures containment, not consent.",
    passed: "Passed: the reference (and your server, if written) let nothing escape, and every positive control succeeded.",
    notPassed:
      "Not passed: the reference or your server let something escape, a positive control failed, or a server could not be attacked.",
  },

  class: {
    notAFolder: (folder: string) => `${folder} is not a folder: give the folder that holds one folder or artifact .zip per learner.`,
    summary: (learners: number, passed: number, skipped: number) =>
      `${learners} learners, ${passed} stage(s) passed in all; ${skipped} thing(s) skipped (listed in the page).`,
    wrote: (file: string) => `wrote ${file}`,
  },
};

export type CliWords = typeof CLI_WORDS;
