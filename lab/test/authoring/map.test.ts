// The course map (stages/README.md): its learning path is derived from the repository, its generated
// blocks are fresh, and the tool loop it shows as the prerequisite type-checks and runs.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { loadCatalog } from "../../catalog/load.js";
import { headings } from "../../authoring/lesson.js";
import { runCheckedAgent, type Harness } from "../../../stages/agent-loop-checked.js";
import { exportedNames, learningPath, relativeImports, syncCourseMap } from "../../authoring/map.js";
import { courseMapSync } from "../../authoring/generated.js";
import { dirs } from "../../core/layout.js";
import { runAgent, type Model, type Reply, type Tool } from "../../../stages/agent-loop.js";

const catalog = loadCatalog();

it("reads a module's relative imports and its exported functions and classes", () => {
  const source = [
    'import { atomicWrite } from "./atomic.js";',
    'import type { Approval } from "./approval.js";',
    'export type { Approval } from "./approval.js";',
    'import { z } from "zod";',
    'import path from "node:path";',
    "export async function apply() {}",
    "export class Journal {}",
    "export const LIMIT = 4;",
    "export interface Shape {}",
    "function helper() {}",
  ].join("\n");
  expect(relativeImports(source), "modules imported from the same folder").toEqual(["atomic", "approval"]);
  expect(exportedNames(source), "exported functions and classes").toEqual(["apply", "Journal"]);
});

it("derives what each stage depends on and who uses it from the imports of its reference", () => {
  const path = learningPath(catalog.stages);
  const short = (ids: readonly string[]) => ids.map((id) => id.slice(6, 8));
  const graph = Object.fromEntries(path.map((stage) => [stage.nn, { dependsOn: short(stage.dependsOn), usedBy: short(stage.usedBy) }]));
  expect(graph, "each stage's dependencies and users").toEqual({
    "01": { dependsOn: [], usedBy: ["12"] },
    "02": { dependsOn: [], usedBy: ["07", "12"] },
    "03": { dependsOn: [], usedBy: ["07"] },
    "04": { dependsOn: [], usedBy: ["07", "12"] },
    "05": { dependsOn: [], usedBy: ["06", "07"] },
    "06": { dependsOn: ["05"], usedBy: ["07"] },
    "07": { dependsOn: ["02", "03", "04", "05", "06"], usedBy: ["12"] },
    "08": { dependsOn: [], usedBy: ["12"] },
    "09": { dependsOn: [], usedBy: ["12"] },
    "10": { dependsOn: [], usedBy: ["11"] },
    "11": { dependsOn: ["10"], usedBy: ["12"] },
    "12": { dependsOn: ["01", "02", "04", "07", "08", "09", "11"], usedBy: [] },
  });
  const registry = path.find((stage) => stage.nn === "01");
  expect(registry?.modules, "stage 01's module").toEqual(["forge/tools/registry.ts"]);
  expect(registry?.exports, "stage 01's exported API").toContain("ToolRegistry");
  for (const stage of path) {
    const spec = catalog.stages.find((candidate) => candidate.id === stage.id)?.spec;
    expect(stage.tests, `${stage.id}: the tests of its suite`).toBe(
      new Set([...(spec?.mastery ?? []), ...(spec?.transfer.tests ?? [])]).size,
    );
  }
});

it("keeps the course map's generated blocks fresh, with its sections in order", () => {
  const text = readFileSync(dirs.courseMap, "utf8");
  const sync = courseMapSync(catalog);
  expect(sync.problems, "problems with the course map").toEqual([]);
  expect(sync.text === text, "stages/README.md is what npm run generate makes of it").toBe(true);
  expect(headings(text), "the course map's sections").toEqual([
    "Where this course sits",
    "Concepts",
    "Before you start",
    "When you are stuck",
    "The learning path",
  ]);
  expect(text, "the map shows the tool loop's file as it is").toContain(readFileSync(dirs.agentLoop, "utf8").trimEnd());
  expect(text, "the map shows the checked loop's file as it is").toContain(readFileSync(dirs.checkedAgentLoop, "utf8").trimEnd());
  for (const stage of catalog.stages) expect(text, `the map links ${stage.id}`).toContain(`](${stage.id}/README.md)`);
});

it("names a generated block missing from the course map", () => {
  const sync = syncCourseMap("# Course map\n\n<!-- forge:loop -->\n<!-- /forge:loop -->\n", catalog.stages, {
    loop: "export {};\n",
    checked: "export const checked = 1;\n",
  });
  expect(sync.problems, "problems of a map without the checked loop and path blocks").toEqual([
    "missing the generated block <!-- forge:checked-loop --> … <!-- /forge:checked-loop -->",
    "missing the generated block <!-- forge:path --> … <!-- /forge:path -->",
  ]);
  expect(sync.text, "the loop block, filled").toContain("```ts\nexport {};\n```");
});

it("runs the course map's tool loop: a tool call, an unknown tool, then an answer; and stops after its turns", async () => {
  const script: Reply[] = [
    { kind: "call", tool: "read", input: "notes.txt" },
    { kind: "call", tool: "delete", input: "notes.txt" },
    { kind: "answer", text: "done" },
  ];
  const seen: string[][] = [];
  const model: Model = async (transcript) => {
    seen.push([...transcript]);
    return script[seen.length - 1] ?? { kind: "answer", text: "script ran out" };
  };
  const tools = new Map<string, Tool>([["read", async (input) => `contents of ${String(input)}`]]);
  expect(await runAgent(model, tools, "summarize notes.txt"), "the model's answer").toBe("done");
  expect(seen.at(-1), "the transcript the model saw last").toEqual([
    "summarize notes.txt",
    "contents of notes.txt",
    "there is no tool named delete",
  ]);
  const forever: Model = async () => ({ kind: "call", tool: "read", input: "again" });
  await expect(runAgent(forever, tools, "loop", 3), "a model that never answers").rejects.toThrow("no answer after 3 turns");
});

it("runs the checked loop: each call goes to the harness, whose refusal reaches the model as a refusal", async () => {
  const script: Reply[] = [
    { kind: "call", tool: "read_text_file", input: { path: "/srv/allowed_evil/secret.txt" } },
    { kind: "call", tool: "read_text_file", input: "not an object" },
    { kind: "answer", text: "done" },
  ];
  const seen: string[][] = [];
  const model: Model = async (transcript) => {
    seen.push([...transcript]);
    return script[seen.length - 1] ?? { kind: "answer", text: "script ran out" };
  };
  const calls: unknown[] = [];
  const harness: Harness = {
    callTool: async (call) => {
      calls.push(call);
      return typeof call.arguments.path === "string"
        ? { content: [{ type: "text", text: "outside_root: path is outside the root" }], isError: true }
        : {
            content: [
              { type: "text", text: "invalid_arguments: path: required" },
              { type: "text", text: "second" },
            ],
          };
    },
  };
  expect(await runCheckedAgent(model, harness, "read the secret", 3), "the model's answer").toBe("done");
  expect(calls, "what the harness was asked").toEqual([
    { name: "read_text_file", arguments: { path: "/srv/allowed_evil/secret.txt" } },
    { name: "read_text_file", arguments: {} },
  ]);
  expect(seen.at(-1), "the transcript the model saw last").toEqual([
    "read the secret",
    "refused: outside_root: path is outside the root",
    "invalid_arguments: path: required\nsecond",
  ]);
  const forever: Model = async () => ({ kind: "call", tool: "list_directory", input: {} });
  await expect(runCheckedAgent(forever, harness, "loop", 2), "a model that never answers").rejects.toThrow("no answer after 2 turns");
});
