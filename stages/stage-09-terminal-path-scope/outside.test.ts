import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { alwaysAllowPattern, decide, type CommandRules } from "forge/tools/scope";

// The outside proof: option tricks of the five GTFOBins function classes (shell, command, file read,
// file write, library load), written for this project (fixtures/outside/command-tricks/SOURCE.md).
// Each trick is crossed with every way a shell lets its value be attached and every context it may
// stand in, so the few hundred lines of the fixture become thousands of commands. Every one of them
// runs a program, writes a file, loads code or reads outside the root: none may be auto-approved.
type TrickClass = "shell" | "command" | "file-read" | "file-write" | "library-load";
type Style = "long" | "short" | "word" | "flag" | "at" | "operand" | "revision" | "pathspec";

interface DeclaredTrick {
  readonly verb: string;
  readonly class: TrickClass;
  readonly option: string;
  readonly style: Style;
  /** The key of the values it takes in `values`, or "nothing", or "node-options". */
  readonly takes: string;
  readonly tail?: string;
  /** A letter the verb accepts, to hide the option's letter in a cluster after it (`-if/etc/passwd`). */
  readonly cluster?: string;
}

interface UndeclaredTrick {
  readonly class: TrickClass;
  readonly template: string;
  readonly takes: string;
}

interface Corpus {
  readonly values: Readonly<Record<string, readonly string[]>>;
  readonly declared: readonly DeclaredTrick[];
  readonly undeclared: readonly UndeclaredTrick[];
  readonly cdInPipelines: readonly string[];
  readonly dirs: readonly string[];
  readonly names: readonly string[];
}

const corpus = JSON.parse(readFileSync(new URL("../../fixtures/outside/command-tricks/tricks.json", import.meta.url), "utf8")) as Corpus;

const ROOT = "/data/project-workspaces/shop";
const IN_ROOT = { cwd: ROOT, root: ROOT };
const NO_RULES: CommandRules = { deny: [], allow: [] };
const CLASSES: readonly TrickClass[] = ["shell", "command", "file-read", "file-write", "library-load"];
/** Where a trick may stand: alone, after a cd into the project, after a harmless command, in a pipeline. */
const CONTEXTS = ["", "cd src && ", "ls; ", "cat README.md | "];

function valuesOf(takes: string): readonly string[] {
  if (takes === "nothing") return [""];
  if (takes === "node-options") {
    const modules = corpus.values.module ?? [];
    return modules.flatMap((module) => [`--require=${module}`, `--import=${module}`, `--loader=${module}`, `-r${module}`]);
  }
  const values = corpus.values[takes];
  if (values === undefined) throw new Error(`the corpus has no values "${takes}"`);
  return values;
}

/** `--opt` spelled otherwise: one letter escaped, as `--o\pt` is the same word to the shell. */
const escaped = (option: string) => `${option.slice(0, 2)}\\${option.slice(2)}`;
const unquoted = (value: string) => !value.includes('"') && !value.includes("'");

/** Whether the option is unsafe whatever its value: it runs, writes or loads, where another reads. */
const carriesAnything = (trick: DeclaredTrick) => trick.class !== "file-read";

/**
 * Every way of writing `option` with `value` attached, in a shell's words. A value inside a value
 * (`--node-options=--require=v`, `-o=v`) is a trick for an option that runs, writes or loads whatever
 * it carries; for one that reads, `--file=x=/etc/passwd` names a file inside the root, so those forms
 * are left out of its tricks.
 */
function attachments(trick: DeclaredTrick, value: string): string[] {
  const option = trick.option;
  const nested = carriesAnything(trick);
  switch (trick.style) {
    case "long": {
      const forms = [`${option}=${value}`, `${option} ${value}`, `'${option}'=${value}`, `${escaped(option)}=${value}`];
      if (nested) forms.push(`${option}=x=${value}`, `${option}=x,${value}`, `${option}=x:${value}`, `${option}=@${value}`);
      if (unquoted(value)) forms.push(`${option}="${value}"`, `"${option}=${value}"`);
      // An abbreviation, as git, getopt and npm read an unambiguous prefix of a long option.
      if (option.length > 6) forms.push(`${option.slice(0, -2)}=${value}`);
      return forms;
    }
    case "short": {
      const letter = option.slice(1);
      const forms = [`${option}${value}`, `${option} ${value}`, `'${option}' ${value}`, `-\\${letter} ${value}`];
      if (nested) forms.push(`${option}=${value}`);
      if (trick.cluster) forms.push(`-${trick.cluster}${letter}${value}`, `-${trick.cluster}${letter} ${value}`);
      return forms;
    }
    case "word": {
      const forms = [`${option} ${value}`, `'${option}' ${value}`, `${escaped(option)} ${value}`];
      if (nested) forms.push(`${option}=${value}`);
      // tsc reads its options in any case; find's primaries have one.
      if (trick.verb.startsWith("tsc")) forms.push(`${option.toUpperCase()} ${value}`);
      if (unquoted(value)) forms.push(`"${option}" "${value}"`);
      return forms.map((form) => form.trimEnd());
    }
    case "flag":
      return [option, `'${option}'`, `"${option}"`, escaped(option), ...(option.length > 6 ? [option.slice(0, -1)] : [])];
    case "at":
      return [`@${value}`, `'@${value}'`, `\\@${value}`, ...(unquoted(value) ? [`@"${value}"`] : [])];
    case "operand":
      return value === "" ? [""] : [value, `'${value}'`, `"${value}"`, `-- ${value}`];
    case "revision":
      return [`HEAD:${value}`, `'HEAD:${value}'`, `HEAD~1:${value}`, `main:${value}`];
    case "pathspec":
      return [`-- ${value}`, `-- '${value}'`, `-- src '${value}'`];
  }
}

interface Case {
  readonly command: string;
  readonly class: TrickClass;
  readonly declared: boolean;
}

function declaredCases(): Case[] {
  return corpus.declared.flatMap((trick) =>
    valuesOf(trick.takes).flatMap((value) =>
      attachments(trick, value).flatMap((form) =>
        CONTEXTS.map((context) => ({
          command: `${context}${[trick.verb, form, trick.tail ?? ""].filter((part) => part !== "").join(" ")}`,
          class: trick.class,
          declared: true,
        })),
      ),
    ),
  );
}

function undeclaredCases(): Case[] {
  const fromTemplates = corpus.undeclared.flatMap((trick) =>
    valuesOf(trick.takes).flatMap((value) =>
      CONTEXTS.map((context) => ({ command: `${context}${trick.template.replaceAll("{v}", value)}`, class: trick.class, declared: false })),
    ),
  );
  // A cd inside a pipeline moves the folder in zsh and under bash's lastpipe: a file-read trick.
  const fromPipelines = corpus.cdInPipelines.flatMap((template) =>
    corpus.dirs.flatMap((dir) =>
      corpus.names.flatMap((name) =>
        CONTEXTS.map((context) => ({
          command: `${context}${template.replace("{dir}", dir).replace("{name}", name)}`,
          class: "file-read" as const,
          declared: true,
        })),
      ),
    ),
  );
  return [...fromTemplates, ...fromPipelines];
}

const approved = (cases: readonly Case[]) =>
  cases.filter(({ command }) => decide(command, IN_ROOT, NO_RULES).action === "auto_approve").map(({ command }) => command);

const perClass = (cases: readonly Case[]) =>
  Object.fromEntries(CLASSES.map((name) => [name, cases.filter((one) => one.class === name).length > 0]));

it("gives no auto-approval to GTFOBins-style option tricks on the declared verbs, however the option is attached", () => {
  const cases = declaredCases();
  expect(perClass(cases), "every GTFOBins class has cases").toEqual(Object.fromEntries(CLASSES.map((name) => [name, true])));
  expect(cases.length, "commands generated for the declared verbs").toBeGreaterThan(9_000);
  expect(approved(cases), "tricks auto-approved").toEqual([]);
  // A trick that asked because of its option is never offered as an "always allow" pattern, which
  // would approve the option everywhere. (A read outside the root offers the verb: that is a place.)
  const runners = cases.filter((one) => one.class !== "file-read");
  const offered = runners.filter(({ command }) => alwaysAllowPattern(command, IN_ROOT, NO_RULES) !== null).map(({ command }) => command);
  expect(offered, "always-allow patterns offered for a trick that runs, writes or loads").toEqual([]);
});

it("gives no auto-approval to option tricks of programs that are not declared verbs, or to a cd inside a pipeline", () => {
  const cases = undeclaredCases();
  expect(perClass(cases), "every GTFOBins class has cases").toEqual(Object.fromEntries(CLASSES.map((name) => [name, true])));
  expect(cases.length, "commands generated for other programs").toBeGreaterThan(1_500);
  expect(approved(cases), "tricks auto-approved").toEqual([]);
});

it("approves the same attachment forms for an option on the list with a path inside the root: the corpus can pass", () => {
  // The generator is not vacuous: the very forms that carry the tricks pass when what they carry is harmless.
  const harmless: readonly DeclaredTrick[] = [
    { verb: "grep -r TODO", class: "file-read", option: "--file", style: "long", takes: "inside" },
    // A value glued to a short option is read from the first character that is no letter or digit
    // (`-fsrc/x` as `/x`, which asks): glued values here start with `./`.
    { verb: "grep -r TODO", class: "file-read", option: "-f", style: "short", takes: "dotted", cluster: "i" },
    { verb: "head", class: "file-read", option: "--lines", style: "long", takes: "count" },
    { verb: "find .", class: "file-read", option: "-newer", style: "word", takes: "inside" },
    { verb: "tsc", class: "file-read", option: "--project", style: "word", takes: "inside" },
    { verb: "cat", class: "file-read", option: "", style: "operand", takes: "inside" },
    { verb: "git diff --no-ext-diff --no-textconv HEAD", class: "file-read", option: "", style: "pathspec", takes: "inside" },
    { verb: "git show --no-ext-diff --no-textconv", class: "file-read", option: "", style: "revision", takes: "from-folder" },
    { verb: "git log", class: "file-read", option: "--oneline", style: "flag", takes: "nothing" },
  ];
  const values: Readonly<Record<string, readonly string[]>> = {
    inside: ["src/app.ts", "tsconfig.json", "src/../README.md"],
    dotted: ["./src/app.ts", "./tsconfig.json"],
    count: ["5", "20"],
    "from-folder": ["./src/app.ts", "./README.md"],
    nothing: [""],
  };
  // Abbreviations and case changes are refused on purpose; every other form of the tricks must pass here.
  const refusedOnPurpose = (form: string, option: string) =>
    (option.length > 6 && (form.startsWith(option.slice(0, -2)) || form === option.slice(0, -1)) && !form.startsWith(option)) ||
    (option !== option.toUpperCase() && form.startsWith(option.toUpperCase()));
  const commands = harmless.flatMap((trick) =>
    (values[trick.takes] ?? []).flatMap((value) =>
      attachments(trick, value)
        .filter((form) => !refusedOnPurpose(form, trick.option))
        .flatMap((form) => CONTEXTS.map((context) => `${context}${[trick.verb, form].filter((part) => part !== "").join(" ")}`)),
    ),
  );
  const asked = commands.filter((command) => decide(command, IN_ROOT, NO_RULES).action !== "auto_approve");
  expect(commands.length, "harmless commands generated").toBeGreaterThan(300);
  expect(
    asked.map((command) => `${command} → ${decide(command, IN_ROOT, NO_RULES).reason}`),
    "harmless forms that asked",
  ).toEqual([]);
});
