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

interface VerbRule {
  readonly verb: string;
  readonly tokens: readonly string[];
  /** False for a verb whose arguments are text, not paths (`echo`). */
  readonly readsPaths: boolean;
  /** Options that write files, run commands or read a list of paths from a file. */
  readonly refuses: readonly string[];
}

function verb(name: string, options: { readsPaths?: boolean; refuses?: readonly string[] } = {}): VerbRule {
  return { verb: name, tokens: name.split(" "), readsPaths: options.readsPaths ?? true, refuses: options.refuses ?? [] };
}

/** `git diff --output=f` writes f; `--ext-diff` runs a configured program. Git accepts abbreviations. */
const GIT_WRITES = ["--output", "--ext-diff"];

/** find's actions that delete, write or run commands, and its file-driven start points. */
const FIND_ACTIONS = ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls", "-files0-from"];

const VERB_RULES: readonly VerbRule[] = [
  verb("cat"),
  verb("echo", { readsPaths: false }),
  verb("find", { refuses: FIND_ACTIONS }),
  verb("grep"),
  verb("head"),
  verb("ls"),
  verb("pwd"),
  verb("tail"),
  verb("wc", { refuses: ["--files0-from"] }),
  verb("git diff", { refuses: GIT_WRITES }),
  verb("git log", { refuses: GIT_WRITES }),
  verb("git show", { refuses: GIT_WRITES }),
  verb("git status"),
  verb("tsc"),
  verb("npm test"),
  verb("pnpm test"),
];

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
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

// ---------------------------------------------------------------------------------------------------
// Splitting: an allow-list of syntax. Plain words, quotes and the four operators are understood;
// anything else is recorded as a problem, and one problem makes the whole command ask.

type Operator = "&&" | "||" | ";" | "|";

interface Segment {
  readonly words: readonly string[];
  /** The segment as written, for messages. */
  readonly text: string;
  /** The operator before this segment; null for the first. */
  readonly operator: Operator | null;
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
  /** The word being read: its parts, where it began, and its last character read outside quotes. */
  let word: { parts: string[]; start: number; lastUnquoted: string | null } | null = null;
  let segmentStart = 0;
  let operator: Operator | null = null;

  const add = (text: string, quoted: boolean, at: number): void => {
    word ??= { parts: [], start: at, lastUnquoted: null };
    word.parts.push(text);
    word.lastUnquoted = quoted ? null : text;
  };
  const endWord = (end: number): void => {
    if (word === null) return;
    if (words.length === 0 && ASSIGNMENT.test(command.slice(word.start, end))) {
      flag("an environment assignment NAME=value", word.start);
    }
    words.push(word.parts.join(""));
    word = null;
  };
  const endSegment = (end: number, next: Operator | null, resume: number): void => {
    endWord(end);
    if (words.length === 0) flag("an empty command", end);
    else segments.push({ words, text: command.slice(segmentStart, end).trim(), operator });
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
        return word === null || word.lastUnquoted === "=" || word.lastUnquoted === ":" ? "tilde expansion ~" : null;
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
        const what = inWord(char, index);
        if (what !== null) flag(what, index);
        add(char, false, index);
        index += 1;
      }
    }
  }
  endWord(command.length);
  if (words.length === 0) flag("an empty command", command.length);
  else segments.push({ words, text: command.slice(segmentStart).trim(), operator });
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
  const relative = posix.relative(root, candidate);
  return relative === "" || (relative !== ".." && !relative.startsWith("../") && !posix.isAbsolute(relative));
}

function resolveFrom(cwd: string, candidate: string): string {
  return normalizeAbsolute(posix.isAbsolute(candidate) ? candidate : posix.join(cwd, candidate));
}

/** A short option and the letters and digits glued to it (`-rf` in `-rf../x`). */
const OPTION_LETTERS = /^-[A-Za-z0-9]*/;

/**
 * Every reading of a word that may name a path: the word itself, the value after `=` (`--out=x`,
 * `key=x`), and the value glued to a short option (`-f/etc/passwd`). A glued value begins after some
 * option letter, so at the latest at the first character that is not a letter or digit; reading it
 * from there is as strict as any other split, since an earlier start only lengthens the name of its
 * first folder. Readings that are not paths are harmless: they stay inside the working folder.
 */
function pathCandidates(args: readonly string[]): string[] {
  return args.flatMap((word) => [word, word.slice(word.indexOf("=") + 1), word.replace(OPTION_LETTERS, "")]);
}

/** An option that writes, runs or reads paths from a file; long options may be abbreviated. */
function refusedOption(rule: VerbRule, args: readonly string[]): string | null {
  for (const word of args) {
    const name = word.split("=", 1)[0] ?? word;
    for (const refused of rule.refuses) {
      // `--outp` is `--output` to git and to getopt: a long option may be abbreviated.
      if (name === refused || (name.startsWith("--") && name.length > 2 && refused.startsWith(name))) return word;
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

/** The first pattern in list order that matches, written with single spaces; null when none does. */
function matchPattern(list: readonly string[], words: readonly string[]): string | null {
  const pattern = list.find((candidate) => patternMatches(candidate, words));
  return pattern === undefined
    ? null
    : pattern
        .split(/[ \t]/)
        .filter((token) => token !== "")
        .join(" ");
}

/** The declared verb a segment starts with. No verb is a prefix of another, so the first match is the one. */
function matchVerb(words: readonly string[]): VerbRule | null {
  return VERB_RULES.find((rule) => patternMatches(rule.verb, words)) ?? null;
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

interface State {
  readonly cwd: Folder;
  /** Did the last pipeline succeed? `&&` and `||` run the next one on that. */
  readonly ok: boolean;
}

/** Segments joined by `|`: each runs in a subshell, and `&&`, `||` or `;` (the connector) comes before. */
interface Pipeline {
  readonly connector: Operator | null;
  readonly segments: Segment[];
}

function pipelines(segments: readonly Segment[]): Pipeline[] {
  const groups: Pipeline[] = [];
  for (const segment of segments) {
    const last = groups.at(-1);
    if (segment.operator === "|" && last) last.segments.push(segment);
    else groups.push({ connector: segment.operator, segments: [segment] });
  }
  return groups;
}

interface Asking {
  readonly segment: Segment;
  readonly reason: string;
  /** Asked because of an option that writes or runs: generalizing would allow that option everywhere. */
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

/** Why a segment that no rule allowed is not approved by scope, or null when scope approves it. */
function outOfScope(segment: Segment, folders: readonly Folder[], root: string): Omit<Asking, "segment"> | null {
  const rule = matchVerb(segment.words);
  const [program = ""] = segment.words;
  if (rule === null) {
    const reason = `${excerpt(segment.text)} asks: ${excerpt(program)} is neither allowed nor a declared read or build verb`;
    return { reason, refusedOption: false };
  }
  const args = segment.words.slice(rule.tokens.length);
  const refused = refusedOption(rule, args);
  if (refused !== null) {
    const what = "writes files, runs commands or reads paths from a file";
    const reason = `${excerpt(segment.text)} asks: option ${excerpt(refused)} ${what}`;
    return { reason, refusedOption: true };
  }
  for (const cwd of folders) {
    if (cwd === null) {
      const reason = `${excerpt(segment.text)} asks: its working folder cannot be known (a bare "cd" or "cd -" before it)`;
      return { reason, refusedOption: false };
    }
    if (!isInside(root, cwd)) {
      const reason = `${excerpt(segment.text)} asks: it runs in ${excerpt(cwd)}, outside the project root ${root}`;
      return { reason, refusedOption: false };
    }
  }
  if (rule.readsPaths) {
    for (const candidate of pathCandidates(args)) {
      for (const cwd of folders) {
        if (cwd !== null && !isInside(root, resolveFrom(cwd, candidate))) {
          const reason = `${excerpt(segment.text)} asks: path ${excerpt(candidate)} is outside the project root ${root}`;
          return { reason, refusedOption: false };
        }
      }
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
  for (const segment of segments) {
    const pattern = matchPattern(deny, segment.words);
    if (pattern) {
      const reason = `${excerpt(segment.text)} matches the deny pattern ${show(pattern)}`;
      return { decision: { action: "deny", reason, authorizedBy: null }, asking: null };
    }
  }
  if (problem) {
    return { decision: asks(`the command cannot be analyzed safely: ${problem.what} at offset ${problem.at}`), asking: null };
  }

  const patterns: string[] = [];
  let byScope = false;
  let states: State[] = [{ cwd, ok: true }];
  for (const { connector, segments: pipeline } of pipelines(segments)) {
    // `a && b` runs b only where a succeeded, `a || b` only where it failed, `a; b` always. Every
    // pipeline may succeed or fail, so both kinds of state exist after the first one: never empty.
    const runs = states.filter((state) => (connector === "&&" ? state.ok : connector === "||" ? !state.ok : true));
    const skipped = states.filter((state) => !runs.includes(state));
    const folders = [...new Set(runs.map((state) => state.cwd))];

    for (const segment of pipeline) {
      if (segment.words[0] === "cd") continue; // cd needs no approval: it only moves the working folder.
      const pattern = matchPattern(allow, segment.words);
      if (pattern) {
        patterns.push(pattern);
        continue;
      }
      const refusal = outOfScope(segment, folders, root);
      if (refusal) return { decision: asks(refusal.reason), asking: { segment, ...refusal } };
      byScope = true;
    }

    // A cd moves the folder only when it is a pipeline on its own, and only if it succeeds.
    const [only] = pipeline;
    const cd = pipeline.length === 1 && only?.words[0] === "cd" ? only : null;
    const next = new Map<string, State>();
    const keep = (state: State) => next.set(`${state.ok ? 1 : 0}${state.cwd ?? ""}`, state);
    skipped.forEach(keep);
    for (const state of runs) {
      keep({ cwd: cd ? cdTarget(state.cwd, cd.words) : state.cwd, ok: true });
      if (!cd) keep({ cwd: state.cwd, ok: false });
    }
    states = [...next.values()];
    if (new Set(states.map((state) => state.cwd)).size > MAX_WORKING_FOLDERS) {
      const after = excerpt(pipeline.map((segment) => segment.text).join(" | "));
      const what = `too many possible working folders (more than ${MAX_WORKING_FOLDERS}) after ${after}`;
      const reason = `the command cannot be analyzed safely: ${what}`;
      return { decision: asks(reason), asking: null };
    }
  }

  const allowed = [...new Set(patterns)];
  const allowedText = allowed.map(show).join(", ");
  if (byScope) {
    const inRoot = `declared read or build verbs inside the project root ${root}`;
    const reason = allowed.length > 0 ? `allowed by ${allowedText}; the rest are ${inRoot}` : inRoot;
    return { decision: { action: "auto_approve", reason, authorizedBy: root }, asking: null };
  }
  if (allowed.length > 0) {
    const decision: Decision = { action: "auto_approve", reason: `allowed by ${allowedText}`, authorizedBy: allowed.join(", ") };
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
