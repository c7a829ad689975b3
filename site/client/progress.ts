// Progress kept in this browser only (localStorage), per stage, and the five states shown for it.
import * as z from "zod/mini";
import type { TestStatus } from "../../lab/evidence/selfcheck.js";

export const STATES = ["Not started", "Reading", "Lab downloaded", "Test results read", "Self-check passed"] as const;
export type ProgressState = (typeof STATES)[number];

const stageProgressSchema = z.object({
  reading: z.optional(z.boolean()),
  downloaded: z.optional(z.boolean()),
  results: z.optional(
    z.object({
      passed: z.boolean(),
      generatedAt: z.string(),
      mastery: z.array(z.object({ name: z.string(), status: z.enum(["passed", "failed", "missing"]) })),
    }),
  ),
  quiz: z.optional(z.int().check(z.minimum(0), z.maximum(3))),
  hintsShown: z.optional(z.int().check(z.minimum(0))),
  rubric: z.optional(z.array(z.boolean())),
  /** When a challenge part of the lesson (a fold, the reference solution) was first opened. */
  revealedAt: z.optional(z.iso.datetime()),
  /**
   * The time of the first passing run read while the Challenge switch was on and made before any
   * challenge part was opened in this browser: all the page can see of how the stage was passed. (A
   * `challengePassedAt` saved by earlier versions, which did not look at the switch, is dropped.)
   */
  challengeOnPassAt: z.optional(z.iso.datetime()),
});
const progressSchema = z.object({ version: z.literal(1), stages: z.record(z.string(), stageProgressSchema) });

export type StageProgress = z.infer<typeof stageProgressSchema>;
export type Progress = z.infer<typeof progressSchema>;

export const STORAGE_KEY = "forge-lab/progress";

export function emptyProgress(): Progress {
  return { version: 1, stages: {} };
}

/** The furthest state a stage has reached. */
export function stateOf(progress: StageProgress | undefined): ProgressState {
  if (!progress) return "Not started";
  if (progress.results?.passed) return "Self-check passed";
  if (progress.results) return "Test results read";
  if (progress.downloaded) return "Lab downloaded";
  if (progress.reading) return "Reading";
  return "Not started";
}

/**
 * The stage passed its self-check, and a passing run was read with the Challenge switch on and made
 * before any challenge part was revealed in this browser. Nothing more: what the learner read elsewhere
 * (the lesson's Markdown file, another browser) the page cannot see.
 */
export function challengeMarked(progress: StageProgress | undefined): boolean {
  return stateOf(progress) === "Self-check passed" && progress?.challengeOnPassAt !== undefined;
}

/** The first reveal is the one that counts: a pass from a run made after it earns no mark. */
export function withReveal(progress: StageProgress, now: Date): StageProgress {
  return progress.revealedAt === undefined ? { ...progress, revealedAt: now.toISOString() } : progress;
}

/**
 * A stage's progress after a verdict is read, `challengeOn` being the Challenge switch as the page reads
 * it then. A passing run read with the switch on and made before the first reveal (by the times the run
 * and the browser recorded) marks the stage, and the mark stays: a later run does not undo what the page
 * saw.
 */
export function withResults(progress: StageProgress, results: NonNullable<StageProgress["results"]>, challengeOn: boolean): StageProgress {
  const beforeReveal = progress.revealedAt === undefined || Date.parse(results.generatedAt) < Date.parse(progress.revealedAt);
  const challengeOnPassAt = progress.challengeOnPassAt ?? (results.passed && challengeOn && beforeReveal ? results.generatedAt : undefined);
  return { ...progress, downloaded: true, results, ...(challengeOnPassAt === undefined ? {} : { challengeOnPassAt }) };
}

export interface ProgressStore {
  read(): Progress;
  update(stageId: string, change: (stage: StageProgress) => StageProgress): Progress;
  reset(): Progress;
  /** False when the browser refuses storage (private mode, some file:// settings): progress lasts for this page only. */
  readonly persistent: boolean;
}

/** A store on top of localStorage; falls back to memory when storage is unavailable or holds garbage. */
export function createStore(storage: Pick<Storage, "getItem" | "setItem" | "removeItem"> | null): ProgressStore {
  let memory = emptyProgress();
  let persistent = storage !== null;
  const load = (): Progress => {
    if (!persistent || !storage) return memory;
    try {
      const raw = storage.getItem(STORAGE_KEY);
      const parsed = raw === null ? null : progressSchema.safeParse(JSON.parse(raw));
      return parsed?.success ? parsed.data : emptyProgress();
    } catch {
      return emptyProgress();
    }
  };
  const save = (progress: Progress): Progress => {
    memory = progress;
    if (persistent && storage) {
      try {
        storage.setItem(STORAGE_KEY, JSON.stringify(progress));
      } catch {
        persistent = false; // quota or a refused write: keep going in memory
      }
    }
    return progress;
  };
  return {
    read: load,
    update(stageId, change) {
      const progress = load();
      return save({ ...progress, stages: { ...progress.stages, [stageId]: change(progress.stages[stageId] ?? {}) } });
    },
    reset() {
      memory = emptyProgress();
      if (persistent && storage) {
        try {
          storage.removeItem(STORAGE_KEY);
        } catch {
          persistent = false;
        }
      }
      return memory;
    },
    get persistent() {
      return persistent;
    },
  };
}

export function resultsFromVerdict(
  passed: boolean,
  generatedAt: string,
  mastery: ReadonlyArray<{ name: string; status: TestStatus }>,
): NonNullable<StageProgress["results"]> {
  return { passed, generatedAt, mastery: mastery.map((test) => ({ ...test })) };
}

export const CHALLENGE_KEY = "forge-lab/challenge-path";

/** The Challenge switch: one choice for the whole course, kept apart from progress so a reset keeps it. */
export interface ChallengePreference {
  read(): boolean;
  write(on: boolean): void;
}

export function createChallengePreference(storage: Pick<Storage, "getItem" | "setItem"> | null): ChallengePreference {
  let on = false;
  try {
    on = storage?.getItem(CHALLENGE_KEY) === "on";
  } catch {
    // unreadable storage: the switch starts off
  }
  return {
    read: () => on,
    write(value) {
      on = value;
      try {
        storage?.setItem(CHALLENGE_KEY, value ? "on" : "off");
      } catch {
        // a refused write: the choice lasts for this page
      }
    },
  };
}
