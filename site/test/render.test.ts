// The lesson renderer: a lesson or a reference module may contain any text, shell syntax included; its
// folds become the challenge path's parts.
import { expect, it } from "vitest";
import { loadCourse } from "../content.js";
import { challengeParts, lessonHtml } from "../render.js";
import { FOLDS, foldedStage } from "./support/challenge.js";

it("inserts the reference code and the widgets as they are, whatever $ sequences they contain", () => {
  const [first] = loadCourse().stages;
  if (!first) throw new Error("the course has stages");
  // `$&`, `$'`, `` $` `` and `$1` mean something to String.prototype.replace when given as a string.
  const code = 'const a = "$&"; const b = \'$1\'; const c = `$`` + "$\'x";';
  const hint = "Quote `$'\\x72m'` and `$&` exactly.";
  const html = lessonHtml({
    ...first,
    spec: { ...first.spec, hints: [hint, ...first.spec.hints.slice(1)] },
    solution: [{ path: "solutions/x/forge/tools/x.ts", code }],
  });
  const count = (needle: string) => html.split(needle).length - 1;
  expect(count('id="guided-practice"'), "the Guided practice heading appears once").toBe(1);
  expect(count("Reveal the reference solution"), "the reference listing appears once").toBe(1);
  expect(html, "the code keeps its $ sequences").toContain("$&amp;");
  expect(/<li class="hint" data-hint="0"[^>]*>(.*?)<\/li>/.exec(html)?.[1], "the first hint, rendered").toBe(
    "<strong>Hint 1.</strong> Quote <code>$'\\x72m'</code> and <code>$&amp;</code> exactly.",
  );
});

it("turns each fold of a lesson into a reveal marked as a challenge part, and leaves the generated blocks' details to their widgets", () => {
  const [first] = loadCourse().stages;
  if (!first) throw new Error("the course has stages");
  const content = foldedStage(first);
  const html = lessonHtml(content);
  const parts = [...html.matchAll(/<div class="reveal challenge-part" data-challenge-part>/g)].length;
  expect(parts, "challenge parts: each fold and the reference solution").toBe(FOLDS.length + 1);
  expect(challengeParts(content), "the count the page carries").toBe(FOLDS.length + 1);
  for (const [index, fold] of FOLDS.entries()) {
    const id = `fold-01-${index + 1}`;
    const body = new RegExp(`<div id="${id}" class="reveal-body" hidden>([\\s\\S]*?)</div></div>`).exec(html)?.[1] ?? "";
    expect(body, `the body of fold ${index + 1}, hidden until revealed`).toContain(fold.marker.replace(/\*\*/g, ""));
    expect(html, `the closed label of fold ${index + 1}`).toContain(
      `aria-controls="${id}" data-reveal><span data-label="closed">Open when stuck:`,
    );
  }
  expect(html, "a fold's code fence, rendered and highlighted, with its </details> line as code").toMatch(
    /<pre class="code" data-lang="ts"><code class="hljs">[\s\S]*?&lt;\/details&gt;[\s\S]*?<\/code><\/pre>/,
  );
  expect(html, "the summary's code span").toContain("the four steps, with <code>defineTool</code>");
  expect(html.replace(/<pre[\s\S]*?<\/pre>/g, ""), "fold tags left as text outside code").not.toMatch(/&lt;\/?(?:details|summary)&gt;/);
  expect(html, "the quiz widget replaces its block").toContain('data-quiz aria-labelledby="quiz-question"');
  expect(html, "the hints widget replaces its block").toContain("data-next-hint");
  expect(html, "answers and hints are not challenge parts").not.toContain("Open when stuck: Answer");
});

it("gives an empty header cell of a lesson's table no header role", () => {
  const [first] = loadCourse().stages;
  if (!first) throw new Error("the course has stages");
  const readme = first.readme.replace("\n## Predict\n", "\n| | yes | no |\n|---|---|---|\n| a | 1 | 2 |\n\n## Predict\n");
  const html = lessonHtml({ ...first, readme });
  expect(html, "the table's header row").toContain("<thead>\n<tr>\n<td></td>\n<th>yes</th>\n<th>no</th>");
  expect(html, "an empty th anywhere").not.toContain("<th></th>");
});

it("links lessons and the course map from the page that links them", () => {
  const [first] = loadCourse().stages;
  if (!first) throw new Error("the course has stages");
  const readme = first.readme.replace(
    "\n## Predict\n",
    "\nSee [the map](../README.md), [stage 02](../stage-02-workspace-path-policy/README.md) and [a file](../../lab/core/layout.ts).\n\n## Predict\n",
  );
  const html = lessonHtml({ ...first, readme });
  expect(html, "the map from a lesson").toContain('<a href="../course-map.html">the map</a>');
  expect(html, "a lesson from a lesson").toContain('<a href="../stages/stage-02-workspace-path-policy.html">stage 02</a>');
  expect(html, "a repository file is named, not linked").toContain('data-repository-path="../../lab/core/layout.ts"');
});

it("shows every fault of a stage in the instructor view, each with its contract, command and diff", () => {
  const stage05 = loadCourse().stages.find(({ stage }) => stage.nn === "05");
  if (!stage05) throw new Error("the course has stage 05");
  const html = lessonHtml(stage05);
  const view = /<div id="instructor-05" class="reveal-body" hidden>([\s\S]*?)<\/div><\/div>/.exec(html)?.[1] ?? "";
  const faults = [...view.matchAll(/<h3>Fault <code>([a-z0-9-]+)<\/code><\/h3>/g)].map((match) => match[1]);
  expect(faults, "the faults the instructor view names, in order").toEqual(["unlooped-short-write", "partial-write"]);
  expect(view, "the command that demonstrates the further fault").toContain("partial-write");
  expect(view, "the further fault's file").toContain("faulty/stage-05-atomic-write/partial-write.patch");
  expect(view.split('class="code diff"').length - 1, "one diff per fault").toBe(2);
});
