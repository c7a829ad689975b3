// `npm run lab -- new <NN> <slug>`: the skeleton of a new stage, every file in its place and valid against
// its schema, with each piece still to write marked by PLACEHOLDER. verify fails on a stage that still
// holds a placeholder, naming each one: the scaffold's output is the list of what to write next.
import { existsSync } from "node:fs";
import { writeFileAtomic } from "../core/files.js";
import { dirs, modulePath, moduleFile, repoPath, stageFiles } from "../core/layout.js";
import { type Catalog } from "../catalog/catalog.js";
import { MODULE_NAME, STAGE_ID } from "../catalog/names.js";
import { SECTIONS } from "../catalog/sections.js";
import { placeholderFault } from "./fault-draft.js";
import { PLACEHOLDER, todo } from "./placeholder.js";
import { BLOCK_NAMES, BLOCKS, sectionTitles } from "./lesson.js";
import { switchLine } from "./editions.js";
import { localized } from "../core/layout.js";
import { TWIN_LOCALE, type Locale } from "../core/locale.js";

/** The mark of a piece the author still has to write. */

export interface ScaffoldRequest {
  readonly number: number;
  readonly slug: string;
  /** The module the stage adds under forge/tools/; the slug's last word unless given. */
  readonly module?: string;
}

export interface Scaffold {
  readonly id: string;
  readonly files: ReadonlyArray<{ readonly file: string; readonly content: string }>;
}

function title(slug: string): string {
  const words = slug.split("-");
  return [words[0] ? words[0].charAt(0).toUpperCase() + words[0].slice(1) : "", ...words.slice(1)].join(" ");
}

/** The lesson skeleton in one edition: its title, the link to the other edition, the twelve sections with their empty blocks. */
function readme(nn: string, slug: string, module: string, locale: Locale): string {
  const titles = sectionTitles(locale);
  const sections = SECTIONS.map((section, index) => {
    const blocks = BLOCK_NAMES.filter((name) => BLOCKS[name] === section).map(
      (name) => `\n<!-- forge:${name} -->\n<!-- /forge:${name} -->\n`,
    );
    const heading = titles[index] ?? section;
    const what =
      locale === "en" ? `write the "${section}" section (see stage 02's for what it holds).` : `write the "${heading}" section in Chinese.`;
    return `## ${heading}\n\n${todo(what)}\n${blocks.join("")}`;
  });
  const other = locale === "en" ? switchLine(localized("README.md", TWIN_LOCALE), TWIN_LOCALE) : switchLine("README.md", "en");
  const heading = locale === "en" ? `Stage ${nn} · ${title(slug)}` : `阶段 ${nn} · ${todo("the title in Chinese.")}`;
  const opening =
    locale === "en"
      ? `one paragraph: what the learner writes (workspace/${modulePath(module)}) and why.`
      : "the opening paragraph in Chinese.";
  return `# ${heading}\n\n${other}\n\n${todo(opening)}\n\n${sections.join("\n")}`;
}

/** The files of a new stage, or an error message when the request cannot become one. */
export function scaffold(catalog: Catalog, request: ScaffoldRequest): Scaffold | string {
  const { number, slug } = request;
  if (!Number.isInteger(number) || number < 1 || number > 99)
    return `the stage number must be a whole number from 1 to 99, got ${JSON.stringify(number)}`;
  const nn = String(number).padStart(2, "0");
  const id = `stage-${nn}-${slug}`;
  if (!STAGE_ID.test(id)) return `"${slug}" is not a slug: use lower-case words joined by hyphens, such as terminal-path-scope`;
  const module = request.module ?? slug.split("-").at(-1) ?? slug;
  if (!MODULE_NAME.test(module)) return `"${module}" is not a module name: use a lower-case word, such as scope`;
  const taken = catalog.stages.find((stage) => stage.number === number);
  if (taken) return `stage ${nn} exists already: ${taken.id}`;
  const owner = catalog.stages.find((stage) => stage.spec?.modules.includes(module));
  if (owner) return `the module "${module}" belongs to ${owner.id}: name another with --module`;
  const files = stageFiles(dirs, id);
  const existing = [files.dir, files.solution, files.faulty, files.contract].find((path) => existsSync(path));
  if (existing) return `${repoPath(existing)} exists already`;

  const stub = `// ${todo(`the reference solution of stage ${nn}: forge/tools/${module}.`)}\nexport {};\n`;
  const transferTest = todo("the name of a transfer test.");
  const masteryTests = [1, 2, 3].map((n) => todo(`the name of test ${n}.`));
  const targetTest = todo("the test that catches the fault.");
  // The Chinese edition glosses every test a block of the lesson lists, by its English name.
  const glosses = Object.fromEntries(
    [targetTest, transferTest, ...masteryTests].map((name) => [name, todo("what this test proves, in Chinese.")]),
  );
  const spec = {
    $schema: "../stage.schema.json",
    title: title(slug),
    summary: todo("one sentence: the capability this stage adds."),
    scenario: todo("the input scenario of the experiment card (software delivery)."),
    modules: [module],
    // A first estimate: measure it with a learner who did not write the stage, then correct it.
    effort: { minutes: [30, 60] },
    prediction: {
      question: todo("a question to answer before reading on."),
      options: [1, 2, 3, 4].map((n) => todo(`option ${n}.`)),
      answer: 0,
      why: todo("why the answer is right."),
    },
    hints: [todo("a nudge."), todo("nearly the answer.")],
    transfer: {
      scenario: "office-research",
      title: todo("the transfer challenge."),
      change: todo("what differs from the worked example."),
      task: todo("what to do."),
      criteria: [todo("a criterion.")],
      tests: [transferTest],
    },
    design: { question: todo("a design question."), rubric: [todo("what a strong answer contains."), todo("and what else.")] },
    mastery: masteryTests,
    [TWIN_LOCALE]: {
      title: todo("the title in Chinese."),
      summary: todo("the summary in Chinese."),
      scenario: todo("the input scenario in Chinese."),
      prediction: {
        question: todo("the question in Chinese."),
        options: [1, 2, 3, 4].map((n) => todo(`option ${n} in Chinese.`)),
        why: todo("why, in Chinese."),
      },
      hints: [todo("hint 1 in Chinese."), todo("hint 2 in Chinese.")],
      transfer: {
        title: todo("the transfer challenge in Chinese."),
        change: todo("what changes, in Chinese."),
        task: todo("the task in Chinese."),
        criteria: [todo("the criterion in Chinese.")],
      },
      design: { question: todo("the design question in Chinese."), rubric: [todo("rubric 1 in Chinese."), todo("rubric 2 in Chinese.")] },
      tests: glosses,
    },
  };
  const contract = {
    $schema: "../failure.schema.json",
    id: "placeholder-fault",
    faultFile: `forge/tools/${module}.ts`,
    targetTest,
    expectedFailure: todo("a regular expression its failure message matches."),
    alsoFailing: [],
    diagnosis: [todo("the first diagnosis step."), todo("the next one.")],
    fixPrinciple: todo("the principle of the fix."),
    [TWIN_LOCALE]: {
      diagnosis: [todo("the first diagnosis step in Chinese."), todo("the next one in Chinese.")],
      fixPrinciple: todo("the principle of the fix in Chinese."),
    },
  };
  const test = `import { expect, it } from "vitest";
import * as module from "forge/tools/${module}";

// ${todo("the stage's tests, each named for the property it proves.")}
it("${todo("name this test for the property it proves")}", () => {
  expect(Object.keys(module), "what forge/tools/${module} exports").not.toEqual([]);
});
`;
  return {
    id,
    files: [
      { file: files.readme, content: readme(nn, slug, module, "en") },
      { file: localized(files.readme, TWIN_LOCALE), content: readme(nn, slug, module, TWIN_LOCALE) },
      { file: files.spec, content: `${JSON.stringify(spec, null, 2)}\n` },
      { file: files.test(module), content: test },
      { file: moduleFile(files.solution, module), content: stub },
      { file: files.patchOf("placeholder-fault"), content: placeholderFault(module, stub) },
      { file: files.contract, content: `${JSON.stringify(contract, null, 2)}\n` },
    ],
  };
}

export function writeScaffold(result: Scaffold): void {
  for (const { file, content } of result.files) writeFileAtomic(file, content);
}

/** Every placeholder left in a stage's files, as `file: line`. */
export function placeholders(files: ReadonlyArray<{ readonly file: string; readonly text: string }>, root: string): string[] {
  const found: string[] = [];
  for (const { file, text } of files) {
    text.split("\n").forEach((line, index) => {
      if (line.includes(`${PLACEHOLDER}:`))
        found.push(`${repoPath(file, root)}:${index + 1} still holds the scaffold's ${line.trim().slice(0, 100)}`);
    });
  }
  return found;
}
