// The messages a stage's tests expect, and whether its lesson shows each one. A learner on the challenge
// path has only the lesson: a reason string or an error message that a test compares letter by letter,
// and that the lesson never writes down, can be learned only by reading the test. So verify reads the
// tests' syntax (TypeScript's parser; nothing is run) for the strings they compare messages with, and
// looks for each one in the lesson's inline code, where `…` stands for any text.
import ts from "typescript-5";

/** A string a test compares a message with: all of it (`whole`), or a part it must contain (`part`). */
export interface ExpectedMessage {
  readonly text: string;
  readonly kind: "whole" | "part";
  readonly line: number;
}

/** Where a template literal has a value, the message has variable text: written `…`, as lessons write it. */
const VARIABLE = "…";

function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((span) => VARIABLE + span.literal.text).join("");
  return null;
}

// Calls that judge a refusal by a word it contains (lab/outcome.ts, vitest's toThrow), and the argument
// that holds the word.
const WORD_ARGUMENT: Readonly<Record<string, number>> = { refused: 0, outcome: 1, settled: 1, toThrow: 0, toThrowError: 0 };
const EQUALITY = new Set(["toBe", "toEqual", "toStrictEqual", "toMatchObject"]);
// An `expect(subject)` whose subject names one of these is about messages, so every string its matcher
// compares with is one: `expect(reasons(commands)).toEqual({ "ls": "…" })`, `expect(error.message).toBe(…)`.
const MESSAGE_SUBJECT = /\b(?:reasons?|messages?|said|why|refusals?|problems)\b/i;
// Object properties that hold a message wherever a test writes them.
const MESSAGE_PROPERTY = new Set(["reason", "message"]);

/** The messages a test file's source compares with, in the order they appear. */
export function expectedMessages(source: string, fileName: string): ExpectedMessage[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: ExpectedMessage[] = [];
  const add = (node: ts.Node, kind: ExpectedMessage["kind"]) => {
    const text = literalText(node);
    if (text === null || text.replaceAll(VARIABLE, "").trim() === "") return;
    // One word is a word a message contains (`"shell"`, `"ok"`), not a message of its own.
    const word = !/\s/.test(text.trim());
    found.push({ text, kind: word ? "part" : kind, line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1 });
  };
  const comparedValues = (node: ts.Node): void => {
    if (literalText(node) !== null) add(node, "whole");
    else if (ts.isObjectLiteralExpression(node)) {
      for (const property of node.properties) if (ts.isPropertyAssignment(property)) comparedValues(property.initializer);
    } else if (ts.isArrayLiteralExpression(node)) for (const element of node.elements) comparedValues(element);
    else if (ts.isCallExpression(node)) {
      // `expect.stringContaining("is relative")` asks for a part; `stringMatching` for a pattern, not a text.
      const name = ts.isPropertyAccessExpression(node.expression) ? node.expression.name.text : "";
      if (name === "stringContaining" && node.arguments[0]) add(node.arguments[0], "part");
      else if (name !== "stringMatching") for (const argument of node.arguments) comparedValues(argument);
    }
  };
  // `expect({ reason: why(a), started })` compares field by field: only the fields whose own
  // expression is about messages hold messages.
  const comparedMessages = (subject: ts.Expression, compared: ts.Expression): void => {
    if (ts.isObjectLiteralExpression(subject) && ts.isObjectLiteralExpression(compared)) {
      const fields = new Map<string, ts.Node>();
      for (const property of subject.properties) {
        if (ts.isPropertyAssignment(property)) fields.set(property.name.getText(file), property.initializer);
        else if (ts.isShorthandPropertyAssignment(property)) fields.set(property.name.text, property.name);
      }
      for (const property of compared.properties) {
        if (!ts.isPropertyAssignment(property)) continue;
        const field = fields.get(property.name.getText(file));
        if (field && MESSAGE_SUBJECT.test(field.getText(file))) comparedValues(property.initializer);
      }
    } else if (MESSAGE_SUBJECT.test(subject.getText(file))) comparedValues(compared);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : "";
      const wordAt = Object.hasOwn(WORD_ARGUMENT, name) ? WORD_ARGUMENT[name] : undefined;
      const word = wordAt === undefined ? undefined : node.arguments[wordAt];
      if (word) add(word, "part");
      const compared = node.arguments[0];
      if (EQUALITY.has(name) && ts.isPropertyAccessExpression(callee) && compared) {
        let expectation: ts.Expression = callee.expression;
        while (ts.isPropertyAccessExpression(expectation)) expectation = expectation.expression;
        const subject =
          ts.isCallExpression(expectation) && ts.isIdentifier(expectation.expression) && expectation.expression.text === "expect"
            ? expectation.arguments[0]
            : undefined;
        if (subject) {
          // A word the subject itself writes (`item === failure ? "the original error" : …`) is the test's
          // own description of an outcome, not a message of the module's.
          const own = new Set<string>();
          const collect = (inner: ts.Node): void => {
            const text = literalText(inner);
            if (text !== null) own.add(text);
            ts.forEachChild(inner, collect);
          };
          collect(subject);
          const before = found.length;
          comparedMessages(subject, compared);
          const added = found.splice(before).filter((message) => !own.has(message.text));
          found.push(...added);
        }
      }
    }
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && MESSAGE_PROPERTY.has(node.name.text)) add(node.initializer, "whole");
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The inline code of a lesson, and each line of its fenced code blocks. */
export function inlineCode(markdown: string): string[] {
  const spans: string[] = [];
  // A checkout with CRLF endings has the same lessons: a code line is the same line without its CR.
  const prose = markdown.replaceAll("\r\n", "\n").replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, (block) => {
    spans.push(...block.split("\n").slice(1, -1));
    return "";
  });
  for (const match of prose.matchAll(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g)) spans.push((match[2] ?? "").replace(/\s+/g, " ").trim());
  return spans.filter((span) => span !== "");
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const SHOWN_LETTERS = 12;

interface Shown {
  readonly pattern: RegExp;
  /** How much of the span is written out, not `…`: a span that is mostly `…` shows nothing in particular. */
  readonly literal: number;
}

function shownBy(span: string): Shown {
  return {
    pattern: new RegExp(`^${span.split(VARIABLE).map(escapeRegExp).join("[\\s\\S]*?")}$`),
    literal: span.replaceAll(VARIABLE, "").length,
  };
}

/**
 * Whether inline code shows a whole message: one span matches it with at least half its letters (or 12)
 * written out, or a span shows its head before `: ` and the rest is shown in turn (a table row of a code and its
 * message, `invalid_argument` beside `limits must be an object`).
 */
function showsWhole(message: string, shown: readonly Shown[], depth = 0): boolean {
  // Half its letters, or a dozen: a long path or command in a message is variable, its words are not.
  const needed = Math.min(message.replaceAll(VARIABLE, "").length / 2, SHOWN_LETTERS);
  if (shown.some((span) => span.literal >= needed && span.pattern.test(message))) return true;
  if (depth > 3) return false;
  for (let at = message.indexOf(": "); at > 0; at = message.indexOf(": ", at + 1)) {
    const head = message.slice(0, at);
    const rest = message.slice(at + 2);
    if (showsWhole(head, shown, depth + 1) && showsWhole(rest, shown, depth + 1)) return true;
  }
  return false;
}

/**
 * The ways a test's text may appear in a lesson: as written; with each variable part quoted, as a lesson
 * writes a quoted value (`"…" is relative`); and without a leading error name the lesson names itself
 * (`Error: this request was already used`, where the lesson lists the class beside the message).
 */
function readings(text: string, spans: readonly string[]): string[] {
  const quoted = text.replaceAll(VARIABLE, `"${VARIABLE}"`);
  const named = /^(\w*Error): /.exec(text);
  const unnamed = named && spans.includes(named[1] ?? "") ? [text.slice(named[0].length)] : [];
  return [text, quoted, ...unnamed];
}

/** The expected messages that no inline code of the lesson shows. */
export function unshownMessages<Message extends ExpectedMessage>(expected: readonly Message[], markdown: string): Message[] {
  const spans = inlineCode(markdown);
  const shown = spans.map(shownBy);
  return expected.filter((message) =>
    readings(message.text, spans).every((text) =>
      message.kind === "part" ? !spans.some((span) => span.includes(text)) && !showsWhole(text, shown) : !showsWhole(text, shown),
    ),
  );
}
