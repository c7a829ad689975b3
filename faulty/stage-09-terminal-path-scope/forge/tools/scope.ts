// Stage 09: a terminal command is auto-approved when every part of it is either allowed by a rule the
// user wrote, or a declared read or build verb that stays inside the project root. The policy is a
// pure function of the command text, the working folder and the rules: it does no IO, so it compares
// paths lexically and cannot see symlinks. Following links is the job of whatever touches the disk
// (stage 02's resolver for writes), or of isolation.
import { posix } from "node:path";

export type Action = "auto_approve" | "require_approval" | "deny";

/** Token-prefix patterns such as "git push" or "ls": a pattern matches whole words, never parts. */
export interface CommandRules {
  readonly deny: readonly string[];
  readonly allow: readonly string[];
}

/** `authorizedBy`: the root when scope approved, the allow pattern(s) when a rule did, otherwise null. */
export interface Decision {
  readonly action: Action;
  readonly reason: string;
  readonly authorizedBy: string | null;
}

export interface ScopeContext {
  /** The folder the command starts in, as the harness runs it. */
  readonly cwd: string;
  /** The project root: the folder every path must stay inside for scope to approve. */
  readonly root: string;
}

/**
 * More possible working folders than this and the command asks. Each `cd` followed by `;` may or may
 * not have happened, so the number of folders can double with every one of them.
 */
const MAX_WORKING_FOLDERS = 32;

/** How a verb reads `--`: the end of its options, the start of the arguments it passes to the project's test script, or a word like any other. */
type DoubleDash = "ends options" | "passes to the script" | "is an option";

interface VerbRule {
  readonly verb: string;
  readonly tokens: readonly string[];
  /** False for `echo`: its words are printed, never opened, and no option of it does anything else. */
  readonly readsWords: boolean;
  /** Options accepted as whole words, compared before any `=`: `--oneline`, `--lines=5`, `-name`, `-p`. */
  readonly options: ReadonlySet<string>;
  /** Letters accepted after one dash, clustered: "la" accepts `-la`. */
  readonly letters: string;
  /** Letters that take the rest of their word as a value: "n" accepts `-n20` and `-qn20`. */
  readonly valued: string;
  readonly doubleDash: DoubleDash;
  /** `tsc @file` reads options from a file: such a word is an option, and no file of options is on a list. */
  readonly responseFiles: boolean;
  /** Options without which the verb may run a program: all must be given, before any `--`. */
  readonly requires: { readonly options: readonly string[]; readonly because: string } | null;
  /** git reads a revision:path or a pathspec that starts with `:` from the top of the repository. */
  readonly repositoryPaths: boolean;
}

interface VerbSpec {
  readonly readsWords?: boolean;
  /** Space-separated, as the lesson lists them. */
  readonly options?: string;
  readonly letters?: string;
  readonly valued?: string;
  readonly doubleDash?: DoubleDash;
  readonly responseFiles?: boolean;
  readonly requires?: VerbRule["requires"];
  readonly repositoryPaths?: boolean;
}

function verb(name: string, spec: VerbSpec = {}): VerbRule {
  return {
    verb: name,
    tokens: name.split(" "),
    readsWords: spec.readsWords ?? true,
    options: new Set((spec.options ?? "").split(" ").filter((option) => option !== "")),
    letters: spec.letters ?? "",
    valued: spec.valued ?? "",
    doubleDash: spec.doubleDash ?? "ends options",
    responseFiles: spec.responseFiles ?? false,
    requires: spec.requires ?? null,
    repositoryPaths: spec.repositoryPaths ?? false,
  };
}

/** A diff runs `diff.external` and textconv drivers from git's configuration; textconv is on by default. */
const NO_DIFF_PROGRAMS = {
  options: ["--no-ext-diff", "--no-textconv"],
  because: "a diff may run a program named by git's configuration",
};

/** head and tail read the same options; `-5` is `-n 5`. Following a file (`-f`) never ends, so it is not here. */
const HEAD_TAIL = { letters: "qvz0123456789", valued: "nc", options: "--lines --bytes --quiet --silent --verbose --zero-terminated" };

/**
 * The declared verbs, each with the options scope accepts: an allow-list. An option that is not on it
 * asks, whatever it does: the list holds only options that choose what is printed or which of the
 * project's files is read, never one that writes, runs a program, loads code or reads options.
 */
const VERB_RULES: readonly VerbRule[] = [
  verb("cat", { letters: "AbEnsTv", options: "--number --number-nonblank --show-all --show-ends --show-tabs --squeeze-blank" }),
  verb("echo", { readsWords: false }),
  verb("find", {
    options:
      "-name -iname -path -ipath -type -maxdepth -mindepth -newer -mtime -mmin -size -empty -print -print0 -prune -not -and -or -a -o",
    doubleDash: "is an option",
  }),
  verb("grep", {
    letters: "cEFhHilLnoqrRsvwx",
    valued: "ABCefm",
    options:
      "--count --extended-regexp --fixed-strings --ignore-case --files-with-matches --files-without-match --line-number --only-matching --quiet --recursive --no-messages --invert-match --word-regexp --line-regexp --with-filename --no-filename --include --exclude --exclude-dir --max-count --after-context --before-context --context --regexp --file --color",
  }),
  verb("head", HEAD_TAIL),
  verb("ls", { letters: "1aAdFhilnrRSt", options: "--all --almost-all --directory --human-readable --recursive --reverse --sort --color" }),
  verb("pwd", { letters: "LP", options: "--logical --physical" }),
  verb("tail", HEAD_TAIL),
  verb("wc", { letters: "cmlwL", options: "--bytes --chars --lines --words --max-line-length" }),
  verb("git diff", {
    letters: "w",
    valued: "U",
    options:
      "--no-ext-diff --no-textconv --cached --staged --stat --numstat --shortstat --name-only --name-status --no-color --exit-code --quiet --ignore-all-space --unified",
    requires: NO_DIFF_PROGRAMS,
    repositoryPaths: true,
  }),
  verb("git log", {
    letters: "0123456789",
    valued: "n",
    options:
      "--oneline --graph --decorate --all --reverse --no-merges --first-parent --no-color --max-count --since --until --author --grep",
    repositoryPaths: true,
  }),
  verb("git show", {
    letters: "s",
    options: "--no-ext-diff --no-textconv --stat --name-only --name-status --oneline --no-patch --no-color",
    requires: NO_DIFF_PROGRAMS,
    repositoryPaths: true,
  }),
  verb("git status", {
    letters: "sbz",
    valued: "u",
    options: "--short --branch --porcelain --long --untracked-files --ignored",
    repositoryPaths: true,
  }),
  verb("tsc", {
    options:
      "--noEmit --pretty --project -p --listFiles --showConfig --explainFiles --diagnostics --extendedDiagnostics --version -v --help -h",
    doubleDash: "is an option",
    responseFiles: true,
  }),
  verb("npm test", { options: "--silent -s --if-present", doubleDash: "passes to the script" }),
  verb("pnpm test", { doubleDash: "passes to the script" }),
];

/** The declared verbs filed by their first word: `git` leads to its four. */
const VERBS_BY_PROGRAM = new Map<string, VerbRule[]>();
for (const rule of VERB_RULES) VERBS_BY_PROGRAM.set(rule.tokens[0] ?? "", [...(VERBS_BY_PROGRAM.get(rule.tokens[0] ?? "") ?? []), rule]);

/** The read and build verbs scope may auto-approve inside the root. Anything else asks. */
export const SCOPE_VERBS: readonly string[] = Object.freeze(VERB_RULES.map((rule) => rule.verb));

/** Programs that run code or another command given as their arguments: "always allow" is never offered. */
const NEVER_OFFERED = new Set([
  "node",
  "nodejs",
  "deno",
  "bun",
  "python",
  "python2",
  "python3",
  "perl",
  "ruby",
  "php",
  "lua",
  "awk",
  "gawk",
  "sed",
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "fish",
  "pwsh",
  "powershell",
  "env",
  "xargs",
  "npx",
  "pnpx",
  "bunx",
  "sudo",
  "doas",
  "su",
  "eval",
  "exec",
  "command",
  "builtin",
  "source",
  ".",
  "nohup",
  "time",
  "timeout",
  "nice",
  "ionice",
  "watch",
  "strace",
  "ssh",
  "find",
]);

/** Programs whose second word names what they do: the pattern keeps it (`git push`, not `git`). */
const SUBCOMMAND_PROGRAMS = new Set(["git", "npm", "pnpm", "yarn", "cargo", "go", "docker", "kubectl", "gh", "pip", "pip3", "make"]);

/** Subcommands that are wrappers themselves: they run a package, a file or a command they are given. */
const WRAPPER_SUBCOMMANDS = new Set([
  "npm exec",
  "npm x",
  "pnpm exec",
  "pnpm dlx",
  "yarn exec",
  "yarn dlx",
  "go run",
  "docker run",
  "docker exec",
  "kubectl exec",
]);

/** Subcommands that run a named script: the name is part of the pattern (`npm run build`). */
const SCRIPT_SUBCOMMANDS = new Set(["npm run", "npm run-script", "pnpm run", "yarn run"]);

/** `NAME=value` (or `NAME+=value`) before a command sets its environment: `PATH=. ls` runs another ls. */
const ASSIGNMENT = /[A-Za-z_][A-Za-z0-9_]*\+?=/y;

// ---------------------------------------------------------------------------------------------------
// Splitting: an allow-list of syntax. Plain words, quotes and the four operators are understood;
// anything else is recorded as a problem, and one problem makes the whole command ask.

type Operator = "&&" | "||" | ";" | "|";

interface Segment {
  readonly words: readonly string[];
  /** Where the segment stands in the command, for messages (`segmentText`). */
  readonly from: number;
  readonly to: number;
  /** The operator before this segment; null for the first. */
  readonly operator: Operator | null;
}

/** The segment as written, trimmed. Kept as offsets: a command of many segments keeps no copies. */
function segmentText(command: string, segment: Segment): string {
  return command.slice(segment.from, segment.to).trim();
}

interface Problem {
  readonly what: string;
  readonly at: number;
}

interface Split {
  readonly segments: readonly Segment[];
  readonly problem: Problem | null;
}

/** What an unquoted `$` starts, named for the message. */
function expansionAt(command: string, index: number): string {
  switch (command.charAt(index + 1)) {
    case "(":
      return "command substitution $(…)";
    case "{":
      return "parameter expansion ${…}";
    case "'":
      return "ANSI-C quoting $'…'";
    case '"':
      return 'locale quoting $"…"';
    default:
      return "variable expansion $";
  }
}

/**
 * Characters the approval prompt may not show as they are: C0 controls but tab, DEL, C1 controls,
 * zero-width and direction marks, line and paragraph separators, invisible operators, the BOM.
 */
const CONTROL = /[\0-\x08\n-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/;

function controlName(char: string): string {
  if (char === "\0") return "a NUL byte";
  return char === "\n" || char === "\r" ? "a newline" : "a control character";
}

/** A double-quoted string's body: anything but `"` and `\`, or a backslash and the character it escapes. */
const DOUBLE_QUOTED_BODY = /(?:[^"\\]|\\[\s\S])*/y;

/** An unquoted `$` or backtick in a double-quoted body, skipping escaped characters. */
const EXPANSION_IN_QUOTES = /\\[\s\S]|([$`])/g;

/** Characters that are plain wherever they stand in a word: letters, digits and harmless punctuation. */
const PLAIN_RUN = /[A-Za-z0-9_@%+\-./,:=^]+/y;

/** Characters beyond ASCII: plain, but for the invisible ones `CONTROL` names. */
const NON_ASCII_RUN = /[\u0080-\uffff]+/y;

/** Inside double quotes a backslash escapes only these; before anything else it is a backslash. */
const QUOTED_ESCAPE = /\\([$`"\\])/g;

/**
 * Splits at `&&`, `||`, `;` and `|` outside quotes. Where it meets syntax it does not understand it
 * records the problem and carries on, treating that syntax as a break between segments: the segments
 * are then only good enough for the deny check, which can only make the answer stricter.
 */
function split(command: string): Split {
  const segments: Segment[] = [];
  let problem: Problem | null = null;
  /** Keeps the problem that comes first in the command. */
  const flag = (what: string, at: number): void => {
    if (problem === null || at < problem.at) problem = { what, at };
  };
  const flagControl = (text: string, offset: number): void => {
    const found = CONTROL.exec(text);
    if (found) flag(controlName(found[0]), offset + found.index);
  };

  let words: string[] = [];
  /** The word being read (null between words), where it began, and its last character read outside quotes. */
  let word: string | null = null;
  let wordStart = 0;
  let lastUnquoted: string | null = null;
  let segmentStart = 0;
  /** Where the segment's first word began. */
  let programAt = 0;
  let operator: Operator | null = null;

  const add = (text: string, quoted: boolean, at: number): void => {
    if (word === null) {
      word = text;
      wordStart = at;
    } else word += text;
    lastUnquoted = quoted ? null : text.charAt(text.length - 1);
  };
  const endWord = (end: number): void => {
    if (word === null) return;
    if (words.length === 0) {
      programAt = wordStart;
      // Sticky at the word's start; the characters it matches never end a word, so it stays in the word.
      ASSIGNMENT.lastIndex = wordStart;
      if (ASSIGNMENT.test(command)) flag("an environment assignment NAME=value", wordStart);
    }
    words.push(word);
    word = null;
  };
  const push = (to: number, next: Operator | null): void => {
    // zsh, ksh and bash with lastpipe run the last command of a pipeline in the shell itself, and
    // POSIX allows it for any: whether a cd there moves the folder depends on the shell.
    if (words[0] === "cd" && (operator === "|" || next === "|")) flag("a cd inside a pipeline", programAt);
    // An exact copy: the array words grew in has room to spare, and a long command keeps every segment.
    segments.push({ words: words.slice(), from: segmentStart, to, operator });
  };
  const endSegment = (end: number, next: Operator | null, resume: number): void => {
    endWord(end);
    if (words.length === 0) flag("an empty command", end);
    else push(end, next);
    words = [];
    operator = next;
    segmentStart = resume;
  };
  /** Syntax that is not understood: flagged, then read as a break so the deny check still sees words. */
  const breakAt = (what: string, at: number, length: number): number => {
    flag(what, at);
    endSegment(at, null, at + length);
    return at + length;
  };
  /** A problem a character causes inside a word, or null for a plain character. */
  const inWord = (char: string, at: number): string | null => {
    switch (char) {
      case "$":
        return expansionAt(command, at);
      case "*":
      case "?":
      case "[":
        // Only the disk knows what a glob expands to, and a file named `-delete` becomes an option.
        return "a glob (*, ? or [)";
      case "~":
        // Expanded at the start of a word and after an unquoted `=` or `:` (`--dir=~/x`).
        return word === null || lastUnquoted === "=" || lastUnquoted === ":" ? "tilde expansion ~" : null;
      case "#":
        return word === null ? "a comment #" : null;
      case "!":
        return "history expansion or negation !";
      default:
        return CONTROL.test(char) ? controlName(char) : null;
    }
  };

  let index = 0;
  while (index < command.length) {
    const char = command.charAt(index);
    const next = command.charAt(index + 1);
    switch (char) {
      case " ":
      case "\t":
        endWord(index);
        index += 1;
        break;
      case "'": {
        const close = command.indexOf("'", index + 1);
        const end = close === -1 ? command.length : close;
        if (close === -1) flag("an unterminated quote", index);
        const text = command.slice(index + 1, end);
        flagControl(text, index + 1);
        add(text, true, index);
        index = end + 1;
        break;
      }
      case '"': {
        DOUBLE_QUOTED_BODY.lastIndex = index + 1;
        const body = DOUBLE_QUOTED_BODY.exec(command)?.[0] ?? "";
        const end = index + 1 + body.length;
        if (end >= command.length) flag("an unterminated quote", index);
        for (const found of body.matchAll(EXPANSION_IN_QUOTES)) {
          const at = index + 1 + found.index;
          if (found[1] === "$") flag(expansionAt(command, at), at);
          else if (found[1] === "`") flag("command substitution with backticks", at);
        }
        flagControl(body, index + 1);
        add(body.replace(QUOTED_ESCAPE, "$1"), true, index);
        index = end + 1;
        break;
      }
      case "\\":
        // A backslash quotes the next character: `\;` is a word, `\*` is no glob.
        if (next === "") flag("a trailing backslash", index);
        flagControl(next, index + 1);
        add(next, true, index);
        index += 2;
        break;
      case "&":
        if (next === "&") {
          endSegment(index, "&&", index + 2);
          index += 2;
        } else if (next === ">") index = breakAt("a redirection", index, 2);
        else index = breakAt("a background &", index, 1);
        break;
      case "|":
        if (next === "|") {
          endSegment(index, "||", index + 2);
          index += 2;
        } else if (next === "&") index = breakAt("|& (a pipe that redirects standard error)", index, 2);
        else {
          endSegment(index, "|", index + 1);
          index += 1;
        }
        break;
      case ";":
        endSegment(index, ";", index + 1);
        index += 1;
        break;
      case "<":
      case ">":
        if (next === "(") index = breakAt("process substitution", index, 2);
        else if (char === "<" && next === "<") index = breakAt("a here-document <<", index, 2);
        else index = breakAt("a redirection", index, 1);
        break;
      case "(":
      case ")":
        index = breakAt("a subshell ( … )", index, 1);
        break;
      case "{":
      case "}":
        index = breakAt("a brace group or expansion { … }", index, 1);
        break;
      case "`":
        index = breakAt("command substitution with backticks", index, 1);
        break;
      case "\n":
      case "\r":
        index = breakAt("a newline", index, 1);
        break;
      default: {
        // A run of characters that mean nothing to the shell anywhere in a word is read at once.
        PLAIN_RUN.lastIndex = index;
        if (PLAIN_RUN.test(command)) {
          add(command.slice(index, PLAIN_RUN.lastIndex), false, index);
          index = PLAIN_RUN.lastIndex;
          break;
        }
        // So is a run of characters beyond ASCII, once the first control character in it is flagged.
        NON_ASCII_RUN.lastIndex = index;
        if (NON_ASCII_RUN.test(command)) {
          const run = command.slice(index, NON_ASCII_RUN.lastIndex);
          flagControl(run, index);
          add(run, false, index);
          index = NON_ASCII_RUN.lastIndex;
          break;
        }
        const what = inWord(char, index);
        if (what !== null) flag(what, index);
        add(char, false, index);
        index += 1;
      }
    }
  }
  endWord(command.length);
  if (words.length === 0) flag("an empty command", command.length);
  else push(command.length, null);
  return { segments, problem };
}

// ---------------------------------------------------------------------------------------------------
// Paths: lexical, by whole segments.

function show(value: string): string {
  return JSON.stringify(value);
}

/** Text from the command as the messages show it: quoted, and cut when long, so a reason stays readable. */
function excerpt(text: string): string {
  return show(text.length > 80 ? `${text.slice(0, 77)}…` : text);
}

/** `posix.normalize` keeps a trailing slash; a folder is compared without it. */
function normalizeAbsolute(value: string): string {
  const normalized = posix.normalize(value);
  return normalized.length > 1 && normalized.endsWith("/") ? normalized.slice(0, -1) : normalized;
}

/** Containment by whole segments: `/p/app-evil` is not inside `/p/app`, `/p/app/..x` is. */
function isInside(root: string, candidate: string): boolean {
  return candidate.startsWith(root);
}

function resolveFrom(cwd: string, candidate: string): string {
  return normalizeAbsolute(posix.isAbsolute(candidate) ? candidate : posix.join(cwd, candidate));
}

/** A short option and the letters and digits glued to it (`-rf` in `-rf../x`). */
const OPTION_LETTERS = /^-[A-Za-z0-9]*/;

/** What an option glues a path to, inside one word: `--opt=p`, `--opt=a=p`, `a:p`, `a,p`, `"a p"`. */
const PIECE_SEPARATORS = /[\s=:,]/;

/**
 * Every reading of a word that may name a path. The word is cut at each `=`, `:`, `,` and space, and
 * each piece is read as it is, without a leading `@` (`tsc @file`), and without a short option's
 * letters (`-f/etc/passwd`, `-rf../secret`). A piece is at least as strict as any longer reading:
 * joined to what comes before it, it only gains a first folder, whose name holds the separator and
 * so is never `..`. A glued value begins after some option letter, so at the latest at the first
 * character that is not a letter or digit. Readings that are not paths are harmless: they stay inside.
 */
function pathReadings(word: string): string[] {
  const readings: string[] = [];
  for (const piece of word.split(PIECE_SEPARATORS)) {
    readings.push(piece);
    if (piece.startsWith("@")) readings.push(piece.slice(1));
    if (piece.startsWith("-")) readings.push(piece.replace(OPTION_LETTERS, ""));
  }
  return readings;
}

/** An option word: a dash and at least one character after it (`-` alone is standard input). */
const isOptionWord = (word: string): boolean => word.length > 1 && word.startsWith("-");

/** Whether the verb accepts this option word: whole (before any `=`), or as a cluster of its letters. */
function accepts(rule: VerbRule, word: string): boolean {
  const equals = word.indexOf("=");
  if (rule.options.has(equals === -1 ? word : word.slice(0, equals))) return true;
  if (word.startsWith("--")) return false;
  for (let index = 1; index < word.length; index += 1) {
    const letter = word.charAt(index);
    // A letter that takes a value takes the rest of the word with it: `-n20`, `-rf../x`.
    if (rule.valued.includes(letter)) return true;
    if (!rule.letters.includes(letter)) return false;
  }
  return true;
}

/**
 * The first option word the verb does not accept, or null. Every dash word before `--` is an option;
 * so is every `@file` of tsc. After `--` the words are operands, except for npm and pnpm, which pass
 * them to the project's test script: an option there is one only the script knows.
 */
function unlistedOption(rule: VerbRule, args: readonly string[]): string | null {
  let toScript = false;
  for (const word of args) {
    if (toScript) {
      if (isOptionWord(word)) return word;
    } else if (word === "--" && rule.doubleDash !== "is an option") {
      if (rule.doubleDash === "ends options") return null;
      toScript = true;
    } else if ((rule.responseFiles && word.startsWith("@")) || (isOptionWord(word) && !accepts(rule, word))) {
      return word;
    }
  }
  return null;
}

/** Whether an option the verb requires is missing before `--`. */
function lacksRequired(rule: VerbRule, args: readonly string[]): boolean {
  if (rule.requires === null) return false;
  const end = args.indexOf("--");
  const options = new Set(end === -1 ? args : args.slice(0, end));
  return rule.requires.options.some((option) => !options.has(option));
}

/**
 * A git operand that names a path from the top of the repository, or null: a pathspec that starts
 * with `:` (`:/`, `:(top)x`, `:!x`) and a revision:path whose path does not start with `./` or
 * `../` (`HEAD:README.md`). The top may lie above the root; the policy cannot see where it is.
 */
function fromRepositoryTop(rule: VerbRule, args: readonly string[]): string | null {
  if (!rule.repositoryPaths) return null;
  let operands = false;
  for (const word of args) {
    if (!operands && word === "--") operands = true;
    else if (operands || !isOptionWord(word)) {
      const colon = word.indexOf(":");
      const path = word.slice(colon + 1);
      if (colon === 0 || (colon > 0 && !path.startsWith("./") && !path.startsWith("../"))) return word;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------
// Rules.

/** Patterns are words separated by spaces or tabs, as commands are. */
const isSeparator = (code: number): boolean => code === 0x20 || code === 0x09;
const hasSeparator = (word: string): boolean => word.includes(" ") || word.includes("\t");

function describe(value: unknown): string {
  return typeof value === "string" ? show(value) : String(value);
}

function checkPatterns(list: unknown, name: "deny" | "allow"): readonly string[] {
  if (!Array.isArray(list)) throw new Error(`rules.${name} must be a list of patterns, got ${describe(list)}`);
  list.forEach((value: unknown, order) => {
    if (typeof value !== "string" || value.trim() === "") {
      throw new Error(`rules.${name}[${order}]: a pattern is required, got ${describe(value)}`);
    }
    if (value.includes("\0")) throw new Error(`rules.${name}[${order}]: pattern ${show(value)} contains a NUL byte`);
  });
  return list as readonly string[];
}

/**
 * True when the pattern's words are the segment's first words, whole words only: "git log" matches
 * `git log -p`, never `git logout`. Compared in place, without splitting the pattern, so a long list
 * costs one pass and no allocation.
 */
function patternMatches(pattern: string, words: readonly string[]): boolean {
  let position = 0;
  for (let index = 0; ; index += 1) {
    while (position < pattern.length && isSeparator(pattern.charCodeAt(position))) position += 1;
    if (position >= pattern.length) return true;
    const word = words[index];
    // A word with a space in it (quoted) is one word; it cannot stand for two words of a pattern.
    if (word === undefined || hasSeparator(word) || !pattern.startsWith(word, position)) return false;
    position += word.length;
    if (position < pattern.length && !isSeparator(pattern.charCodeAt(position))) return false;
  }
}

/** A pattern's first word, the key it is filed under: patterns are never blank, so there is one. */
const FIRST_WORD = /[^ \t]+/;

function firstWord(pattern: string): string {
  return FIRST_WORD.exec(pattern)?.[0] ?? "";
}

const NONE: readonly never[] = [];

/** Patterns filed by their first word, in list order: a segment is compared only with its own. */
type PatternIndex = ReadonlyMap<string, readonly string[]>;

/**
 * One pass over the list, keeping only the patterns whose first word starts some segment: a command
 * of many segments does not read the list once per segment, and a long list costs no large index.
 */
function indexPatterns(list: readonly string[], segments: readonly Segment[]): PatternIndex {
  const index = new Map<string, string[]>();
  for (const { words } of segments) if (!index.has(words[0] ?? "")) index.set(words[0] ?? "", []);
  for (const pattern of list) index.get(firstWord(pattern))?.push(pattern);
  return index;
}

/** The first pattern in list order that matches, written with single spaces; null when none does. */
function matchPattern(index: PatternIndex, words: readonly string[]): string | null {
  for (const pattern of index.get(words[0] ?? "") ?? NONE) {
    if (patternMatches(pattern, words)) {
      return pattern
        .split(/[ \t]/)
        .filter((token) => token !== "")
        .join(" ");
    }
  }
  return null;
}

/** The declared verb a segment starts with. No verb is a prefix of another, so the first match is the one. */
function matchVerb(words: readonly string[]): VerbRule | null {
  for (const rule of VERBS_BY_PROGRAM.get(words[0] ?? "") ?? NONE) if (patternMatches(rule.verb, words)) return rule;
  return null;
}

// ---------------------------------------------------------------------------------------------------
// Input.

function checkCommand(command: unknown): string {
  if (typeof command !== "string" || command.trim() === "") {
    throw new Error(`a command is required, got ${describe(command)}`);
  }
  return command;
}

function checkFolder(context: unknown, name: "cwd" | "root"): string {
  if (typeof context !== "object" || context === null) {
    throw new Error(`a context { cwd, root } is required, got ${describe(context)}`);
  }
  const value: unknown = (context as Record<string, unknown>)[name];
  if (typeof value !== "string" || value.trim() === "") throw new Error(`context.${name} is required, got ${describe(value)}`);
  if (value.includes("\0")) throw new Error(`context.${name} ${show(value)} contains a NUL byte`);
  if (!posix.isAbsolute(value)) throw new Error(`context.${name} ${show(value)} must be an absolute path`);
  return normalizeAbsolute(value);
}

function checkRules(rules: unknown): { deny: readonly string[]; allow: readonly string[] } {
  if (typeof rules !== "object" || rules === null) {
    throw new Error(`rules { deny, allow } are required, got ${describe(rules)}`);
  }
  const { deny, allow } = rules as Record<string, unknown>;
  return { deny: checkPatterns(deny, "deny"), allow: checkPatterns(allow, "allow") };
}

// ---------------------------------------------------------------------------------------------------
// The decision.

/** A working folder the command may be in; null when it cannot be known (`cd -`, a bare `cd`). */
type Folder = string | null;

/** In one folder the command may be in: may the last pipeline have succeeded there, or failed? */
interface Outcomes {
  ok: boolean;
  failed: boolean;
}

/** `a && b` runs b only where a succeeded, `a || b` only where it failed, `a; b` always. */
function runsAfter(connector: Operator, outcomes: Outcomes): boolean {
  return connector === "&&" ? outcomes.ok : connector === "||" ? outcomes.failed : true;
}

interface Asking {
  readonly segment: Segment;
  readonly reason: string;
  /** Asked because of its options: generalizing would allow them everywhere. */
  readonly refusedOption: boolean;
}

interface Analysis {
  readonly decision: Decision;
  /** The segment that asked, when one did; null for approvals, denials and unanalyzable commands. */
  readonly asking: Asking | null;
}

/** Where a `cd` leads. Anything but one plain operand is a folder that cannot be known. */
function cdTarget(cwd: Folder, words: readonly string[]): Folder {
  const operands = words[1] === "--" ? words.slice(2) : words.slice(1);
  const [target] = operands;
  if (operands.length !== 1 || target === undefined || target === "" || target.startsWith("-")) return null;
  if (posix.isAbsolute(target)) return normalizeAbsolute(target);
  return cwd === null ? null : resolveFrom(cwd, target);
}

/** The root, and what one decision learns about it once instead of once per word. */
interface Scope {
  readonly root: string;
  /** The root less 1, 2, … of its last segments, ending with "/": where a path that climbs out lands. */
  readonly ancestors: readonly string[];
  /** Each folder met so far: how deep below the root it lies, or null when it is not inside. */
  readonly depths: Map<string, number | null>;
}

function scopeOf(root: string): Scope {
  const ancestors: string[] = [];
  for (let end = root.lastIndexOf("/"); end > 0; end = root.lastIndexOf("/", end - 1)) ancestors.push(root.slice(0, end));
  ancestors.push("/");
  return { root, ancestors, depths: new Map() };
}

function depthOf(scope: Scope, folder: string): number | null {
  let depth = scope.depths.get(folder);
  if (depth === undefined) {
    const relative = posix.relative(scope.root, folder);
    depth = !isInside(scope.root, folder) ? null : relative === "" ? 0 : relative.split("/").length;
    scope.depths.set(folder, depth);
  }
  return depth;
}

/** Where a pipeline runs: a folder that cannot be known, one outside the root, or the depths of all of them. */
type Placement =
  | { readonly kind: "unknown" }
  | { readonly kind: "outside"; readonly folder: string }
  | { readonly kind: "inside"; readonly depths: readonly number[] };

function placeOf(scope: Scope, folders: readonly Folder[]): Placement {
  const depths = new Set<number>();
  for (const folder of folders) {
    if (folder === null) return { kind: "unknown" };
    const depth = depthOf(scope, folder);
    if (depth === null) return { kind: "outside", folder };
    depths.add(depth);
  }
  return { kind: "inside", depths: [...depths].sort((a, b) => a - b) };
}

/**
 * A relative path folded in one pass: how many `..` it climbs, and the names it then goes down.
 * (`posix.normalize` takes time quadratic in a long run of leading `..`: 100 000 of them, half a minute.)
 */
function fold(relative: string): { readonly climbs: number; readonly down: readonly string[] } {
  let climbs = 0;
  const down: string[] = [];
  for (const segment of relative.split("/")) {
    if (segment === ".." && down.length === 0) climbs += 1;
    else if (segment === "..") down.pop();
    else if (segment !== "" && segment !== ".") down.push(segment);
  }
  return { climbs, down };
}

/**
 * Whether a path, read from folders at these depths below the root (ascending), leaves it. From a
 * folder at least as deep as the path climbs it stays inside, whatever names follow; from a shallower
 * one it climbs out of the root and is inside only if its names lead back down into it. So one path
 * costs its length, not its length times the folders.
 */
function leaves(scope: Scope, depths: readonly number[], candidate: string): boolean {
  if (posix.isAbsolute(candidate)) return !isInside(scope.root, normalizeAbsolute(candidate));
  // Without a `..` a relative path only goes down from a folder inside the root.
  if (!candidate.includes("..")) return false;
  const { climbs, down } = fold(candidate);
  for (const depth of depths) {
    if (climbs <= depth) return false;
    const above = scope.ancestors[climbs - depth - 1] ?? "/";
    if (!isInside(scope.root, posix.join(above, down.join("/")))) return true;
  }
  return false;
}

/** Why a segment that no rule allowed is not approved by scope, or null when scope approves it. */
function asked(command: string, segment: Segment, why: string, refusedOption = false): Omit<Asking, "segment"> {
  return { reason: `${excerpt(segmentText(command, segment))} asks: ${why}`, refusedOption };
}

function outOfScope(command: string, segment: Segment, placement: Placement, scope: Scope): Omit<Asking, "segment"> | null {
  const rule = matchVerb(segment.words);
  if (rule === null)
    return asked(command, segment, `${excerpt(segment.words[0] ?? "")} is neither allowed nor a declared read or build verb`);
  const args = segment.words.slice(rule.tokens.length);
  if (rule.readsWords) {
    const option = unlistedOption(rule, args);
    if (option !== null) return asked(command, segment, `option ${excerpt(option)} is not on the allow-list of ${show(rule.verb)}`, true);
    if (rule.requires !== null && lacksRequired(rule, args)) {
      return asked(command, segment, `without ${rule.requires.options.join(" and ")}, ${rule.requires.because}`, true);
    }
  }
  if (placement.kind === "unknown") return asked(command, segment, 'its working folder cannot be known (a bare "cd" or "cd -" before it)');
  if (placement.kind === "outside")
    return asked(command, segment, `it runs in ${excerpt(placement.folder)}, outside the project root ${scope.root}`);
  if (!rule.readsWords) return null;
  const top = fromRepositoryTop(rule, args);
  if (top !== null)
    return asked(command, segment, `${excerpt(top)} is read from the top of the repository, which may lie above the project root`);
  for (const word of args) {
    for (const reading of pathReadings(word)) {
      if (leaves(scope, placement.depths, reading))
        return asked(command, segment, `path ${excerpt(reading)} is outside the project root ${scope.root}`);
    }
  }
  return null;
}

function asks(reason: string): Decision {
  return { action: "require_approval", reason, authorizedBy: null };
}

function analyze(command: unknown, context: unknown, rules: unknown): Analysis {
  const text = checkCommand(command);
  const cwd = checkFolder(context, "cwd");
  const root = checkFolder(context, "root");
  const { deny, allow } = checkRules(rules);
  const { segments, problem } = split(text);

  // Deny first, even over a command that cannot be analyzed: it can only make the answer stricter.
  const denied = indexPatterns(deny, segments);
  for (const segment of segments) {
    const pattern = matchPattern(denied, segment.words);
    if (pattern) {
      const reason = `${excerpt(segmentText(text, segment))} matches the deny pattern ${show(pattern)}`;
      return { decision: { action: "deny", reason, authorizedBy: null }, asking: null };
    }
  }
  if (problem) {
    return { decision: asks(`the command cannot be analyzed safely: ${problem.what} at offset ${problem.at}`), asking: null };
  }

  const allowed = indexPatterns(allow, segments);
  const scope = scopeOf(root);
  const patterns: string[] = [];
  let byScope = false;
  let states = new Map<Folder, Outcomes>([[cwd, { ok: true, failed: false }]]);
  /** While the states stay as they are: where a pipeline after each connector runs, and after which one a pipeline changes nothing. */
  const placements = new Map<Operator, Placement>();
  const quiet = new Set<Operator>();
  for (let start = 0, end = 0; start < segments.length; start = end) {
    // A pipeline: the segments joined by `|`, and the `&&`, `||` or `;` before them (`;` for the first).
    for (end = start + 1; segments[end]?.operator === "|"; ) end += 1;
    const pipeline = segments.slice(start, end);
    // Every pipeline may succeed or fail, so both outcomes exist after the first one: it never runs nowhere.
    const key = pipeline[0]?.operator ?? ";";
    let placement = placements.get(key);
    if (placement === undefined) {
      placement = placeOf(
        scope,
        [...states].filter(([, outcomes]) => runsAfter(key, outcomes)).map(([folder]) => folder),
      );
      placements.set(key, placement);
    }

    for (const segment of pipeline) {
      if (segment.words[0] === "cd") continue; // cd needs no approval: it only moves the working folder.
      const pattern = matchPattern(allowed, segment.words);
      if (pattern) {
        patterns.push(pattern);
        continue;
      }
      const refusal = outOfScope(text, segment, placement, scope);
      if (refusal) return { decision: asks(refusal.reason), asking: { segment, ...refusal } };
      byScope = true;
    }

    // A cd moves the folder where it succeeds. It is a pipeline of its own: inside one it asked above.
    const first = pipeline[0];
    if (first?.words[0] !== "cd") {
      // Every folder stays; where the pipeline ran it may have succeeded or failed. Outcomes are only
      // ever added, so after one pipeline a second after the same connector changes nothing: a long
      // chain of commands costs one pass over the states, and its placements are reused.
      if (!quiet.has(key)) {
        let changed = false;
        for (const outcomes of states.values()) {
          if (runsAfter(key, outcomes) && !(outcomes.ok && outcomes.failed)) {
            outcomes.ok = true;
            outcomes.failed = true;
            changed = true;
          }
        }
        if (changed) {
          placements.clear();
          quiet.clear();
        }
        quiet.add(key);
      }
      continue;
    }
    const next = new Map<Folder, Outcomes>();
    const add = (folder: Folder, ok: boolean) => {
      const outcomes = next.get(folder) ?? { ok: false, failed: false };
      if (ok) outcomes.ok = true;
      else outcomes.failed = true;
      next.set(folder, outcomes);
    };
    for (const [folder, outcomes] of states) {
      // What did not run stays as it was: the failures after `&&`, the successes after `||`.
      if (key === "&&" && outcomes.failed) add(folder, false);
      if (key === "||" && outcomes.ok) add(folder, true);
      if (runsAfter(key, outcomes)) {
        add(cdTarget(folder, first.words), true);
        add(folder, false); // A cd may fail like any command, and the shell then stays where it was.
      }
    }
    states = next;
    placements.clear();
    quiet.clear();
    if (states.size > MAX_WORKING_FOLDERS) {
      const what = `too many possible working folders (more than ${MAX_WORKING_FOLDERS}) after ${excerpt(segmentText(text, first))}`;
      return { decision: asks(`the command cannot be analyzed safely: ${what}`), asking: null };
    }
  }

  const approved = [...new Set(patterns)];
  const approvedText = approved.map(show).join(", ");
  if (byScope) {
    const inRoot = `declared read or build verbs inside the project root ${root}`;
    const reason = approved.length > 0 ? `allowed by ${approvedText}; the rest are ${inRoot}` : inRoot;
    return { decision: { action: "auto_approve", reason, authorizedBy: root }, asking: null };
  }
  if (approved.length > 0) {
    const decision: Decision = { action: "auto_approve", reason: `allowed by ${approvedText}`, authorizedBy: approved.join(", ") };
    return { decision, asking: null };
  }
  const reason = "it only changes the working folder: cd needs no approval";
  return { decision: { action: "auto_approve", reason, authorizedBy: null }, asking: null };
}

/**
 * Decides a terminal command, first match wins per segment: deny (any segment → the whole command is
 * denied), then allow patterns, then scope (a declared verb whose working folder and path arguments
 * all stay inside the root), otherwise require_approval. Throws "required" for a missing command,
 * context or pattern, "absolute" for a relative folder and "NUL" for a NUL byte in one.
 */
export function decide(command: string, context: ScopeContext, rules: CommandRules): Decision {
  return analyze(command, context, rules).decision;
}

/** A token that can be stored in a pattern and read back as the same token. */
const isPlainToken = (token: string | undefined): token is string =>
  token !== undefined && token !== "" && !token.startsWith("-") && !hasSeparator(token);

/**
 * What "always allow" should store for a command that asked: the token prefix of the segment that
 * asked (its program, and the subcommand for programs that have them), never the literal command.
 * Null when nothing asked, and when no safe prefix exists: interpreters and wrappers, a program given
 * by path, a subcommand that cannot be told, an option that writes or runs, a command that cannot be
 * analyzed.
 */
export function alwaysAllowPattern(command: string, context: ScopeContext, rules: CommandRules): string | null {
  const { asking } = analyze(command, context, rules);
  if (asking === null || asking.refusedOption) return null;
  const [program, subcommand, script] = asking.segment.words;
  if (!isPlainToken(program) || program.includes("/") || NEVER_OFFERED.has(program)) return null;
  if (!SUBCOMMAND_PROGRAMS.has(program)) return program;
  if (!isPlainToken(subcommand)) return null;
  const prefix = `${program} ${subcommand}`;
  if (WRAPPER_SUBCOMMANDS.has(prefix)) return null;
  if (!SCRIPT_SUBCOMMANDS.has(prefix)) return prefix;
  return isPlainToken(script) ? `${prefix} ${script}` : null;
}
