// What one check of verify found: a few words for its table cell, and each problem naming what to look at.
// `npm run verify`: the project's own proof. In one vitest process it runs every stage against its
// solution, faulty and start trees, plus the lab engine's tests, while the compiler type-checks the
// repository. Then it judges each stage: the solution passes, the fault is caught exactly by its named
// test, the starting point fails because the module is missing, and the spec is complete.

export interface Check {
  readonly ok: boolean;
  /** A few words for the table. */
  readonly summary: string;
  /** What is wrong, each naming what to look at. */
  readonly problems: readonly string[];
}

export const pass = (summary: string): Check => ({ ok: true, summary, problems: [] });

export const fail = (summary: string, problems: readonly string[]): Check => ({ ok: false, summary, problems });
