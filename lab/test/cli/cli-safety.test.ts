// The lab CLI never loses a learner's work: each test reproduces a way `start` or `restore` once lost or
// stranded learner bytes, in a temporary copy of the repository, with the file system made to misbehave
// at a planned moment by lab/test/support/inject.mjs.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { main } from "../../cli/commands.js";
import { copyRepository, lab, reference, SLOW, snapshot, tools } from "../support/cli.js";

const MINE = { registry: "// my registry, in progress\n", paths: "// my path policy, in progress\n" };

/** A workspace with the learner's own stage 01 and 02 modules. */
function learnerWorkspace(copy: string): void {
  mkdirSync(tools(copy), { recursive: true });
  writeFileSync(join(tools(copy), "registry.ts"), MINE.registry);
  writeFileSync(join(tools(copy), "paths.ts"), MINE.paths);
}

const backups = (copy: string) => (existsSync(join(copy, ".lab", "backups")) ? readdirSync(join(copy, ".lab", "backups")).sort() : []);

it.concurrent("restore keeps what it replaces in a new backup, so a restore can itself be undone byte for byte", SLOW, async (context) => {
  const copy = copyRepository(context);
  learnerWorkspace(copy);
  const original = snapshot(join(copy, "workspace"));
  expect((await lab(copy, ["start", "4", "--yes"])).status).toBe(0);
  // Edits made after start: lost by a restore that keeps no copy.
  const edited = "// edited after start: hours of work\n";
  writeFileSync(join(tools(copy), "paths.ts"), edited);
  const afterEdit = snapshot(join(copy, "workspace"));

  const restored = await lab(copy, ["restore", "--yes"]);
  expect(restored.status, restored.stderr).toBe(0);
  expect(snapshot(join(copy, "workspace")), "workspace after restore: as before start").toEqual(original);
  const undo = /undo this restore with: npm run lab -- restore (\S+)/.exec(restored.stdout)?.[1];
  expect(undo, `restore names the backup that undoes it:\n${restored.stdout}`).toBeDefined();
  expect(
    readFileSync(join(copy, ".lab", "backups", undo ?? "", "files", "forge", "tools", "paths.ts"), "utf8"),
    "the edit is in the new backup",
  ).toBe(edited);

  const undone = await lab(copy, ["restore", undo ?? "", "--yes"]);
  expect(undone.status, undone.stderr).toBe(0);
  expect(snapshot(join(copy, "workspace")), "workspace after undoing the restore: the edited state again").toEqual(afterEdit);
});

it.concurrent(
  "start stops without losing an editor's save that lands after the backup, and says which file changed",
  SLOW,
  async (context) => {
    const copy = copyRepository(context);
    learnerWorkspace(copy);
    const saved = "// saved by the editor while start ran\n";
    // Right after the backup's manifest is on disk, before any workspace file is replaced, the editor saves.
    const run = await lab(copy, ["start", "4", "--yes"], {
      inject: [{ call: "renameSync", path: "manifest.json", do: `save:${join(tools(copy), "registry.ts")}=${saved}` }],
    });
    expect(run.status, run.stdout).toBe(1);
    expect(run.stderr).toMatch(
      /start failed before changing any file: workspace\/forge\/tools\/registry\.ts changed while start ran \([0-9a-f]{12} → [0-9a-f]{12}\); stopped before replacing it/,
    );
    expect(readFileSync(join(tools(copy), "registry.ts"), "utf8"), "the editor's save").toBe(saved);
    expect(readFileSync(join(tools(copy), "paths.ts"), "utf8")).toBe(MINE.paths);
    expect(existsSync(join(tools(copy), "plans.ts")), "nothing was created").toBe(false);
    expect(backups(copy), "no backup is needed when nothing changed").toEqual([]);
  },
);

it.concurrent(
  "a rollback that fails keeps the backup, names every file that differs and where its original is, and restore finishes the job",
  SLOW,
  async (context) => {
    const copy = copyRepository(context);
    learnerWorkspace(copy);
    const original = snapshot(join(copy, "workspace"));
    // The disk fills up after the first workspace file is replaced: the second write and the rollback fail.
    const run = await lab(copy, ["start", "4", "--yes"], {
      inject: [{ call: "open", path: "/workspace/forge/tools/.", from: 2, times: 0, do: "fail:ENOSPC" }],
    });
    expect(run.status, run.stdout).toBe(1);
    expect(run.stderr).not.toMatch(/rolled back, unchanged/);
    const [name] = backups(copy);
    expect(run.stderr).toContain("start failed: the disk is full");
    expect(run.stderr).toContain("The rollback did not complete: 1 file(s) differ from before the command:");
    expect(run.stderr).toContain(
      `workspace/forge/tools/registry.ts: could not be put back: the disk is full (ENOSPC: injected failure) (original: .lab/backups/${name}/files/forge/tools/registry.ts)`,
    );
    expect(
      readFileSync(join(copy, ".lab", "backups", name ?? "", "files", "forge", "tools", "registry.ts"), "utf8"),
      "the original, kept",
    ).toBe(MINE.registry);

    // Space again: restore brings back every original.
    const restored = await lab(copy, ["restore", name ?? "", "--yes"]);
    expect(restored.status, restored.stderr).toBe(0);
    expect(snapshot(join(copy, "workspace"))).toEqual(original);
  },
);

it.concurrent(
  "a rollback touches only files the command changed, and a read-only workspace gets one clear message, never a stack",
  SLOW,
  async (context) => {
    const copy = copyRepository(context);
    learnerWorkspace(copy);
    const original = snapshot(join(copy, "workspace"));
    // The second replacement fails, and paths.ts (never changed) cannot be written at all, as an immutable file.
    const run = await lab(copy, ["start", "4", "--yes"], {
      inject: [
        { call: "rename", path: "/workspace/forge/tools/", from: 2, do: "fail:EIO" },
        { call: "rename", path: "/workspace/forge/tools/paths.ts", times: 0, do: "fail:EPERM" },
      ],
    });
    expect(run.stderr).toMatch(/^start failed and workspace\/ was rolled back, unchanged: EIO: injected failure\n?$/);
    expect(snapshot(join(copy, "workspace"))).toEqual(original);

    // Every write under workspace/ refused, as on a read-only mount: start and restore say so and exit 1.
    const readOnly = [
      { call: "open" as const, path: "/workspace/", times: 0, do: "fail:EROFS" },
      { call: "unlink" as const, path: "/workspace/", times: 0, do: "fail:EROFS" },
      { call: "unlinkSync" as const, path: "/workspace/", times: 0, do: "fail:EROFS" },
    ];
    const started = await lab(copy, ["start", "4", "--yes"], { inject: readOnly });
    expect(started.status).toBe(1);
    expect(started.stderr).toMatch(
      /^start failed before changing any file: the file system is read-only \(EROFS: injected failure\)\. workspace\/ is as it was\.\n?$/,
    );
    expect((await lab(copy, ["start", "4", "--yes"])).status).toBe(0);
    const restore = await lab(copy, ["restore", "--yes"], { inject: readOnly });
    expect(restore.status).toBe(1);
    expect(restore.stderr).toMatch(/^restore failed before changing any file: the file system is read-only/);
    expect(restore.stderr).not.toMatch(/\n\s+at /);
  },
);

it.concurrent(
  "only one start or restore runs at a time: a live lock names its process, a dead one is taken over",
  SLOW,
  async (context) => {
    const copy = copyRepository(context);
    learnerWorkspace(copy);
    mkdirSync(join(copy, ".lab"), { recursive: true });
    const lock = join(copy, ".lab", "lock");
    writeFileSync(
      lock,
      JSON.stringify({ pid: process.pid, command: "start stage-05-atomic-write", startedAt: "2026-01-01T00:00:00.000Z" }),
    );
    const refused = await lab(copy, ["start", "4", "--yes"]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      `Another lab command is changing workspace/: "start stage-05-atomic-write" (process ${process.pid}, since 2026-01-01T00:00:00.000Z)`,
    );
    expect(readFileSync(join(tools(copy), "registry.ts"), "utf8")).toBe(MINE.registry);

    // A process that no longer exists: its lock is stale, and the next command says what it left.
    const gone = Number(execFileSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }));
    writeFileSync(
      lock,
      JSON.stringify({
        pid: gone,
        command: "start stage-03-dry-run-change-plan",
        startedAt: "2026-01-01T00:00:00.000Z",
        backup: "2026-01-01T00-00-00-000Z",
      }),
    );
    const taken = await lab(copy, ["start", "4", "--yes"]);
    expect(taken.status, taken.stderr).toBe(0);
    expect(taken.stdout).toContain(`Note: an earlier lab command did not finish ("start stage-03-dry-run-change-plan", process ${gone}`);
    expect(existsSync(lock), "the lock is released").toBe(false);

    // A FIFO where the lock belongs names no holder: it is never read (that would wait forever) and is
    // taken over like a dead lock.
    execFileSync("mkfifo", [lock]);
    const overFifo = await lab(copy, ["start", "4", "--yes"]);
    expect(overFifo.status, `start with a FIFO for .lab/lock: ${overFifo.stderr}`).toBe(0);
    expect(existsSync(lock), "the lock is released again").toBe(false);

    // Two commands at once: whatever the order, no learner byte is lost and restore brings it all back.
    const both = await Promise.all([lab(copy, ["restore", "--yes"]), lab(copy, ["restore", "--yes"])]);
    const outcomes = both
      .map((run) =>
        run.status === 0 ? "done" : /Another lab command|no backup left/.test(run.stderr) ? "refused" : `other: ${run.stderr}`,
      )
      .sort();
    expect(outcomes).toEqual(["done", "refused"]);
    expect(readFileSync(join(tools(copy), "registry.ts"), "utf8")).toBe(MINE.registry);
    expect(readFileSync(join(tools(copy), "paths.ts"), "utf8")).toBe(MINE.paths);
  },
);

it.concurrent("refuses a folder or a FIFO where a module belongs, with a message, instead of a stack or a hang", SLOW, async (context) => {
  const copy = copyRepository(context);
  mkdirSync(join(tools(copy), "registry.ts"), { recursive: true });
  const folder = await lab(copy, ["start", "3", "--yes"]);
  expect(folder.status).toBe(1);
  expect(folder.stderr).toMatch(
    /^workspace\/forge\/tools\/registry\.ts is a folder, not a file: move it out of the way and run the command again\. Nothing was changed\./,
  );
  execFileSync("mkfifo", [join(tools(copy), "paths.ts")]);
  const fifo = await lab(copy, ["start", "3", "--yes"]);
  expect(fifo.status).toBe(1);
  expect(fifo.stderr).toMatch(/workspace\/forge\/tools\/(registry|paths)\.ts is a (folder|FIFO), not a file/);
  const status = await lab(copy, ["status"]);
  expect(status.status, "status reads no FIFO").toBe(0);
  expect(status.stdout).toContain("workspace/forge/tools/paths.ts is a FIFO, not a file");
});

it.concurrent(
  "sweeps the temporary files a killed write left, keeps a 0600 file 0600 in its backup, and restores only backups it made",
  SLOW,
  async (context) => {
    const copy = copyRepository(context);
    learnerWorkspace(copy);
    chmodSync(join(tools(copy), "registry.ts"), 0o600);
    writeFileSync(join(tools(copy), ".registry.ts.0123456789abcdef.tmp"), "half a file from a killed write");
    const run = await lab(copy, ["start", "4", "--yes"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      "Removed 1 temporary file(s) an interrupted write left in workspace/forge/tools/: .registry.ts.0123456789abcdef.tmp",
    );
    expect(readdirSync(tools(copy)).sort(), "workspace/forge/tools/ after start 4").toEqual(["paths.ts", "plans.ts", "registry.ts"]);
    const [name = ""] = backups(copy);
    expect(
      statSync(join(copy, ".lab", "backups", name, "files", "forge", "tools", "registry.ts")).mode & 0o777,
      "mode of the backup of a 0600 file",
    ).toBe(0o600);
    expect(statSync(join(tools(copy), "registry.ts")).mode & 0o777, "mode of the replaced 0600 file").toBe(0o600);

    for (const name of ["../../package.json", "/etc", "..", "constructor"]) {
      const refused = await lab(copy, ["restore", name, "--yes"]);
      expect(refused.status, name).toBe(1);
      expect(refused.stderr, name).toContain(`No backup named "${name}" in .lab/backups/.`);
    }
    expect((await lab(copy, ["restore", "--yes"])).status).toBe(0);
    expect(statSync(join(tools(copy), "registry.ts")).mode & 0o777, "mode after restore").toBe(0o600);
  },
);

it("answers a command named after an Object.prototype property as an unknown command, with exit 2", async () => {
  for (const name of ["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty"]) {
    const err: string[] = [];
    const out: string[] = [];
    const status = await main([name], { out: (line = "") => out.push(line), err: (line = "") => err.push(line) });
    expect({ name, status, err: err.join("\n") }).toEqual({
      name,
      status: 2,
      err: `"${name}" is not a command. Commands: status, start, restore, fault, hint, test, export, class, verify, doctor, new, new-fault, serve, mcp-attack`,
    });
    const help = await main([name, "--help"], { out: (line = "") => out.push(line), err: (line = "") => err.push(line) });
    expect(help, `${name} --help`).toBe(2);
  }
});
