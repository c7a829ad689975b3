// The attack suite: one MCP server, started on a fresh folder (fixture.ts) and driven through the
// official SDK's Client over stdio, as any client would drive it. Each case class is tried with every
// read tool the server lists and with write_file, and every answer is judged: an escape is outside
// content or an outside-only name coming back in any result (an error's text included), or a file
// created or changed outside the root. The positive controls (reads, lists, searches and writes inside
// the root) must succeed, or the escape counts say nothing.
//
// A server that asks a person before a write (MCP elicitation, as stage 12's does) is answered by this
// client, which accepts every request with the value it offers (`planDigest`'s default): the table
// measures containment, not consent.
import { readFileSync, symlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { payloads, TARGET } from "../../stages/stage-02-workspace-path-policy/payloads.js";
import { type Answer, AttackClient } from "./client.js";
import { type Fixture, INSIDE, makeFixture } from "./fixture.js";
import { learnerModule, serverCommand, type ServerName } from "./servers.js";

export const CASE_CLASSES = [
  "prefix-sibling",
  "suffix-strip",
  "symlink",
  "late-symlink",
  "swapped-folder",
  "write-through-symlink",
  "case-spelled-symlink",
  "payloads-relative",
  "payloads-absolute",
] as const;
export type CaseClass = (typeof CASE_CLASSES)[number];

/** Why a class was not tried on this machine. */
export type PendingReason = "case-sensitive disk" | "names refused";

/** One escape, as the report shows it: the tool, its arguments (the root written `<root>`), what came back. */
export interface Escape {
  readonly caseClass: CaseClass;
  readonly tool: string;
  readonly args: string;
  readonly what: string;
}

export interface ClassTally {
  readonly attempts: number;
  readonly escapes: number;
  readonly pending: PendingReason | null;
  /** The first escapes, at most three. */
  readonly first: readonly Escape[];
  /**
   * The places outside the root that escapes reached, by the label the fixture gave them
   * (`prefix`, `suffix-quote`, `linked`, `two-folders-up`, `/etc/passwd`, `outside` for a write…), sorted.
   */
  readonly reached: readonly string[];
}

export interface ControlOutcome {
  readonly tool: string;
  readonly args: string;
  /** Null when the control passed; else what came back instead. */
  readonly problem: string | null;
}

export type ServerRun =
  | { readonly kind: "not written"; readonly name: ServerName; readonly module: string }
  | { readonly kind: "failed"; readonly name: ServerName; readonly error: string }
  | {
      readonly kind: "measured";
      readonly name: ServerName;
      /** What the server says it is: `serverInfo` name and version. */
      readonly server: string;
      /** The tools the suite called, and those it left alone (no path to attack, or not a read or write_file). */
      readonly tried: readonly string[];
      readonly untried: readonly string[];
      readonly controls: readonly ControlOutcome[];
      readonly classes: Readonly<Record<CaseClass, ClassTally>>;
      readonly calls: number;
      /** Elicitation requests the client accepted. */
      readonly approvals: number;
      readonly seconds: number;
      /** Per tool, its calls and the milliseconds they took, summed: where the seconds went. */
      readonly timings: Readonly<Record<string, { readonly calls: number; readonly ms: number }>>;
    };

export interface AttackOptions {
  /**
   * `all`: every path of the traversal lists (10,540, each relative and absolute). `sample`: every
   * PAYLOAD_SAMPLE_STEP-th of them, the first included, the same paths on every run.
   */
  readonly payloads: "all" | "sample";
}

/** The sample the lab's tests attack with: paths 0, 100, 200, … of payloads(), 106 of 10,540. */
export const PAYLOAD_SAMPLE_STEP = 100;

/** The traversal lists' lines, and the paths attacked: all of them, or the sample. */
export function traversalPaths(mode: AttackOptions["payloads"]): { lines: number; paths: readonly string[] } {
  const { lines, paths } = payloads();
  return { lines, paths: mode === "all" ? paths : paths.filter((_, index) => index % PAYLOAD_SAMPLE_STEP === 0) };
}

/** How many calls of the traversal lists' reads are in flight at once: answers do not depend on each other. */
const IN_FLIGHT = 4;

// ---------------------------------------------------------------------------------------------------
// The tools, and how each is called on a path

const quoted = (path: string) => `'${path.replaceAll("'", `'\\''`)}'`;

/** The read tools the suite knows, each called on one path. `run_command` reads with `ls` and `cat`. */
const READERS: Readonly<Record<string, (path: string, pattern: string) => Record<string, unknown>>> = {
  read_text_file: (path) => ({ path }),
  read_file: (path) => ({ path }),
  read_media_file: (path) => ({ path }),
  read_multiple_files: (path) => ({ paths: [path] }),
  list_directory: (path) => ({ path }),
  list_directory_with_sizes: (path) => ({ path }),
  directory_tree: (path) => ({ path }),
  search_files: (path, pattern) => ({ path, pattern }),
  get_file_info: (path) => ({ path }),
  run_command: (path) => ({ command: `ls -a -- ${quoted(path)}; cat -- ${quoted(path)}` }),
};
const FILE_READERS = new Set(["read_text_file", "read_file", "read_media_file", "read_multiple_files"]);
const LISTERS = new Set(["list_directory", "list_directory_with_sizes", "directory_tree", "search_files"]);

/**
 * What search_files is asked for, from how it describes itself: a glob over paths (the official server
 * since 2025.7), a part of a name (2025.3.28), or plain text in the files' lines (stage 12's). Each
 * matches every entry the search reaches, inside the root and out.
 */
function searchPattern(description: string): string {
  if (/glob/i.test(description)) return "**/*";
  if (/name/i.test(description)) return "";
  return INSIDE.searchWord;
}

// ---------------------------------------------------------------------------------------------------
// The run

interface Tally {
  attempts: number;
  escapes: number;
  pending: PendingReason | null;
  first: Escape[];
  reached: string[];
}

interface Leak {
  readonly what: string;
  readonly reached: string;
}

async function pool<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}

class Attack {
  readonly tallies: Record<CaseClass, Tally> = Object.fromEntries(
    CASE_CLASSES.map((name): [CaseClass, Tally] => [name, { attempts: 0, escapes: 0, pending: null, first: [], reached: [] }]),
  ) as Record<CaseClass, Tally>;
  readonly controls: ControlOutcome[] = [];
  readers: readonly string[] = [];
  writes = false;
  pattern: string = INSIDE.searchWord;

  constructor(
    readonly session: AttackClient,
    readonly fixture: Fixture,
  ) {}

  /** Arguments as a report shows them: the temporary folder's paths written from the root. */
  shown(args: Readonly<Record<string, unknown>>): string {
    return JSON.stringify(args).replaceAll(JSON.stringify(this.fixture.root).slice(1, -1), "<root>");
  }

  /** What of the outside an answer shows, and the label of the place it came from; or null. */
  leak(text: string): Leak | null {
    const { secret, unseen, machineSecret } = this.fixture;
    for (const [marker, what] of [
      [secret, "outside content"],
      [unseen, "an outside-only name"],
      [machineSecret, "this machine's /etc/passwd"],
    ] as const) {
      if (marker === null) continue;
      const at = text.indexOf(marker);
      if (at < 0) continue;
      const label = marker === machineSecret ? "/etc/passwd" : (/^[ -]([a-z-]+)/.exec(text.slice(at + marker.length))?.[1] ?? "?");
      // The line it came back on, from the root's point of view.
      const start = text.lastIndexOf("\n", at) + 1;
      const end = text.indexOf("\n", at);
      const line = text.slice(Math.max(start, at - 80), end < 0 ? at + marker.length + 60 : Math.min(end, at + marker.length + 60));
      return { what: `${what}: ${JSON.stringify(line.replaceAll(this.fixture.root, "<root>"))}`, reached: label };
    }
    return null;
  }

  escaped(caseClass: CaseClass, tool: string, args: Readonly<Record<string, unknown>>, leak: Leak): void {
    const tally = this.tallies[caseClass];
    tally.escapes += 1;
    if (tally.first.length < 3) tally.first.push({ caseClass, tool, args: this.shown(args), what: leak.what });
    if (!tally.reached.includes(leak.reached)) tally.reached = [...tally.reached, leak.reached].sort();
  }

  async read(caseClass: CaseClass, tool: string, path: string): Promise<void> {
    const build = READERS[tool];
    if (build === undefined) return;
    const args = build(path, this.pattern);
    this.tallies[caseClass].attempts += 1;
    const answer = await this.session.call(tool, args);
    const leak = this.leak(answer.text);
    if (leak !== null) this.escaped(caseClass, tool, args, leak);
  }

  async write(caseClass: CaseClass, path: string): Promise<void> {
    if (!this.writes) return;
    const args = { path, content: "written by the attack suite\n" };
    this.tallies[caseClass].attempts += 1;
    const answer = await this.session.call("write_file", args);
    const changes = this.fixture.changesOutside();
    const leak = this.leak(answer.text);
    if (changes.length > 0) {
      const what = changes.map((change) => `${change.kind} ${change.path.replaceAll(this.fixture.base, "<tmp>")}`).join("; ");
      this.escaped(caseClass, "write_file", args, { what, reached: changes[0]?.place ?? "?" });
    } else if (leak !== null) this.escaped(caseClass, "write_file", args, leak);
  }

  /** Every read tool on each path, then write_file on each of `writes`. */
  async each(caseClass: CaseClass, reads: readonly string[], writes: readonly string[]): Promise<void> {
    for (const path of reads) for (const tool of this.readers) await this.read(caseClass, tool, path);
    for (const path of writes) await this.write(caseClass, path);
  }

  pending(caseClass: CaseClass, reason: PendingReason): void {
    this.tallies[caseClass].pending = reason;
  }

  // The positive controls ------------------------------------------------------------------------

  async control(tool: string, args: Readonly<Record<string, unknown>>, expect: (answer: Answer) => string | null): Promise<void> {
    const answer = await this.session.call(tool, args);
    const outside = this.fixture.changesOutside();
    const problem =
      outside.length > 0
        ? `it changed the outside: ${outside.map((change) => `${change.kind} ${change.path}`).join("; ")}`
        : (this.leak(answer.text)?.what ?? (answer.isError ? `an error: ${answer.text.slice(0, 200)}` : expect(answer)));
    this.controls.push({ tool, args: this.shown(args), problem });
  }

  async positiveControls(): Promise<void> {
    const { root } = this.fixture;
    const has = (word: string) => (answer: Answer) =>
      answer.text.includes(word) ? null : `no ${JSON.stringify(word)} in ${JSON.stringify(answer.text.slice(0, 200))}`;
    for (const [form, at] of [
      ["relative", (path: string) => path],
      ["absolute", (path: string) => join(root, path)],
    ] as const) {
      for (const tool of this.readers) {
        const build = READERS[tool];
        if (build === undefined || tool === "run_command") continue;
        if (FILE_READERS.has(tool)) await this.control(tool, build(at(INSIDE.notes), this.pattern), has(INSIDE.notesText));
        else if (LISTERS.has(tool)) await this.control(tool, build(form === "relative" ? "." : root, this.pattern), has(INSIDE.notes));
        else await this.control(tool, build(at(INSIDE.notes), this.pattern), () => null);
      }
      if (!this.writes) continue;
      for (const [file, text] of [
        [`created-${form}.txt`, `created inside, ${form}\n`],
        [INSIDE.replaced, `replaced inside, ${form}\n`],
      ] as const) {
        await this.control("write_file", { path: at(file), content: text }, () => {
          let now: string;
          try {
            now = readFileSync(join(root, file), "utf8");
          } catch (error) {
            return `the file is not there: ${String(error)}`;
          }
          return now === text ? null : `the file holds ${JSON.stringify(now.slice(0, 100))}`;
        });
      }
    }
  }

  // The case classes -----------------------------------------------------------------------------

  async prefixSibling(): Promise<void> {
    const sibling = this.fixture.prefixSibling;
    const name = basename(sibling);
    await this.each(
      "prefix-sibling",
      [sibling, join(sibling, "secret.txt"), `../${name}`, `../${name}/secret.txt`],
      [join(sibling, "secret.txt"), join(sibling, "created-by-attack.txt"), `../${name}/secret.txt`, `../${name}/created-by-attack.txt`],
    );
  }

  async suffixStrip(): Promise<void> {
    if (this.fixture.suffixSiblings.size < 4) this.pending("suffix-strip", "names refused");
    for (const sibling of this.fixture.suffixSiblings.values()) {
      const relative = `../${basename(sibling)}`;
      await this.each(
        "suffix-strip",
        [sibling, join(sibling, "secret.txt"), relative, `${relative}/secret.txt`],
        [
          join(sibling, "secret.txt"),
          join(sibling, "created-by-attack.txt"),
          `${relative}/secret.txt`,
          `${relative}/created-by-attack.txt`,
        ],
      );
    }
  }

  /** The reads and writes of a pair of links in the root: one to a file outside, one to a folder outside. */
  links(file: string, folder: string): { reads: string[]; writes: string[] } {
    const { root } = this.fixture;
    const relative = [file, folder, `${folder}/secret.txt`];
    const writes = [file, `${folder}/secret.txt`, `${folder}/created-by-attack.txt`];
    return {
      reads: [...relative, ...relative.map((path) => join(root, path))],
      writes: [...writes, ...writes.map((path) => join(root, path))],
    };
  }

  async symlinks(): Promise<void> {
    const { reads, writes } = this.links("link-file", "link-dir");
    await this.each("symlink", reads, []);
    await this.each("write-through-symlink", [], writes);
  }

  /** Links made now, after the server started and answered: a check made once at start-up misses them. */
  async lateSymlinks(): Promise<void> {
    const { root, outside, outsideFile } = this.fixture;
    symlinkSync(outsideFile, join(root, "late-file"), "file");
    symlinkSync(outside, join(root, "late-dir"), process.platform === "win32" ? "junction" : "dir");
    const { reads, writes } = this.links("late-file", "late-dir");
    await this.each("late-symlink", reads, writes);
  }

  /** A folder read once, then replaced with a link to a folder outside: an answer cached by path would follow it. */
  async swappedFolder(): Promise<void> {
    const { root } = this.fixture;
    const files = ["swap/note.txt", join(root, "swap", "note.txt")];
    const paths = [...files, "swap", join(root, "swap")];
    for (const tool of this.readers) {
      const build = READERS[tool];
      if (build === undefined) continue;
      for (const path of paths) {
        this.fixture.unswap();
        await this.session.call(tool, build(path, this.pattern));
        this.fixture.swap();
        await this.read("swapped-folder", tool, path);
      }
    }
    if (this.writes) {
      for (const path of files) {
        this.fixture.unswap();
        await this.session.call("write_file", { path, content: "written inside first\n" });
        this.fixture.swap();
        await this.write("swapped-folder", path);
      }
    }
    this.fixture.unswap();
  }

  /** On a disk that folds case, `LINK-FILE` opens `link-file`: a check that compares names would miss it. */
  async caseSpelledSymlinks(): Promise<void> {
    if (this.fixture.caseSensitive) {
      this.pending("case-spelled-symlink", "case-sensitive disk");
      return;
    }
    const { reads, writes } = this.links("LINK-FILE", "Link-Dir");
    await this.each("case-spelled-symlink", reads, writes);
  }

  /**
   * The traversal lists, each path relative and under the root. A write aims at `etc/<canary>` instead
   * of `etc/passwd`: a server that lets it through creates a new file there (found and removed)
   * rather than replacing this machine's /etc/passwd.
   */
  async traversalLists(sample: boolean): Promise<void> {
    const { paths } = traversalPaths(sample ? "sample" : "all");
    const { root, canary } = this.fixture;
    const forms = [
      ["payloads-relative", (path: string) => path],
      ["payloads-absolute", (path: string) => `${root}/${path}`],
    ] as const;
    // Every read before any write: a write that lands inside the root must not change what a later read lists.
    for (const [caseClass, form] of forms) {
      const reads = paths.flatMap((path) => this.readers.map((tool) => [tool, form(path)] as const));
      await pool(reads, IN_FLIGHT, ([tool, path]) => this.read(caseClass, tool, path));
    }
    for (const [caseClass, form] of forms) {
      for (const path of paths) await this.write(caseClass, form(path.replaceAll(TARGET, `etc/${canary}`)));
    }
  }
}

/** Attacks one server in a folder of its own, removed afterwards; the server is stopped whatever happens. */
export async function attack(name: ServerName, options: AttackOptions): Promise<ServerRun> {
  const fixture = makeFixture();
  try {
    const command = serverCommand(name, fixture.root);
    if (command === null) return { kind: "not written", name, module: learnerModule() };
    const started = performance.now();
    let session: AttackClient;
    try {
      session = await AttackClient.open(command, fixture.root);
    } catch (error) {
      return { kind: "failed", name, error: error instanceof Error ? error.message : String(error) };
    }
    try {
      const run = new Attack(session, fixture);
      const listed = await session.tools();
      const names = listed.map((tool) => tool.name);
      run.readers = names.filter((tool) => Object.hasOwn(READERS, tool));
      run.writes = names.includes("write_file");
      run.pattern = searchPattern(listed.find((tool) => tool.name === "search_files")?.description ?? "");
      const info = session.client.getServerVersion();
      await run.positiveControls();
      await run.prefixSibling();
      await run.suffixStrip();
      await run.symlinks();
      await run.lateSymlinks();
      await run.swappedFolder();
      await run.caseSpelledSymlinks();
      await run.traversalLists(options.payloads === "sample");
      return {
        kind: "measured",
        name,
        server: info === undefined ? "(no serverInfo)" : `${info.name} ${info.version}`,
        tried: [...run.readers, ...(run.writes ? ["write_file"] : [])],
        untried: names.filter((tool) => !Object.hasOwn(READERS, tool) && tool !== "write_file"),
        controls: run.controls,
        classes: run.tallies,
        calls: session.calls,
        approvals: session.approvals,
        seconds: (performance.now() - started) / 1000,
        timings: Object.fromEntries(session.timings),
      };
    } catch (error) {
      return { kind: "failed", name, error: error instanceof Error ? error.message : String(error) };
    } finally {
      await session.close();
    }
  } finally {
    fixture.remove();
  }
}

/** Every escape a run found, the controls it failed: what decides the command's exit status. */
export function totals(run: ServerRun): { attempts: number; escapes: number; controlsFailed: number } {
  if (run.kind !== "measured") return { attempts: 0, escapes: 0, controlsFailed: 0 };
  const classes = Object.values(run.classes);
  return {
    attempts: classes.reduce((sum, tally) => sum + tally.attempts, 0),
    escapes: classes.reduce((sum, tally) => sum + tally.escapes, 0),
    controlsFailed: run.controls.filter((control) => control.problem !== null).length,
  };
}
