// The structured text of a stage in one edition: stage.json and failure.json keep English at the top
// level and the Chinese edition under "zh-CN"; these functions give either edition the English shape.
import { existsSync } from "node:fs";
import type { Stage } from "../catalog/catalog.js";
import type { FaultContract, FaultText } from "../catalog/failure-schema.js";
import type { StageSpec, StageText } from "../catalog/stage-schema.js";
import { localized } from "../core/layout.js";
import type { Locale } from "../core/locale.js";

/** The spec with its text in `locale`, or null when that edition is missing. */
export function specIn(spec: StageSpec, locale: Locale): StageSpec | null {
  if (locale === "en") return spec;
  const text: StageText | undefined = spec[locale];
  if (!text) return null;
  return {
    ...spec,
    title: text.title,
    summary: text.summary,
    scenario: text.scenario,
    prediction: { ...spec.prediction, ...text.prediction },
    hints: text.hints,
    transfer: { ...spec.transfer, ...text.transfer },
    design: text.design,
    ...(spec.order ? { order: spec.order.map((step, index) => ({ ...step, why: text.order?.[index]?.why ?? step.why })) } : {}),
  };
}

/** The contract with its text in `locale`, or null when that edition is missing. */
export function contractIn(contract: FaultContract, locale: Locale): FaultContract | null {
  if (locale === "en") return contract;
  const text: FaultText | undefined = contract[locale];
  return text ? { ...contract, diagnosis: text.diagnosis, fixPrinciple: text.fixPrinciple } : null;
}

/** Where an edition's lists differ in length from the English: each names the field and both lengths. */
function lengthProblems(pairs: ReadonlyArray<readonly [string, readonly unknown[], readonly unknown[]]>, locale: Locale): string[] {
  return pairs
    .filter(([, english, twin]) => english.length !== twin.length)
    .map(([field, english, twin]) => `"${locale}".${field} has ${twin.length} entries, the English ${english.length}`);
}

/** What the spec's `locale` edition lacks: missing, or a list of another length than the English one. */
export function specEditionProblems(spec: StageSpec, locale: Locale): string[] {
  if (locale === "en") return [];
  const text = spec[locale];
  if (!text) return [`has no "${locale}" edition of its text fields`];
  return lengthProblems(
    [
      ["hints", spec.hints, text.hints],
      ["transfer.criteria", spec.transfer.criteria, text.transfer.criteria],
      ["design.rubric", spec.design.rubric, text.design.rubric],
      ["order", spec.order ?? [], text.order ?? []],
    ],
    locale,
  );
}

/** What the contract's `locale` edition lacks, as `specEditionProblems`. */
export function contractEditionProblems(contract: FaultContract, locale: Locale): string[] {
  if (locale === "en") return [];
  const text = contract[locale];
  if (!text) return [`has no "${locale}" edition of diagnosis and fixPrinciple`];
  return lengthProblems([["diagnosis", contract.diagnosis, text.diagnosis]], locale);
}

/**
 * Every test the lesson's generated blocks list, in the order they first appear: the suggested order, the
 * fault lab (each fault's target test and the tests it may also fail), the transfer challenge and the
 * mastery evidence.
 */
export function listedTests(spec: StageSpec, contracts: readonly FaultContract[]): string[] {
  const names = [
    ...(spec.order ?? []).flatMap((step) => step.tests),
    ...contracts.flatMap((contract) => [contract.targetTest, ...contract.alsoFailing]),
    ...spec.transfer.tests,
    ...spec.mastery,
  ];
  return [...new Set(names)];
}

/** The gloss `locale` gives a test beside its English name, if it has one. */
export function testGloss(spec: StageSpec, locale: Locale, name: string): string | undefined {
  if (locale === "en") return undefined;
  const glosses = spec[locale]?.tests;
  return glosses && Object.hasOwn(glosses, name) ? glosses[name] : undefined;
}

/**
 * Where the `locale` edition's glosses of the test names fall short: a test the lesson lists with no
 * gloss, or a gloss of a name no block lists (a test renamed or removed since). Each names the test.
 */
export function glossProblems(spec: StageSpec, contracts: readonly FaultContract[], locale: Locale): string[] {
  const text = locale === "en" ? undefined : spec[locale];
  if (!text) return [];
  const listed = listedTests(spec, contracts);
  const glossed = Object.keys(text.tests ?? {});
  return [
    ...listed
      .filter((name) => testGloss(spec, locale, name) === undefined)
      .map((name) => `"${locale}".tests has no gloss for "${name}", a test the lesson lists`),
    ...glossed
      .filter((name) => !listed.includes(name))
      .map((name) => `"${locale}".tests glosses "${name}", which is no test the lesson lists: rename or remove the gloss with its test`),
  ];
}

/**
 * A stage's lesson in `locale` when that edition is written, else the English one, with the edition it
 * is in: a message that names a section must name it in the words of the page it points to.
 */
export function lessonIn(stage: Pick<Stage, "readmePath">, locale: Locale): { readonly file: string; readonly locale: Locale } {
  const twin = localized(stage.readmePath, locale);
  return existsSync(twin) ? { file: twin, locale } : { file: stage.readmePath, locale: "en" };
}
