// A stage's mutation summary (fixtures/stage-NN-<slug>/mutation.json): what `npm run mutate` found, the
// survivors a reviewer accepted as equivalent, and the hashes of the files it was computed from. Pure:
// the caller reads files and StrykerJS's report; verify recomputes the score from the counts.
import type { Locale } from "../core/locale.js";
import * as z from "zod/mini";

/** A mutant as a reviewer finds it in the module: line:column, StrykerJS's mutator, the replacement. */
const mutantSchema = z.object({
  at: z.string().check(z.regex(/^\d+:\d+$/, "must be line:column")),
  mutator: z.string().check(z.minLength(1)),
  replacement: z.string(),
});
export type MutantRef = z.infer<typeof mutantSchema>;

const countSchema = z.number().check(z.int(), z.nonnegative());

export const mutationSummarySchema = z.object({
  /** Killed plus timed out, over every valid mutant, in percent with two decimals. */
  score: z.number().check(z.gte(0), z.lte(100)),
  mutants: z.object({
    killed: countSchema,
    timedOut: countSchema,
    survived: countSchema,
    noCoverage: countSchema,
    /** Rejected by the TypeScript checker: not valid programs, so not counted. */
    compileErrors: countSchema,
    runtimeErrors: countSchema,
  }),
  coverageAnalysis: z.enum(["off", "all", "perTest"]),
  /** Repository path → SHA-256 of the module and the test files the score was computed from. */
  sources: z.record(z.string(), z.string().check(z.regex(/^[0-9a-f]{64}$/, "must be a SHA-256 in hex"))),
  /** Survivors a reviewer checked: no test can tell them from the reference. */
  equivalent: z.array(z.extend(mutantSchema, { reason: z.string().check(z.minLength(10, "say why, in a sentence")) })),
  /** Survivors nobody has explained yet: each needs a test, or a reason in `equivalent`. */
  unexplained: z.array(mutantSchema),
});
export type MutationSummary = z.infer<typeof mutationSummarySchema>;

/** The goal of the course: the tests catch at least this share of the reference's small mistakes. */
export const MIN_SCORE = 90;

/** The part of StrykerJS's JSON report (mutation-testing-report-schema) that a summary is made from. */
export interface StrykerReport {
  readonly files: Readonly<
    Record<
      string,
      {
        readonly mutants: readonly {
          readonly mutatorName: string;
          readonly replacement?: string;
          readonly status: string;
          readonly location: { readonly start: { readonly line: number; readonly column: number } };
        }[];
      }
    >
  >;
}

export function mutantKey(mutant: MutantRef): string {
  return `${mutant.at} ${mutant.mutator} ${mutant.replacement}`;
}

/** Killed plus timed out over every valid mutant, rounded to two decimals; 100 when there is none. */
export function scoreOf(mutants: MutationSummary["mutants"]): number {
  const detected = mutants.killed + mutants.timedOut;
  const valid = detected + mutants.survived + mutants.noCoverage;
  return valid === 0 ? 100 : Math.round((detected / valid) * 10_000) / 100;
}

/**
 * The summary of one StrykerJS run. Equivalents the previous summary gave a reason for keep it while the
 * same mutant still survives; a survivor without one is listed as unexplained.
 */
export function summarize(
  report: StrykerReport,
  options: {
    readonly coverageAnalysis: MutationSummary["coverageAnalysis"];
    readonly sources: Readonly<Record<string, string>>;
    readonly previous: MutationSummary | null;
  },
): MutationSummary {
  const mutants = { killed: 0, timedOut: 0, survived: 0, noCoverage: 0, compileErrors: 0, runtimeErrors: 0 };
  const reasons = new Map((options.previous?.equivalent ?? []).map((entry) => [mutantKey(entry), entry.reason]));
  const equivalent: MutationSummary["equivalent"] = [];
  const unexplained: MutantRef[] = [];
  for (const file of Object.values(report.files)) {
    for (const mutant of file.mutants) {
      const ref: MutantRef = {
        at: `${mutant.location.start.line}:${mutant.location.start.column}`,
        mutator: mutant.mutatorName,
        replacement: (mutant.replacement ?? "").replace(/\s+/g, " "),
      };
      switch (mutant.status) {
        case "Killed":
          mutants.killed += 1;
          break;
        case "Timeout":
          mutants.timedOut += 1;
          break;
        case "CompileError":
          mutants.compileErrors += 1;
          break;
        case "RuntimeError":
          mutants.runtimeErrors += 1;
          break;
        case "Survived":
        case "NoCoverage": {
          mutants[mutant.status === "Survived" ? "survived" : "noCoverage"] += 1;
          const reason = reasons.get(mutantKey(ref));
          if (reason === undefined) unexplained.push(ref);
          else equivalent.push({ ...ref, reason });
          break;
        }
        default:
          throw new Error(`the report holds a mutant with status "${mutant.status}": run every mutant (no "Ignored" or "Pending")`);
      }
    }
  }
  return {
    score: scoreOf(mutants),
    mutants,
    coverageAnalysis: options.coverageAnalysis,
    sources: { ...options.sources },
    equivalent,
    unexplained,
  };
}

/** Every mutant with its verdict, sorted: two runs of the same stage must give the same list. */
export function verdicts(report: StrykerReport): string[] {
  const lines: string[] = [];
  for (const [name, file] of Object.entries(report.files)) {
    for (const mutant of file.mutants) {
      const at = `${mutant.location.start.line}:${mutant.location.start.column}`;
      lines.push(`${name} ${at} ${mutant.mutatorName} ${(mutant.replacement ?? "").replace(/\s+/g, " ")} → ${mutant.status}`);
    }
  }
  return lines.sort();
}

/** What a summary means for a learner, as the lesson's "Mastery evidence" section says it (Markdown). */
export function strengthSentence(summary: MutationSummary, nn: string, locale: Locale = "en"): string {
  const { killed, timedOut, survived, noCoverage } = summary.mutants;
  const caught = killed + timedOut;
  const made = caught + survived + noCoverage;
  const rerun = `\`npm run mutate -- stage-${nn}\``;
  if (locale === "zh-CN")
    return `这些测试能证明多少：StrykerJS 对参考实现做了 ${made} 处仍能通过类型检查的小改动，测试发现了其中 ${caught} 处，变异得分为 ${summary.score}%（课程的目标是 ${MIN_SCORE}%；${rerun} 会重新计算它）。`;
  return `How much these tests prove: StrykerJS made ${made} small changes to the reference solution that still type-check, and the tests catch ${caught} of them, a mutation score of ${summary.score}% (the course's goal is ${MIN_SCORE}%; ${rerun} recomputes it).`;
}
