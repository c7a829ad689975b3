// The site's words in English: every word the course site shows, one table per language (this one, and
// zh-CN.ts typed by it, so that it cannot miss a key; a message with values is a function). The build
// (site/render.ts, site/map.ts, site/build.ts) reads both through ../text.ts; the browser code reads its
// own edition's through ../words.ts. Course terms come from the glossary, never retyped here; values
// that are data (paths, commands, test names, JSON keys) stay as they are in both. Names ending in Html
// hold markup.
import { term, type GlossaryTerm } from "../../../lab/i18n/glossary.js";
import { VERDICTS } from "../../../lab/evidence/words/en.js";

const en = (name: GlossaryTerm) => term(name, "en");
/** What the board adds to a pass read with the Challenge switch on, before anything was revealed: what the page saw, no more. */
const CHALLENGE_MARK = "challenge path on, nothing revealed in this browser";

export const WORDS = {
  /** What goes between two sentences, or a label and its text: a space in English, nothing in Chinese. */
  gap: " ",
  page: {
    skip: "Skip to the content",
    tagline: "Tools, sandboxes and side-effect control",
    footer: "Forge Lab · MIT licensed · progress is kept in this browser only.",
    siteLinks: "Site",
    glossary: en("Glossary"),
    homeTitle: "Forge Lab",
    homeDescription: "A course on tools, sandboxes and side-effect control for agent harnesses.",
    mapTitle: `${en("Course map")} — Forge Lab`,
    mapDescription:
      "Where the course sits in an agent harness, its concepts, what to know first, what to do when stuck, and how the stages build on each other.",
    stageTitle: (nn: string, title: string) => `${en("Stage")} ${nn} · ${title} — Forge Lab`,
    glossaryTitle: `${en("Glossary")} — Forge Lab`,
    glossaryDescription: "Every term of the course in English and Simplified Chinese.",
    /** Shown on a page whose lesson or map has no translation yet, above the English original. */
    untranslated: "This page has no translation yet: it is shown in English.",
    repositoryFile: (path: string) => `${path} in the repository`,
  },
  nav: {
    label: "Course",
    onThisPage: "On this page",
    stages: "Stages",
    courseMap: en("Course map"),
    progress: "Progress and self-check",
  },
  home: {
    boardTitle: "Your progress",
    boardCaption: "State of each stage",
    columns: [en("Stage"), "Lesson", "State"] as readonly [string, string, string],
    challengeMark: CHALLENGE_MARK,
    statesNote: (states: readonly string[], mark: string) =>
      `States, in order: ${states.join(" → ")}. A passed stage is also marked "${mark}" when its self-check was read with the Challenge switch on and none of its hidden parts had been opened in this browser before the run was made. That is all a page can see: what you read elsewhere, such as the lesson's Markdown file, it cannot know.`,
    reset: "Reset progress",
    selfCheckHeading: "Self-check: load a verification.json",
  },
  stage: {
    eyebrow: (nn: string) => `${en("Stage")} ${nn}`,
    labDownloadedHtml: (nn: string) => `I have the lab on my machine and ran <code>npm test -- stage-${nn}</code>`,
    labPresentHtml: "The lab is on this machine: <code>npm start</code> serves this page.",
    challengeSwitch: "Challenge path: keep the worked steps and the reference solution hidden until I reveal them",
  },
  widgets: {
    chooseOne: "Choose one answer",
    why: "Why:",
    experimentId: en("Experiment id"),
    inputScenario: en("Input scenario"),
    evidenceFolder: en("Evidence folder"),
    yourAcceptance: "Your acceptance",
    acceptanceNote: "(from the last verification file you loaded)",
    acceptance: { pending: "pending", passed: "passed", notPassed: "not passed yet" },
    hintsLabel: "Graded hints",
    hint: (n: number) => `${en("Hint")} ${n}.`,
    showHint: (n: number, total: number) => `Show hint ${n} of ${total}`,
    fault: en("Fault"),
    faultFile: en("Fault file"),
    targetTest: en("Target test"),
    expectedFailure: en("Expected failure"),
    alsoFailing: en("Also failing"),
    defaultFault: " (the stage's default fault)",
    faultHeadingHtml: (idHtml: string) => `${en("Fault")} ${idHtml}`,
    diffHeading: "The fault, as its patch of the reference (the fix undoes it)",
    faultsIntroHtml: (count: number, commandHtml: string) => `This stage has ${count} faults; ${commandHtml} lists them.`,
    instructor: {
      closed: "Show the instructor view: fault contract and fix",
      open: "Hide the instructor view: fault contract and fix",
    },
    strongAnswer: { closed: "Show what a strong answer contains", open: "Hide what a strong answer contains" },
    rubricNote: "Tick what your answer covers. This is for you: it is kept in this browser only.",
    badge: { unknown: "not checked", passed: "passed", failed: "failed", missing: "missing" },
    code: "Code",
    codeIn: (language: string) => `Code (${language})`,
    scrolls: (name: string) => `${name}, scrolls sideways`,
  },
  reveals: {
    foldChallengeHtml: (what: string) => `Reveal a hidden part: ${what}`,
    foldOpenHtml: (what: string) => `Hide: ${what}`,
    solution: {
      closed: "Reveal the reference solution",
      challenge: "Show the reference solution, hidden on the challenge path",
      open: "Hide the reference solution",
    },
    challengeNote: `Hidden on the challenge path. Opening it is noted in this browser: a pass from a run made after then is marked passed, and nothing more.`,
  },
  panel: {
    masteryHeading: (nn: string) => `Load the verification.json of stage ${nn}`,
    privacyHtml:
      "The file is read only in this browser: nothing is uploaded. The self-check verifies the lab contract, not a certification: the file is a run of your own code in <code>workspace/</code> (not a copy of the reference), its counts add up, and every test of the stage's current suite passed.",
    limitsHtml:
      "What it cannot prove: that nobody edited the file by hand. Results a class can trust come from a CI run of your repository, not from a file on your machine.",
    chooseHtml: "Choose <code>verification.json</code>",
    dropHint: "or drop the file here",
    localEvidence: "Evidence files in this checkout",
    /** The name of the region that shows what the last file read proves; focus moves to it. */
    verdictLabel: "Self-check verdict",
    referenceRunsNote:
      "Runs against the course's own trees (solution, faulty, start), as verify and the fault lab write them: loading one says why it does not count.",
  },
  client: {
    storageRefused: "This browser refuses storage here: progress lasts until you leave the page.",
    challengePassed:
      "Passed, read with the challenge path on, and nothing of this lesson was revealed in this browser before the run. What you read elsewhere this page cannot see.",
    challengeRevealed: (when: string) =>
      `You revealed a hidden part in this browser on ${when}: a pass from a run made after then is marked passed, and nothing more.`,
    challengeHidden: (parts: number) =>
      `${parts} part${parts === 1 ? "" : "s"} of this lesson ${parts === 1 ? "is" : "are"} hidden. Nothing is revealed in this browser yet: a pass read now is marked "${CHALLENGE_MARK}".`,
    resetConfirm: "Reset your progress in every stage? Your files and evidence are not touched.",
    resetDone: "Progress reset. Nothing else was changed.",
    quizRight: (letter: string) => `Right: ${letter} is the answer.`,
    quizWrong: (chosen: string, answer: string) => `Not quite: you chose ${chosen}; the answer is ${answer}.`,
    dropNothing: "Nothing to read: drop the verification.json file itself.",
    unreadable: (file: string, reason: string) => `The browser could not read ${file}: ${reason}`,
    /** A verdict or a problem, prefixed with the file it is about. */
    about: (file: string, message: string) => `${file}: ${message}`,
    /** Added to a passing verdict read with the switch on, for a run made before any reveal. */
    challengeSeen: " Challenge path on, nothing revealed in this browser before this run.",
    otherStage: (nn: string) => ` (This file is for stage ${nn}; its progress was updated.)`,
    load: (file: string) => `Load ${file}`,
    noOwnEvidence: "No run of your own code yet: npm test -- stage-NN writes its verification.json.",
    referenceRuns: (count: number) => `Reference runs (${count})`,
    couldNotLoad: (file: string, reason: string) => `Could not load ${file}: ${reason}`,
    serverAnswered: (status: number) => `the server answered ${status}`,
  },
  /** The self-check's verdicts: what a verification.json proves, in words a learner understands. */
  /** The self-check's verdicts, owned by the self-check (lab/evidence/words/). */
  verdicts: VERDICTS,
  map: {
    diagramTitle: "The learning path",
    figcaption:
      "Stages in course order. An arc from one stage to a later one: the later stage's reference imports the earlier one's module.",
    tableCaption: "What each stage depends on, provides and is constrained by",
    /** `imports`: each importing stage, with the stages it imports as a list already joined (`listOf`). */
    description: (count: number, imports: ReadonlyArray<{ nn: string; list: string; several: boolean }>, alone: number) => {
      const sentence = imports.map(({ nn, list, several }) => `stage ${nn} imports ${several ? "stages" : "stage"} ${list}`).join("; ");
      const said = sentence ? `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}. ` : "";
      return `${count} stages in course order. ${said}${alone === 0 ? "Every stage is imported or imports another" : `${alone} stand${alone === 1 ? "s" : ""} alone`}. The table after the diagram lists the same facts.`;
    },
  },
  glossary: {
    heading: en("Glossary"),
    introHtml:
      "Every term the course uses, in English and in Simplified Chinese: the lessons' headings, their generated blocks, this site and the lab's command line take their words from this list.",
    noteColumn: "What it names",
  },
};

/** The site's words in one edition. */
export type SiteText = typeof WORDS;
