// StrykerJS's vitest runner builds a mutant's verdict from the tests vitest collected, and a test file
// whose import throws collects none. A mutant that stops the module from loading (so every one of its
// tests fails) would then count as survived (stryker-js #6150). This reporter gives each such file one
// failed test that carries the file's load error, so the mutant counts as killed. Only `npm run mutate`
// uses it; a file that loaded is left as it is.
import type { RunnerTestCase, RunnerTestFile, TestContext } from "vitest";
import type { Reporter, Vitest } from "vitest/node";

/** The name of the failed test a file that did not load is given. */
export const LOAD_FAILURE_TEST = "the test file loads";

/** Adds the failed test to every file that failed without collecting a single test; returns how many. */
function addLoadFailures(files: readonly RunnerTestFile[]): number {
  let added = 0;
  for (const file of files) {
    if (file.result?.state !== "fail" || file.tasks.length > 0) continue;
    const test: RunnerTestCase = {
      type: "test",
      id: `${file.id}_load`,
      name: LOAD_FAILURE_TEST,
      fullName: LOAD_FAILURE_TEST,
      fullTestName: LOAD_FAILURE_TEST,
      mode: "run",
      meta: {},
      file,
      result: { state: "fail", errors: file.result.errors ?? [], duration: 0 },
      timeout: 0,
      annotations: [],
      artifacts: [],
      // vitest builds a context for a test it runs; this one never runs, and nothing reads it afterwards.
      context: undefined as unknown as TestContext,
    };
    file.tasks.push(test);
    added += 1;
  }
  return added;
}

/** The reporter: when a run ends, before StrykerJS reads its results. */
export function loadFailuresAsFailedTests(): Reporter {
  let vitest: Vitest | undefined;
  return {
    onInit(context) {
      vitest = context;
    },
    onTestRunEnd() {
      if (vitest) addLoadFailures(vitest.state.getFiles());
    },
  };
}
