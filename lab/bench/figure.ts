// One figure `npm run bench` reports: a measured value, the goal it must stay within, and the baseline
// it was compared with in the same run, so a figure read on another machine still says something.
export interface Figure {
  /** What was measured, in a few words: "stage 09: decide() on a 1 MB command line". */
  readonly label: string;
  readonly value: number;
  readonly unit: "s" | "ms" | "x" | "MB";
  /** The goal: the figure is within it when `value <= bound`. */
  readonly bound: number;
  /** What the value was compared with in the same run, with its own value: "a split of the line: 4 ms". */
  readonly baseline: string;
}

/** A measurement of one concern; it starts whatever processes it needs and ends them. */
export type Measure = () => Promise<readonly Figure[]>;

export const withinBound = (figure: Figure): boolean => figure.value <= figure.bound;
