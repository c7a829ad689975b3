// The lesson renderer: a lesson or a reference module may contain any text, shell syntax included.
import { expect, it } from "vitest";
import { loadCourse } from "../content.js";
import { lessonHtml } from "../render.js";

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
