// The type-check of a learner folder moved elsewhere (FORGE_WORKSPACE): the project file that points the
// compiler at it is written once and kept, so a check on every save in watch mode does not pay a write
// and an fsync for a file that says the same.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { typecheckWorkspace, workspaceTsconfigPath } from "../../vitest/typecheck.js";
import { temporaryFolder } from "../../testing.js";

it("writes a moved workspace's project file once, keeps it while it is right, and writes it again once it is not", async (context) => {
  const workspace = join(temporaryFolder({ insideRepository: true, onFinished: context.onTestFinished }), "workspace");
  const module = join(workspace, "forge", "tools", "sum.ts");
  mkdirSync(join(module, ".."), { recursive: true });
  const project = workspaceTsconfigPath(workspace);
  context.onTestFinished(() => rmSync(project, { force: true }));

  writeFileSync(module, "export const sum = (a: number, b: number): number => a + b;\n");
  expect(await typecheckWorkspace(workspace), "diagnostics of a module that type-checks").toEqual([]);
  const written = statSync(project);
  const text = readFileSync(project, "utf8");
  expect(JSON.parse(text).include, "the folder the project file points the compiler at").toEqual([
    join(workspace, "forge", "tools", "**", "*.ts"),
  ]);

  // An edit makes a new check; the project file it needs is the same, so it is the same file (a write
  // would have renamed a new one into place, with a new inode).
  writeFileSync(module, 'export const sum = (a: number, b: number): number => a + b + "";\n');
  const diagnostics = await typecheckWorkspace(workspace);
  expect(
    diagnostics.map((diagnostic) => diagnostic.code),
    "the codes of a check after an edit",
  ).toEqual(["TS2322"]);
  const kept = statSync(project);
  expect({ inode: kept.ino, modified: kept.mtimeMs }, "the project file after a second check").toEqual({
    inode: written.ino,
    modified: written.mtimeMs,
  });

  // A project file damaged meanwhile is written again, whole.
  writeFileSync(project, "{ damaged");
  writeFileSync(module, "export const sum = (a: number, b: number): number => b + a;\n");
  expect(await typecheckWorkspace(workspace), "diagnostics once the project file is written again").toEqual([]);
  expect(readFileSync(project, "utf8"), "the project file after it was damaged and checked again").toBe(text);

  // A FIFO where the project file belongs: reading it to compare must not wait for a writer that never
  // comes; the check replaces it with the file.
  rmSync(project);
  execFileSync("mkfifo", [project]);
  writeFileSync(module, "export const sum = (a: number, b: number): number => a + b + 0;\n");
  expect(await typecheckWorkspace(workspace), "diagnostics once a FIFO stood where the project file belongs").toEqual([]);
  expect(statSync(project).isFile(), "a regular file where the FIFO was").toBe(true);
  expect(readFileSync(project, "utf8"), "the project file that replaced the FIFO").toBe(text);
});
