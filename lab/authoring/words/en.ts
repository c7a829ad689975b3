// The fixed words and sentences of a lesson's generated blocks, in English; the site's widgets say the
// same. The Chinese table beside it is typed by this one.
export const BLOCK_WORDS = {
  hint: (index: number, count: number) => `Hint ${index} of ${count}`,
  acceptance: (run: string) => `\`pending\` until \`${run}\` passes; the run records \`passed\` or \`failed\` in \`verification.json\``,
  none: "none",
  diagnosis: "Diagnosis, in order:",
  fixPrinciple: "**Fix principle.** ",
  moreFaults: (count: number, fault: string) =>
    `This stage has ${count === 1 ? "one more fault, with its own contract and tree" : `${count} more faults, each with its own contract and tree`}; \`npm run lab -- fault ${fault} --list\` lists them and \`npm run lab -- fault ${fault} <fault-id>\` demonstrates one:`,
  caughtBy: (test: string) => `, caught by "${test}"`,
  scenario: (title: string, scenario: string) => `**${title}** (${scenario})`,
  whatChanges: "*What changes:* ",
  doneWhen: "Done when:",
  testsThatCheck: "Tests that check it:",
  mastery: "These tests must pass against your own code in `workspace/`:",
  minutes: ([shortest, longest]: readonly [number, number]) => `${shortest}–${longest} minutes`,
  order: "Make the tests green in this order:",
  /** A test as a block lists it: its name, exactly as vitest prints it (the English edition has no gloss). */
  test: (name: string, _gloss?: string) => name,
  /** Between the tests of one table cell. */
  testSeparator: "; ",
  anyOrder: (count: number) =>
    `${count} tests: any order works. Start with the first one under Mastery evidence, and run the stage's tests after each change.`,
};

export type BlockWords = typeof BLOCK_WORDS;
