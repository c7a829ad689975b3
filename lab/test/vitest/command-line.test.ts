// `npm test`'s words before vitest reads them: a stage named by its number runs that stage; a number
// that names no stage, the lab's own options and an option vitest does not know are one line each, in
// the learner's language; every other word is vitest's.
import { expect, it } from "vitest";
import { type CommandLineProblem, learnerCommandLine } from "../../vitest/command-line.mjs";
import { explainCommandLine } from "../../vitest/command-line-words.js";

const STAGES = ["README.md", "stage-10-output-decoding", "stage-01-capability-registry", "tsconfig.json", "stage-04-approval-gate"];

it("runs the stage a number names, however the lab would accept it, wherever a filter stands", () => {
  const read = (words: string) => learnerCommandLine(words.split(" "), STAGES).args?.join(" ");
  expect(
    {
      "stage-1": read("stage-1"),
      "1": read("1"),
      "01": read("01"),
      "stage-04 --run": read("stage-04 --run"),
      "--run 4": read("--run 4"),
      "watch 10": read("watch 10"),
      "--reporter=junit 4": read("--reporter=junit 4"),
      "1 4": read("1 4"),
    },
    "the words vitest reads",
  ).toEqual({
    "stage-1": "stage-01-capability-registry",
    "1": "stage-01-capability-registry",
    "01": "stage-01-capability-registry",
    "stage-04 --run": "stage-04-approval-gate --run",
    "--run 4": "--run stage-04-approval-gate",
    "watch 10": "watch stage-10-output-decoding",
    "--reporter=junit 4": "--reporter=junit stage-04-approval-gate",
    "1 4": "stage-01-capability-registry stage-04-approval-gate",
  });
});

it("leaves an option's value and every other filter to vitest", () => {
  for (const words of [
    "--run -t 4",
    "-t 04 registry",
    "--bail 1 registry",
    "registry",
    "stage-01-capability",
    "constructor __proto__",
    "2026",
    "",
  ]) {
    const args = words === "" ? [] : words.split(" ");
    expect(learnerCommandLine(args, STAGES), `the words of "${words}"`).toEqual({ args });
  }
});

it("finds a number that names no stage, with the course's range", () => {
  expect(learnerCommandLine(["stage-13", "--run"], STAGES), "stage-13").toEqual({
    problem: { kind: "noSuchStage", number: "13", first: "01", last: "10" },
  });
  expect(learnerCommandLine(["0"], STAGES).problem, "0").toEqual({ kind: "noSuchStage", number: "00", first: "01", last: "10" });
  expect(learnerCommandLine(["2"], []).problem, "a checkout without stages").toEqual({
    kind: "noSuchStage",
    number: "02",
    first: null,
    last: null,
  });
});

it("finds an option of the lab's test command, with the whole command line", () => {
  expect(
    ["--target", "--target=solution", "--previous"].map((option) => learnerCommandLine(["stage-01", option], STAGES).problem),
    "the problem of each lab option",
  ).toEqual([
    { kind: "labOption", option: "--target", args: ["stage-01", "--target"] },
    { kind: "labOption", option: "--target", args: ["stage-01", "--target=solution"] },
    { kind: "labOption", option: "--previous", args: ["stage-01", "--previous"] },
  ]);
});

it("explains each problem in one line of the learner's language, after a FORGE_LANG that names no edition", () => {
  const problems: CommandLineProblem[] = [
    { kind: "noSuchStage", number: "13", first: "01", last: "12" },
    { kind: "noSuchStage", number: "02", first: null, last: null },
    { kind: "labOption", option: "--target", args: ["stage-01", "--target", "solution"] },
    { kind: "unknownOption", message: "Unknown option `--bogus`" },
  ];
  expect(
    problems.map((problem) => explainCommandLine(problem, { FORGE_LANG: "en" })),
    "in English",
  ).toEqual([
    "npm test: there is no stage 13: the stages are 01 to 12 (npm test -- stage-01).",
    "npm test: there is no stage 02: this checkout has none (npm test -- stage-01).",
    "npm test: --target is an option of the lab's test command, not of vitest: npm run lab -- test stage-01 --target solution",
    "npm test: Unknown option `--bogus` (npm test passes its words to vitest; npx vitest --help lists its options).",
  ]);
  expect(
    problems.map((problem) => explainCommandLine(problem, { LANG: "zh_CN.UTF-8" })),
    "in Chinese, from the system's language",
  ).toEqual([
    "npm test: 没有第 13 阶段：阶段编号从 01 到 12（例如 npm test -- stage-01）。",
    "npm test: 没有第 02 阶段：这个检出里没有任何阶段（例如 npm test -- stage-01）。",
    "npm test: --target 是 lab 的 test 命令的选项，不是 vitest 的：npm run lab -- test stage-01 --target solution",
    "npm test: Unknown option `--bogus`（npm test 把参数原样交给 vitest；npx vitest --help 列出它的选项）。",
  ]);
  expect(
    explainCommandLine(problems[0] as CommandLineProblem, { FORGE_LANG: "fr", LANG: "en_US.UTF-8" }).split("\n"),
    "under FORGE_LANG=fr",
  ).toEqual([
    'FORGE_LANG="fr" names no edition of the course: use one of en, zh-CN, or leave it unset to follow the system\'s language.',
    "npm test: there is no stage 13: the stages are 01 to 12 (npm test -- stage-01).",
  ]);
});
