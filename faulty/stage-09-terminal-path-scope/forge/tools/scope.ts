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
  "cd",
  "node", "nodejs", "deno", "bun", "python", "python2", "python3", "perl", "ruby", "php", "lua", "awk", "gawk", "sed",
  "sh", "bash", "zsh", "dash", "ksh", "fish", "pwsh", "powershell",
  "env", "xargs", "npx", "pnpx", "bunx", "sudo", "doas", "su", "eval", "exec", "command", "builtin", "source", ".",
  "nohup", "time", "timeout", "nice", "ionice", "watch", "strace", "ssh", "find",
]);

/** Programs whose second word names what they do: the pattern keeps it (`git push`, not `git`). */
const SUBCOMMAND_PROGRAMS = new Set(["git", "npm", "pnpm", "yarn", "cargo", "go", "docker", "kubectl", "gh", "pip", "pip3", "make"]);

/** Subcommands that are wrappers themselves: they run a package, a file or a command they are given. */
const WRAPPER_SUBCOMMANDS = new Set(["npm exec", "npm x", "pnpm exec", "pnpm dlx", "yarn exec", "yarn dlx", "go run", "docker run", "docker exec", "kubectl exec"]);

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

/** A character the approval prompt may not show as it is: controls, line and direction marks. */
function controlCharacter(code: number): string | null {
  if (code === 0) return "a NUL byte";
  if (code === 0x0a || code === 0x0d) return "a newline";
  if (code === 0x09) return null;
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return "a control character";
  if (code === 0x2028 || code === 0x2029 || code === 0x200e || code === 0x200f) return "a control character";
  if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return "a control character";
  return null;
}

/**
 * Splits at `&&`, `||`, `;` and `|` outside quotes. Where it meets syntax it does not understand it
 * records the first problem and carries on, treating that syntax as a break between segments: the
 * segments are then only good enough for the deny check, which may only make the answer stricter.
 */
function split(command: string): Split {
  const segments: Segment[] = [];
  let problem: Problem | null = null;
  const flag = (what: string, at: number): void => {
    problem ??= { what, at };
  };

  let words: string[] = [];
  let word: string[] | null = null;
  let wordStart = 0;
  let segmentStart = 0;
  let operator: Operator | null = null;
  /** The last character added to the word outside quotes; null after quoted text. */
  let lastUnquoted: string | null = null;

  const add = (text: string, quoted: boolean, at: number): void => {
    if (word === null) {
      word = [];
      wordStart = at;
    }
    word.push(text);
    lastUnquoted = quoted ? null : text;
  };
  const endWord = (end: number): void => {
    if (word === null) return;
    if (words.length === 0 && ASSIGNMENT.test(command.slice(wordStart, end))) {
      flag("an environment assignment NAME=value", wordStart);
    }
    words.push(word.join(""));
    word = null;
    lastUnquoted = null;
  };
  const endSegment = (end: number, next: Operator, resume: number): void => {
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
    endSegment(at, ";", at + length);
    return at + length;
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
        let end = index + 1;
        while (end < command.length && command.charAt(end) !== "'") {
          const control = controlCharacter(command.charCodeAt(end));
          if (control) flag(control, end);
          end += 1;
        }
        if (end >= command.length) flag("an unterminated quote", index);
        add(command.slice(index + 1, end), true, index);
        index = end + 1;
        break;
      }
      case '"': {
        const parts: string[] = [];
        let end = index + 1;
        while (end < command.length && command.charAt(end) !== '"') {
          const inner = command.charAt(end);
          const escaped = command.charAt(end + 1);
          if (inner === "\\" && (escaped === "$" || escaped === "`" || escaped === '"' || escaped === "\\")) {
            parts.push(escaped);
            end += 2;
            continue;
          }
          if (inner === "$") flag(expansionAt(command, end), end);
          else if (inner === "`") flag("command substitution with backticks", end);
          else {
            const control = controlCharacter(command.charCodeAt(end));
            if (control) flag(control, end);
          }
          parts.push(inner);
          end += 1;
        }
        if (end >= command.length) flag("an unterminated quote", index);
        add(parts.join(""), true, index);
        index = end + 1;
        break;
      }
      case "\\":
        if (next === "") {
          flag("a trailing backslash", index);
          index += 1;
        } else {
          // A backslash quotes the next character: `\;` is a word, `\*` is no glob.
          const control = controlCharacter(command.charCodeAt(index + 1));
          if (control) flag(control, index + 1);
          add(next, true, index);
          index += 2;
        }
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
      case "$":
        flag(expansionAt(command, index), index);
        add(char, false, index);
        index += 1;
        break;
      case "*":
      case "?":
      case "[":
        // Only the file system knows what a glob expands to, and a name such as `-delete` becomes an option.
        flag("a glob (*, ? or [)", index);
        add(char, false, index);
        index += 1;
        break;
      case "~":
        // Expanded at the start of a word and after an unquoted `=` or `:` (`--dir=~/x`).
        if (word === null || lastUnquoted === "=" || lastUnquoted === ":") flag("tilde expansion ~", index);
        add(char, false, index);
        index += 1;
        break;
      case "#":
        if (word === null) flag("a comment #", index);
        add(char, false, index);
        index += 1;
        break;
      case "!":
        flag("history expansion or negation !", index);
        add(char, false, index);
        index += 1;
        break;
      default: {
        const control = controlCharacter(command.charCodeAt(index));
        if (control === null) {
          add(char, false, index);
          index += 1;
        } else if (control === "a newline") index = breakAt(control, index, 1);
        else {
          flag(control, index);
          index += 1;
        }
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
  return candidate.startsWith(root);
}

function resolveFrom(cwd: string, candidate: string): string {
  return normalizeAbsolute(posix.isAbsolute(candidate) ? candidate : posix.join(cwd, candidate));
}

/**
 * Every word that may name a path: operands, the value after `=` (`--out=x`, `-o=x`, `key=x`), and
 * the value glued to a short option (`-f/etc/passwd`). A glued value starts after the first option
 * letter or at the first character that is not a letter or digit; reading both covers every split,
 * because any other reading differs only in the name of its first folder.
 */
function pathCandidates(args: readonly string[]): string[] {
  const candidates: string[] = [];
  let operandsOnly = false;
  for (const word of args) {
    if (!operandsOnly && word === "--") {
      operandsOnly = true;
      continue;
    }
    const equals = word.indexOf("=");
    if (equals >= 0) candidates.push(word.slice(equals + 1));
    if (operandsOnly || !word.startsWith("-")) {
      candidates.push(word);
    } else if (!word.startsWith("--")) {
      candidates.push(word.slice(2));
      const glued = word.slice(1).search(/[^A-Za-z0-9]/);
      if (glued >= 0) candidates.push(word.slice(glued + 1));
    }
  }
  return candidates.filter((candidate) => candidate !== "");
}

/** An option that writes, runs or reads paths from a file; long options may be abbreviated. */
function refusedOption(rule: VerbRule, args: readonly string[]): string | null {
  for (const word of args) {
    const name = word.split("=", 1)[0] ?? word;
    for (const refused of rule.refuses) {
      if (name === refused) return word;
      if (refused.startsWith("--") && name.startsWith("--") && name.length > 2 && refused.startsWith(name)) return word;
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
    if (word === undefined || word === "" || hasSeparator(word) || !pattern.startsWith(word, position)) return false;
    position += word.length;
    if (position < pattern.length && !isSeparator(pattern.charCodeAt(position))) return false;
  }
}

/** The first pattern in list order that matches, written with single spaces; null when none does. */
function matchPattern(list: readonly string[], words: readonly string[]): string | null {
  const pattern = list.find((candidate) => patternMatches(candidate, words));
  return pattern === undefined ? null : pattern.split(/[ \t]+/).filter((token) => token !== "").join(" ");
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
    return { reason: `${excerpt(segment.text)} asks: ${excerpt(program)} is neither allowed nor a declared read or build verb`, refusedOption: false };
  }
  const args = segment.words.slice(rule.tokens.length);
  const refused = refusedOption(rule, args);
  if (refused !== null) {
    return { reason: `${excerpt(segment.text)} asks: option ${excerpt(refused)} writes files, runs commands or reads paths from a file`, refusedOption: true };
  }
  for (const cwd of folders) {
    if (cwd === null) {
      return { reason: `${excerpt(segment.text)} asks: its working folder cannot be known (a bare "cd" or "cd -" before it)`, refusedOption: false };
    }
    if (!isInside(root, cwd)) {
      return { reason: `${excerpt(segment.text)} asks: it runs in ${excerpt(cwd)}, outside the project root ${root}`, refusedOption: false };
    }
  }
  if (rule.readsPaths) {
    for (const candidate of pathCandidates(args)) {
      for (const cwd of folders) {
        if (cwd !== null && !isInside(root, resolveFrom(cwd, candidate))) {
          return { reason: `${excerpt(segment.text)} asks: path ${excerpt(candidate)} is outside the project root ${root}`, refusedOption: false };
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
      return {
        decision: { action: "deny", reason: `${excerpt(segment.text)} matches the deny pattern ${show(pattern)}`, authorizedBy: null },
        asking: null,
      };
    }
  }
  if (problem) {
    return { decision: asks(`the command cannot be analyzed safely: ${problem.what} at offset ${problem.at}`), asking: null };
  }

  const patterns: string[] = [];
  let byScope = false;
  let states: State[] = [{ cwd, ok: true }];
  for (let start = 0; start < segments.length; ) {
    // A pipeline: the segments joined by `|`. Each of its parts runs in a subshell.
    let end = start + 1;
    while (segments[end]?.operator === "|") end += 1;
    const pipeline = segments.slice(start, end);
    const connector = pipeline[0]?.operator ?? null;
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
      keep({ cwd: state.cwd, ok: false });
    }
    states = [...next.values()];
    if (new Set(states.map((state) => state.cwd)).size > MAX_WORKING_FOLDERS) {
      const reason = `the command cannot be analyzed safely: too many possible working folders (more than ${MAX_WORKING_FOLDERS}) after ${excerpt(pipeline.map((segment) => segment.text).join(" | "))}`;
      return { decision: asks(reason), asking: null };
    }
    start = end;
  }

  const allowed = [...new Set(patterns)];
  const allowedText = allowed.map(show).join(", ");
  if (byScope) {
    const reason = allowed.length > 0 ? `allowed by ${allowedText}; the rest are declared read or build verbs inside the project root ${root}` : `declared read or build verbs inside the project root ${root}`;
    return { decision: { action: "auto_approve", reason, authorizedBy: root }, asking: null };
  }
  if (allowed.length > 0) {
    return { decision: { action: "auto_approve", reason: `allowed by ${allowedText}`, authorizedBy: allowed.join(", ") }, asking: null };
  }
  return { decision: { action: "auto_approve", reason: "it only changes the working folder: cd needs no approval", authorizedBy: null }, asking: null };
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
  token !== undefined && token !== "" && !token.startsWith("-") && !/\s/.test(token);

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
