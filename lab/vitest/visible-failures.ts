// A setup file of every stage project: a failed test's errors are made visible (lab/core/visible.ts)
// in the worker, before any reporter sees them, so the terminal, verification.json, JUnit files and an
// editor's test explorer all show `"cat a\u202eb"` where the input held a right-to-left override.
import { beforeEach } from "vitest";
import { visible } from "../core/visible.js";

const SHOWN = ["message", "diff", "expected", "actual", "stack"] as const;

beforeEach(({ onTestFailed }) => {
  onTestFailed(({ task }) => {
    for (const error of task.result?.errors ?? []) {
      const fields = error as unknown as Record<string, unknown>;
      for (const field of SHOWN) {
        const value = fields[field];
        if (typeof value === "string") fields[field] = visible(value);
      }
    }
  });
});
