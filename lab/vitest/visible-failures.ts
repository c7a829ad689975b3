// A setup file of every stage project: a failed test's errors are made visible (lab/core/visible.ts)
// in the worker, before any reporter sees them, so the terminal, verification.json, JUnit files and an
// editor's test explorer all show `"cat a\u202eb"` where the input held a right-to-left override. The
// diff keeps vitest's own colours.
import { beforeEach } from "vitest";
import { visible, visibleKeepingColours } from "../core/visible.js";

const SHOWN = ["message", "diff", "expected", "actual", "stack"] as const;

beforeEach(({ onTestFailed }) => {
  onTestFailed(({ task }) => {
    for (const error of task.result?.errors ?? []) {
      const fields = error as unknown as Record<string, unknown>;
      // On a colour terminal vitest colours the diff here, in the worker, from the values it compares.
      // When neither value holds an escape character, every one in the diff is a colour of vitest's and
      // stays; otherwise each is shown as an escape, so a value's own codes can neither hide nor recolour
      // what the learner reads.
      const plainValues = [fields.expected, fields.actual].every((value) => typeof value !== "string" || !value.includes("\u001b"));
      for (const field of SHOWN) {
        const value = fields[field];
        if (typeof value === "string") fields[field] = field === "diff" && plainValues ? visibleKeepingColours(value) : visible(value);
      }
    }
  });
});
