// Stage 11: a native program run with the exact arguments it was given, or not at all. Where no sandbox
// can fence the process, the executor refuses before anything happens instead of running it unconfined
// under a label. A request is a closed record of typed values: an absolute executable, argv items that
// are literals (passed exactly) or absolute paths (normalized), and the encoding of each output stream.
// No shell stands between the request and the process, and a program known to read its arguments as
// code runs only when the request says so. The policy and the native switch are read again at every
// phase, the checks before a process starts are bounded in time, a prepared request is a capability
// only this executor can issue, and one AbortController per operation ends the whole process for a
// cancel or a timeout; what a program leaves behind in its process group is ended when it exits. Each
// output stream goes through its own stage 10 decoder.
import { spawn as nodeSpawn, type ChildProcessByStdio } from "node:child_process";
import { stat as fsStat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { z } from "zod";
import { drain, ENCODINGS, ERROR_MODES, StreamDecoder, type Encoding, type ErrorMode, type OutputFacts } from "./output.js";

export type Platform = "win32" | "linux" | "darwin";
export const PLATFORMS: readonly Platform[] = Object.freeze(["win32", "linux", "darwin"]);

/** The only policy under which this executor starts a native process. */
export const FULL_ACCESS = "danger-full-access";

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
export const MAX_ARGV_ITEMS = 4096;
/** How long a process gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2_000;
/** How long the checks before a process starts may wait for the disk: prepare's, and execute's look at the folder. */
export const PREPARATION_TIMEOUT_MS = 5_000;
/** The longest command line Windows' CreateProcess takes, in UTF-16 units, its terminating NUL included. */
export const WINDOWS_COMMAND_LINE_MAX = 32_767;

/** `native`: a program whose arguments are data. `interpreter`: the request knows the program reads them as code. */
export const ENTRYPOINTS = ["native", "interpreter"] as const;
export type Entrypoint = (typeof ENTRYPOINTS)[number];

// ---------------------------------------------------------------------------------------------------
// Errors

export class SandboxUnavailableError extends Error {
  readonly code = "SANDBOX_UNAVAILABLE";
  constructor(message: string) {
    super(message);
    this.name = "SandboxUnavailableError";
  }
}

export class NativeDisabledError extends Error {
  readonly code = "NATIVE_DISABLED";
  constructor(message: string) {
    super(message);
    this.name = "NativeDisabledError";
  }
}

/** A request that breaks the contract. `problems` names every one, each with the field it is about. */
export class NativeRequestError extends Error {
  readonly code = "NATIVE_REQUEST_INVALID";
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`invalid native request: ${problems.join("; ")}`);
    this.name = "NativeRequestError";
    this.problems = Object.freeze([...problems]);
  }
}

// ---------------------------------------------------------------------------------------------------
// Values in messages

/** A value quoted as JSON (a NUL shows as \u0000), cut when it is long: the message goes back to a model. */
function quote(value: string): string {
  return value.length <= 120 ? JSON.stringify(value) : `${JSON.stringify(`${value.slice(0, 120)}…`)} (${value.length} characters)`;
}

/** Names a value without calling anything it defines. */
function describe(value: unknown): string {
  if (typeof value === "string") return quote(value);
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "function") return "a function";
  return String(value);
}

// ---------------------------------------------------------------------------------------------------
// Typed paths: a pure check of the string, no IO

/** `C:\…` or `C:/…`: a Windows path with a drive. UNC, device (`\\?\`) and drive-relative (`C:x`) forms are not. */
const WINDOWS_ABSOLUTE = /^[A-Za-z]:[\\/]/;
type PathForm = "windows" | "posix";

function formOf(value: string): PathForm | null {
  if (WINDOWS_ABSOLUTE.test(value)) return "windows";
  return value.startsWith("/") ? "posix" : null;
}

/** A UTF-16 surrogate without its pair: it cannot be turned into the bytes of an argument. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** `$HOME`, `${HOME}`, `%USERPROFILE%`: what a shell would expand, and nothing here does. */
const VARIABLE = /\$\{[^}]*\}?|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%/;

function literalProblem(value: string): string | null {
  if (value.includes("\0")) return `${quote(value)} contains a NUL byte`;
  if (LONE_SURROGATE.test(value)) return `${quote(value)} contains a lone surrogate, which cannot be passed exactly`;
  return null;
}

/** What is wrong with a typed path value, or null. A path is absolute and says what it means. */
function pathProblem(value: string): string | null {
  if (value.trim() === "") return "required";
  const basic = literalProblem(value);
  if (basic !== null) return basic;
  if (value.startsWith("~")) return `${quote(value)} starts with ~, which is not expanded (there is no shell): give the absolute path`;
  const variable = VARIABLE.exec(value)?.[0];
  if (variable !== undefined) return `${quote(value)} names ${variable}, which is not expanded (there is no shell): give the absolute path`;
  const form = formOf(value);
  if (form === null) return `${quote(value)} is not absolute: give the whole path, C:\\… on Windows or /… elsewhere`;
  // Refused, not folded: "a/link/.." means the parent of the link's target to the kernel, "a" to a string.
  const segments = form === "windows" ? value.split(/[\\/]/) : value.split("/");
  if (segments.includes("..")) return `${quote(value)} contains "..": give the path without it`;
  return null;
}

/** One spelling per path, with no change of meaning: separators unified, `.` and doubled separators gone. */
function normalizePath(value: string): string {
  return formOf(value) === "windows" ? path.win32.normalize(value) : path.posix.normalize(value);
}

/** `.bat` and `.cmd`, in any case, even with the trailing dots and spaces Windows drops from a name. */
const BATCH_FILE = /\.(?:bat|cmd)[. ]*$/i;

function executableProblem(value: string): string | null {
  if (value !== "" && !/[\\/]/.test(value)) {
    return `${quote(value)} is a bare command name: nothing is looked up in PATH, give the absolute path of the program`;
  }
  const problem = pathProblem(value);
  if (problem !== null) return problem;
  if (BATCH_FILE.test(value)) {
    return `${quote(value)} is a batch file: Windows runs .bat and .cmd through cmd.exe, which parses the arguments again (BatBadBut, CVE-2024-27980)`;
  }
  if (formOf(value) === "windows" && !/\.exe$/i.test(value))
    return `${quote(value)} does not name a .exe: on Windows only a .exe runs here`;
  return null;
}

// ---------------------------------------------------------------------------------------------------
// Programs that read their arguments as code: a guard against a shell coming back in, not an identification

/**
 * Shells, interpreters and programs that start the program their arguments name. A typed argv keeps
 * every argument literal; one of these turns them back into code (`sh -c`, `cmd /c`, `node -e`,
 * `env sh -c`), so it runs only when the request declares the `interpreter` entry point. A renamed
 * copy, or a program with a language of its own, is not recognised: this is a guard, not a proof.
 */
export const KNOWN_INTERPRETERS: Readonly<Record<"shell" | "interpreter" | "command runner", readonly string[]>> = Object.freeze({
  shell: Object.freeze(
    "ash bash busybox cmd command csh dash elvish fish ksh mksh nu powershell pwsh rbash sh tcsh wsl xonsh yash zsh".split(" "),
  ),
  interpreter: Object.freeze(
    (
      "awk bun cscript deno elixir expect gawk groovy irb julia lua luajit mawk mshta nawk node nodejs osascript perl php py pypy " +
      "python pythonw pyw r rscript ruby tclsh wish wscript"
    ).split(" "),
  ),
  "command runner": Object.freeze(
    "chroot doas env flock ionice nice nohup nsenter runas runuser script setsid stdbuf strace su sudo taskset time timeout unshare watch xargs".split(
      " ",
    ),
  ),
});

const INTERPRETER_KIND = new Map<string, string>(
  Object.entries(KNOWN_INTERPRETERS).flatMap(([kind, names]) => names.map((name) => [name, kind] as const)),
);

/**
 * The name a program is known by: the last segment of its path, in lower case (Windows and macOS ignore
 * case), without the trailing dots and spaces Windows drops, its last extension and a version at its
 * end. `C:\Python312\Python.EXE` is `python`, and so is `/usr/bin/python3.12`.
 */
function programName(value: string): string {
  const base = formOf(value) === "windows" ? path.win32.basename(value) : path.posix.basename(value);
  return base
    .toLowerCase()
    .replace(/[. ]+$/, "")
    .replace(/(?<=.)\.[^.]*$/, "")
    .replace(/[\d.]+$/, "");
}

/** Why a native entry point may not run this executable, or null. */
function interpreterProblem(value: string): string | null {
  const name = programName(value);
  const kind = INTERPRETER_KIND.get(name);
  if (kind === undefined) return null;
  return (
    `${quote(value)} is ${kind === "interpreter" ? "an" : "a"} ${kind} (${name}): it reads its arguments as code or as a command, ` +
    `which a typed argv exists to avoid; set entrypoint to "interpreter" if that is what this request means`
  );
}

// ---------------------------------------------------------------------------------------------------
// The request contract

const requiredString = (issue: { input: unknown }) =>
  issue.input === undefined ? "required" : `must be a string, got ${describe(issue.input)}`;

function typedPath(check: (value: string) => string | null) {
  return z
    .object(
      {
        kind: z.literal("path", { error: 'must be "path"' }),
        value: z
          .string({ error: requiredString })
          .superRefine((value, context) => {
            const problem = check(value);
            if (problem !== null) context.addIssue({ code: "custom", message: problem });
          })
          .transform(normalizePath),
      },
      { error: (issue) => (issue.input === undefined ? "required" : 'must be { kind: "path", value }') },
    )
    .strict();
}

const literalItem = z
  .object({
    kind: z.literal("literal"),
    value: z.string({ error: requiredString }).superRefine((value, context) => {
      const problem = literalProblem(value);
      if (problem !== null) context.addIssue({ code: "custom", message: problem });
    }),
  })
  .strict();

const argvItem = z.discriminatedUnion("kind", [literalItem, typedPath(pathProblem)], {
  error: 'must be { kind: "literal", value } or { kind: "path", value }',
});

function encoding() {
  return z
    .enum(ENCODINGS, {
      error: (issue) => `${describe(issue.input)} is not an encoding: use one of ${ENCODINGS.join(", ")} (there is no auto: declare it)`,
    })
    .default("utf8");
}

const timeoutProblem = (issue: { input: unknown }) =>
  `must be a number of milliseconds above 0 and at most ${MAX_TIMEOUT_MS}, got ${describe(issue.input)}`;

/** The closed contract of a native request, as JSON from a model. Every field not listed is refused. */
export const nativeRequestSchema = z
  .object(
    {
      description: z
        .string({ error: requiredString })
        .refine((value) => value.trim() !== "", "required")
        .refine((value) => !value.includes("\0"), "contains a NUL byte"),
      executable: typedPath(executableProblem),
      // Counted before the items are checked: a million of them are refused by their number, not named one by one.
      argv: z.preprocess(
        (input, context) => {
          if (Array.isArray(input) && input.length > MAX_ARGV_ITEMS) {
            context.addIssue({ code: "custom", message: `at most ${MAX_ARGV_ITEMS} items, got ${input.length}` });
          }
          return input;
        },
        z.array(argvItem, { error: (issue) => (issue.input === undefined ? "required" : "must be an array") }).max(MAX_ARGV_ITEMS),
      ),
      cwd: typedPath(pathProblem).optional(),
      entrypoint: z
        .enum(ENTRYPOINTS, { error: (issue) => `${describe(issue.input)} is not an entry point: use native or interpreter` })
        .default("native"),
      stdoutEncoding: encoding(),
      stderrEncoding: encoding(),
      errors: z
        .enum(ERROR_MODES, { error: (issue) => `${describe(issue.input)} is not an error mode: use replace or strict` })
        .default("replace"),
      timeoutMs: z
        .number({ error: timeoutProblem })
        .gt(0, { error: timeoutProblem })
        .max(MAX_TIMEOUT_MS, { error: timeoutProblem })
        .optional(),
      runInBackground: z.boolean({ error: (issue) => `must be true or false, got ${describe(issue.input)}` }).optional(),
    },
    { error: (issue) => `must be an object, got ${describe(issue.input)}` },
  )
  .strict()
  .superRefine(
    (request, context) => {
      // Rules across fields. They run even when other fields are wrong, so the error names these problems
      // too; the value may then be partly parsed, so each rule looks only at fields that are sound.
      const executable: unknown = request?.executable?.value;
      if (typeof executable === "string" && request.entrypoint === "native" && executableProblem(executable) === null) {
        const problem = interpreterProblem(executable);
        if (problem !== null) context.addIssue({ code: "custom", path: ["executable", "value"], message: problem });
      }
      if (request?.runInBackground === true && request.timeoutMs !== undefined) {
        context.addIssue({
          code: "custom",
          path: ["runInBackground"],
          message: "refused together with timeoutMs: a background run has no deadline, so give one or the other",
        });
      }
    },
    { when: () => true },
  );

export interface TypedPath {
  readonly kind: "path";
  /** Absolute and normalized: `C:\…` with backslashes, or `/…`. */
  readonly value: string;
}

export interface Literal {
  readonly kind: "literal";
  /** Passed to the program exactly as given. */
  readonly value: string;
}

export type ArgvItem = Literal | TypedPath;

export interface NativeRequest {
  readonly description: string;
  readonly executable: TypedPath;
  readonly argv: readonly ArgvItem[];
  /** Null: the executor's workspace. */
  readonly cwd: TypedPath | null;
  /** `interpreter` when the request declares that the program reads its arguments as code. */
  readonly entrypoint: Entrypoint;
  readonly stdoutEncoding: Encoding;
  readonly stderrEncoding: Encoding;
  readonly errors: ErrorMode;
  /** Null for a background run: it has no deadline, only the caller's cancel. */
  readonly timeoutMs: number | null;
  readonly runInBackground: boolean;
}

/** Where a problem is: `argv[2].value`, `cwd`, `(request)`. */
function fieldName(location: readonly PropertyKey[]): string {
  let name = "";
  for (const key of location) name += typeof key === "number" ? `[${key}]` : `${name === "" ? "" : "."}${String(key)}`;
  return name === "" ? "(request)" : name;
}

function problemsOf(error: z.ZodError): string[] {
  const problems: string[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      const where = issue.path.length === 0 ? "" : `${fieldName(issue.path)}.`;
      for (const key of issue.keys) {
        const why = key === "env" && issue.path.length === 0 ? " (a request cannot set the environment)" : "";
        problems.push(`${where}${JSON.stringify(key)}: unknown field${why}`);
      }
    } else {
      problems.push(`${fieldName(issue.path)}: ${issue.message}`);
    }
  }
  return problems;
}

const typedPathOf = (value: string): TypedPath => Object.freeze({ kind: "path", value });

/** Validates untyped input against the contract; the error names every problem. The result is frozen. */
export function parseNativeRequest(input: unknown): NativeRequest {
  const result = nativeRequestSchema.safeParse(input);
  if (!result.success) throw new NativeRequestError(problemsOf(result.error));
  const data = result.data;
  const background = data.runInBackground === true;
  return Object.freeze({
    description: data.description,
    executable: typedPathOf(data.executable.value),
    argv: Object.freeze(data.argv.map((item) => Object.freeze({ kind: item.kind, value: item.value }))),
    cwd: data.cwd === undefined ? null : typedPathOf(data.cwd.value),
    entrypoint: data.entrypoint,
    stdoutEncoding: data.stdoutEncoding,
    stderrEncoding: data.stderrEncoding,
    errors: data.errors,
    timeoutMs: background ? null : (data.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    runInBackground: background,
  });
}

// ---------------------------------------------------------------------------------------------------
// MSYS paths

/**
 * Translates one whole MSYS path (`/c/Users/ana/x.txt`, `/tmp/build.log`) into the Windows path it names,
 * from a mount table the caller supplies. Pure: no file system, no environment, no existence check. It
 * says what a path names, never whether it may be used.
 */
export function translateMsysPath(msysPath: string, mounts: Readonly<Record<string, string>>): string {
  if (typeof msysPath !== "string" || msysPath.trim() === "") throw new Error("an MSYS path is required");
  if (msysPath.includes("\0")) throw new Error(`${quote(msysPath)} contains a NUL byte`);
  if (/^[A-Za-z][A-Za-z0-9+.-]+:/.test(msysPath)) throw new Error(`${quote(msysPath)} is a URL, not a path`);
  const table = mountTable(mounts);
  if (WINDOWS_ABSOLUTE.test(msysPath)) return path.win32.normalize(msysPath); // already native
  if (/^[\\/]{2}/.test(msysPath)) throw new Error(`${quote(msysPath)} is a network path or an MSYS escape: it is not translated`);
  if (!msysPath.startsWith("/")) throw new Error(`${quote(msysPath)} is relative: only an absolute MSYS path names one place`);
  // `..` is folded on the MSYS side first: `/tmp/../etc` is `/etc`, which may lie under another mount.
  const posix = path.posix.normalize(msysPath);
  const inside = (mount: string) => posix === mount || posix.startsWith(`${mount}/`);
  // The longest mount that contains the path, by whole segments: `/tmpfiles` is not under `/tmp`.
  let best: readonly [string, string] | undefined;
  for (const entry of table) if (entry[0] !== "/" && inside(entry[0]) && entry[0].length > (best?.[0].length ?? 0)) best = entry;
  if (best !== undefined) return joinWindows(best[1], posix.slice(best[0].length));
  const drive = /^\/([A-Za-z])(?=\/|$)/.exec(posix)?.[1];
  if (drive !== undefined) return joinWindows(`${drive.toUpperCase()}:\\`, posix.slice(2));
  const root = table.find(([mount]) => mount === "/");
  if (root !== undefined) return joinWindows(root[1], posix);
  const known = table.map(([mount]) => mount).join(", ") || "none";
  throw new Error(`${quote(msysPath)} is under no known mount (unknown mount; mounts: ${known}, and the drives /a to /z)`);
}

/** A Windows folder and the rest of an MSYS path below it (`/Users/ana`, or "" for the folder itself). */
function joinWindows(base: string, rest: string): string {
  const tail = rest
    .split("/")
    .filter((segment) => segment !== "")
    .join("\\");
  return path.win32.normalize(tail === "" ? base : `${base}\\${tail}`);
}

/** The mount table as [MSYS folder, Windows folder] pairs, checked. Own entries only: no inherited names. */
function mountTable(mounts: Readonly<Record<string, string>>): Array<readonly [string, string]> {
  if (typeof mounts !== "object" || mounts === null || Array.isArray(mounts)) throw new TypeError("the mount table must be an object");
  return Object.entries(mounts).map(([mount, target]) => {
    if (!mount.startsWith("/") || mount.includes("\0"))
      throw new TypeError(`invalid mount table: ${quote(mount)} is not an absolute MSYS folder`);
    if (typeof target !== "string" || !WINDOWS_ABSOLUTE.test(target) || target.includes("\0")) {
      throw new TypeError(`invalid mount table: ${quote(mount)} must map to a Windows folder such as C:\\…, got ${describe(target)}`);
    }
    return [mount === "/" ? "/" : path.posix.normalize(mount).replace(/\/+$/, ""), path.win32.normalize(target)] as const;
  });
}

// ---------------------------------------------------------------------------------------------------
// The executor

type Spawn = typeof nodeSpawn;
/** What the executor needs to know about a path: whether it is a file or a folder. */
type Stat = (path: string) => Promise<{ isFile(): boolean; isDirectory(): boolean }>;

export interface NativeExecutorOptions {
  readonly platform: Platform;
  /** Reads the standing policy now. Called at every phase, never cached. */
  readonly policy: () => string | undefined;
  /**
   * Reads the native switch now (a user setting). Called at every phase, never cached. `undefined`,
   * a configuration without the key, is on; anything but `true` or `undefined` is off.
   */
  readonly nativeEnabled: () => boolean | undefined;
  /** The default working folder. */
  readonly workspace: string;
  readonly spawn?: Spawn;
  /** Looks at a path on the disk; `fs.promises.stat` unless given. */
  readonly stat?: Stat;
}

/** What will run, for showing: the executor does not read it back. Only the object itself is the capability. */
export interface PreparedRequest {
  readonly description: string;
  readonly executable: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly entrypoint: Entrypoint;
  readonly timeoutMs: number | null;
}

export interface NativeResult {
  /** What the system reported. Null when the process was ended by a signal. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** The executor ended the process: the caller cancelled, or the deadline passed. */
  readonly aborted: boolean;
  /** The executor ended the process because the deadline passed. */
  readonly timedOut: boolean;
  /**
   * When the program exited, processes it had started were still in its process group, and the
   * executor ended them (SIGTERM, then SIGKILL after the grace period). Always false on Windows.
   */
  readonly descendantsEnded: boolean;
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutFacts: OutputFacts;
  readonly stderrFacts: OutputFacts;
}

export interface ExecuteOptions {
  /** Cancels the run: the process is ended and the result says aborted. */
  readonly signal?: AbortSignal;
}

type Cause = "cancelled" | "timeout";

/** How the process ended: an exit or a signal, or it never started. */
type Ending =
  | { readonly code: number | null; readonly signal: string | null; readonly descendantsEnded: boolean }
  | { readonly startError: Error };

interface PreparedRecord {
  readonly request: NativeRequest;
  readonly executable: string;
  readonly args: readonly string[];
  readonly cwd: string;
}

function cancelledError(): Error {
  const error = new Error("cancelled before the process started: nothing ran");
  error.name = "AbortError";
  return error;
}

/** A cancel that came before the process started: no result to report, because nothing ran. */
function refuseIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw cancelledError();
}

/**
 * Waits for checks on the disk, at most PREPARATION_TIMEOUT_MS and no longer than the caller's cancel. A
 * look at a hung network share can wait in the kernel for ever; the call gives up, and the answer that
 * comes later is dropped: it can no longer prepare or start anything.
 */
function bounded<T>(checks: Promise<T>, what: string, outcome: string, signal: AbortSignal | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onCancel);
    };
    const onCancel = () => {
      finish();
      reject(cancelledError());
    };
    const timer = setTimeout(() => {
      finish();
      const error = new Error(`${what} took more than ${PREPARATION_TIMEOUT_MS} ms: ${outcome}`);
      error.name = "TimeoutError";
      reject(error);
    }, PREPARATION_TIMEOUT_MS);
    signal?.addEventListener("abort", onCancel, { once: true });
    checks.then(
      (value) => {
        finish();
        resolve(value);
      },
      (error: unknown) => {
        finish();
        reject(error);
      },
    );
  });
}

async function folderProblem(stat: Stat, folder: string, field: string): Promise<string | null> {
  try {
    return (await stat(folder)).isDirectory() ? null : `${field}: ${quote(folder)} is not a folder`;
  } catch (error) {
    return `${field}: ${quote(folder)} ${describeFailure(error)}`;
  }
}

async function fileProblem(stat: Stat, file: string, field: string): Promise<string | null> {
  try {
    return (await stat(file)).isFile() ? null : `${field}: ${quote(file)} is not a file`;
  } catch (error) {
    return `${field}: ${quote(file)} ${describeFailure(error)}`;
  }
}

function describeFailure(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR" ? "does not exist" : `cannot be checked (${String(code ?? error)})`;
}

/**
 * The length, in UTF-16 units, of one argument on a Windows command line as Node (libuv) quotes it by
 * the C runtime's rules: as it is when it holds no space, tab or quote; otherwise in quotes, each quote
 * escaped with a backslash, and each backslash doubled that stands before a quote or the closing one.
 */
function windowsArgumentLength(argument: string): number {
  if (argument === "") return 2;
  if (!/[ \t"]/.test(argument)) return argument.length;
  let length = argument.length + 2;
  let beforeQuote = true; // read from the end: the closing quote comes next
  for (let index = argument.length - 1; index >= 0; index -= 1) {
    const unit = argument[index];
    if (unit === '"') {
      length += 1;
      beforeQuote = true;
    } else if (unit === "\\") {
      if (beforeQuote) length += 1;
    } else {
      beforeQuote = false;
    }
  }
  return length;
}

export class NativeExecutor {
  readonly #platform: Platform;
  readonly #policy: () => string | undefined;
  readonly #nativeEnabled: () => boolean | undefined;
  readonly #workspace: string;
  readonly #spawn: Spawn;
  readonly #stat: Stat;
  /** Every capability this executor issued, keyed by the object itself; "used" once execute took it. */
  readonly #issued = new WeakMap<object, PreparedRecord | "used">();

  constructor(options: NativeExecutorOptions) {
    if (typeof options !== "object" || options === null)
      throw new TypeError("NativeExecutor needs { platform, policy, nativeEnabled, workspace }");
    const platform = PLATFORMS.find((name) => name === options.platform);
    if (platform === undefined) throw new TypeError(`platform must be one of ${PLATFORMS.join(", ")}, got ${describe(options.platform)}`);
    if (typeof options.policy !== "function") throw new TypeError("policy must be a function that reads the standing policy");
    if (typeof options.nativeEnabled !== "function") throw new TypeError("nativeEnabled must be a function that reads the native switch");
    const workspace: unknown = options.workspace;
    if (typeof workspace !== "string" || formOf(workspace) !== (platform === "win32" ? "windows" : "posix")) {
      throw new TypeError(`workspace must be an absolute path on ${platform}, got ${describe(workspace)}`);
    }
    if (options.spawn !== undefined && typeof options.spawn !== "function")
      throw new TypeError("spawn must be a function like child_process.spawn");
    if (options.stat !== undefined && typeof options.stat !== "function")
      throw new TypeError("stat must be a function like fs.promises.stat");
    this.#platform = platform;
    // The functions themselves, not what they return now: a user may change either at any moment.
    this.#policy = options.policy;
    this.#nativeEnabled = options.nativeEnabled;
    this.#workspace = normalizePath(workspace);
    this.#spawn = options.spawn ?? nodeSpawn;
    this.#stat = options.stat ?? fsStat;
  }

  /**
   * Checks a request and issues the capability to run it. Refuses before anything else when native
   * execution is off or the policy is not danger-full-access, and again after its own checks.
   */
  async prepare(input: unknown): Promise<PreparedRequest> {
    this.#gate();
    const request = parseNativeRequest(input);
    const formProblems = this.#formProblems(request);
    if (formProblems.length > 0) throw new NativeRequestError(formProblems);
    const cwd = request.cwd?.value ?? this.#workspace;
    const found = await bounded(
      Promise.all([
        fileProblem(this.#stat, request.executable.value, "executable.value"),
        folderProblem(this.#stat, cwd, request.cwd === null ? "cwd (the workspace)" : "cwd.value"),
      ]),
      "prepare's checks on the disk",
      "nothing was prepared",
      undefined,
    );
    const problems = found.filter((problem) => problem !== null);
    if (problems.length > 0) throw new NativeRequestError(problems);
    // The checks above took time: what was true when prepare began may not be true now.
    this.#gate();
    const args = Object.freeze(request.argv.map((item) => item.value));
    const prepared: PreparedRequest = Object.freeze({
      description: request.description,
      executable: request.executable.value,
      args,
      cwd,
      entrypoint: request.entrypoint,
      timeoutMs: request.timeoutMs,
    });
    this.#issued.set(prepared, { request, executable: request.executable.value, args, cwd });
    return prepared;
  }

  /**
   * Runs a request this executor prepared, once. The policy and the switch are read at entry and
   * immediately before spawn. Rejects when nothing was started; once the process has started, resolves
   * with what happened, a cancel or a timeout included.
   */
  async execute(prepared: PreparedRequest, options: ExecuteOptions = {}): Promise<NativeResult> {
    this.#gate();
    const signal = readSignal(options);
    const record = this.#take(prepared);
    refuseIfCancelled(signal);
    // The folder was checked at prepare; a missing one would make spawn report ENOENT for the program.
    const cwdProblem = await bounded(
      folderProblem(this.#stat, record.cwd, "cwd"),
      "the check of the working folder",
      "nothing ran",
      signal,
    );
    if (cwdProblem !== null) throw new NativeRequestError([cwdProblem]);
    refuseIfCancelled(signal);
    // Built before the process starts: an encoding the runtime lacks fails here, not halfway through.
    const { stdoutEncoding, stderrEncoding, errors } = record.request;
    const stdout = new StreamDecoder({ encoding: stdoutEncoding, errors });
    const stderr = new StreamDecoder({ encoding: stderrEncoding, errors });
    this.#gate(); // nothing asynchronous between this check and spawn
    return this.#run(record, stdout, stderr, signal);
  }

  /** Fail closed: the switch first (the entry point is off), then the policy. Read now, every time. */
  #gate(): void {
    const enabled: unknown = this.#nativeEnabled();
    // No value is a configuration written before the switch existed: on, as the switch's default is.
    if (enabled !== true && enabled !== undefined) {
      throw new NativeDisabledError(
        "native execution is turned off: no process is started. A user can turn the native switch back on in the settings; " +
          "the agent must not get around it with another tool.",
      );
    }
    const policy: unknown = this.#policy();
    if (policy === FULL_ACCESS) return;
    const named = policy === undefined ? "a missing policy" : `the policy ${describe(policy)}`;
    const why =
      this.#platform === "win32"
        ? "no sandbox can fence a native process on Windows"
        : `this executor has no sandbox backend on ${this.#platform} (a real harness hands a restricted policy to the platform's sandbox)`;
    throw new SandboxUnavailableError(
      `${why}, so ${named} is refused before anything runs. Only ${FULL_ACCESS} runs native programs here: a user, not the agent, ` +
        `can choose it in the session's access mode. The agent must stop and say so, not retry with another tool.`,
    );
  }

  /**
   * The platform's own form for every path: `C:\…` on Windows (an MSYS `/c/…` must be translated first).
   * On Windows also the length of the one command line the process will get.
   */
  #formProblems(request: NativeRequest): string[] {
    const expected: PathForm = this.#platform === "win32" ? "windows" : "posix";
    const located: Array<readonly [string, string]> = [["executable.value", request.executable.value]];
    request.argv.forEach((item, index) => {
      if (item.kind === "path") located.push([`argv[${index}].value`, item.value]);
    });
    if (request.cwd !== null) located.push(["cwd.value", request.cwd.value]);
    const problems: string[] = [];
    for (const [field, value] of located) {
      if (formOf(value) === expected) continue;
      problems.push(
        expected === "windows"
          ? `${field}: ${quote(value)} is not a Windows path: give C:\\… (translateMsysPath turns an MSYS path into one)`
          : `${field}: ${quote(value)} is not absolute on ${this.#platform}: give a /… path`,
      );
    }
    if (expected === "windows") {
      // The program's path and each argument, quoted, one space between them, and the terminating NUL.
      let units = windowsArgumentLength(request.executable.value) + 1;
      for (const item of request.argv) units += 1 + windowsArgumentLength(item.value);
      if (units > WINDOWS_COMMAND_LINE_MAX) {
        problems.push(
          `argv: the Windows command line would be ${units} UTF-16 units with its terminating NUL, more than the ` +
            `${WINDOWS_COMMAND_LINE_MAX} that CreateProcess takes: pass fewer or shorter arguments`,
        );
      }
    }
    return problems;
  }

  /** The record behind a capability this executor issued, which is spent by taking it. */
  #take(prepared: PreparedRequest): PreparedRecord {
    // Looked up by identity: a primitive, a copy or a clone is simply not in the map.
    const key = prepared as object;
    const record = this.#issued.get(key);
    if (record === undefined) {
      throw new Error("not prepared by this executor: a copy, a clone or another executor's request is not a capability here");
    }
    if (record === "used") throw new Error("this prepared request was already used: prepare the request again to run it again");
    return record; // found by identity, so it is a capability: nothing more to do
  }

  async #run(record: PreparedRecord, stdout: StreamDecoder, stderr: StreamDecoder, signal: AbortSignal | undefined): Promise<NativeResult> {
    const windows = this.#platform === "win32";
    let child: ChildProcessByStdio<null, Readable, Readable>;
    try {
      child = this.#spawn(record.executable, [...record.args], {
        cwd: record.cwd,
        shell: false,
        windowsVerbatimArguments: false,
        windowsHide: true,
        stdio: ["ignore", "pipe", "pipe"],
        // Its own process group on POSIX, so that ending it ends everything it started.
        detached: !windows,
      });
    } catch (error) {
      throw new Error(`could not start ${quote(record.executable)}: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }

    // One controller per operation. Its reason is the cause, recorded before its listener ends the process.
    const operation = new AbortController();
    let exited = false; // the program has exited or never started: a cancel or the deadline ends nothing now
    let groupSettled = false; // nothing is left to end: the group was empty at exit, or it got its SIGKILL
    let deadline: ReturnType<typeof setTimeout> | undefined;
    let escalation: ReturnType<typeof setTimeout> | undefined;
    let settleGroup = () => {};
    const groupEnded = new Promise<void>((resolve) => {
      settleGroup = () => {
        groupSettled = true;
        clearTimeout(escalation);
        resolve();
      };
    });
    /**
     * Signals the process group the child leads, POSIX only; false when no member is left. While the group
     * has a member its id cannot be given to another group, so -pid reaches this run and nothing else.
     */
    const signalGroup = (name: NodeJS.Signals | 0): boolean => {
      if (child.pid === undefined) return false; // never started; and -0 would be our own group
      try {
        process.kill(-child.pid, name);
        return true;
      } catch {
        return false; // ESRCH: nothing is left in the group (or nothing this process may signal)
      }
    };
    const escalate = () => {
      escalation ??= setTimeout(() => {
        signalGroup("SIGKILL");
        settleGroup();
      }, KILL_GRACE_MS);
    };
    // The first cause wins: aborting an aborted controller changes nothing, its reason included.
    const end = (cause: Cause) => {
      if (!exited) operation.abort(cause);
    };
    operation.signal.addEventListener(
      "abort",
      () => {
        if (windows) {
          // Node's kill is TerminateProcess on Windows whatever the signal's name: forceful at once, so it is
          // named so, and there is nothing to escalate. It ends this process only: its descendants need a Job Object.
          child.kill("SIGKILL");
          return;
        }
        signalGroup("SIGTERM");
        escalate();
      },
      { once: true },
    );
    const onCancel = () => end("cancelled");

    const ending = new Promise<Ending>((resolve) => {
      child.once("exit", (code: number | null, name: NodeJS.Signals | null) => {
        exited = true;
        clearTimeout(deadline);
        // What the program left running in its group ends with it: SIGTERM now (unless the executor sent it
        // already), SIGKILL after the grace period. An empty group is over, and its id is free for reuse.
        // A group that got its SIGKILL already is left alone: nothing can outlast that but a zombie.
        const left = !windows && !groupSettled && signalGroup(operation.signal.aborted ? 0 : "SIGTERM");
        if (left) escalate();
        else settleGroup();
        resolve({ code, signal: name, descendantsEnded: left });
      });
      // Before a pid, an error means the program never started. After it, errors (a failed kill) change
      // nothing about how the process ends, but a listener must stay or they would crash the harness.
      child.on("error", (error: Error) => {
        if (child.pid !== undefined) return;
        exited = true;
        clearTimeout(deadline);
        settleGroup();
        resolve({ startError: error });
      });
    });

    signal?.addEventListener("abort", onCancel, { once: true });
    if (record.request.timeoutMs !== null) deadline = setTimeout(() => end("timeout"), record.request.timeoutMs);
    try {
      const [outcome, stdoutFacts, stderrFacts] = await Promise.all([
        ending,
        drain(child.stdout, stdout, { exited: ending }),
        drain(child.stderr, stderr, { exited: ending }),
        groupEnded,
      ]);
      if ("startError" in outcome) {
        throw new Error(`could not start ${quote(record.executable)}: ${outcome.startError.message}`, { cause: outcome.startError });
      }
      const cause: unknown = operation.signal.reason;
      return Object.freeze({
        exitCode: outcome.code,
        signal: outcome.signal,
        aborted: operation.signal.aborted,
        timedOut: cause === "timeout",
        descendantsEnded: outcome.descendantsEnded,
        stdout: stdout.text,
        stderr: stderr.text,
        stdoutFacts,
        stderrFacts,
      });
    } finally {
      // Only when reading failed before everything ended: nobody will wait for it, so it ends now.
      if (!groupSettled) {
        if (windows) child.kill("SIGKILL");
        else signalGroup("SIGKILL");
        settleGroup();
      }
      clearTimeout(deadline);
      clearTimeout(escalation);
      signal?.removeEventListener("abort", onCancel);
    }
  }
}

function readSignal(options: ExecuteOptions): AbortSignal | undefined {
  if (typeof options !== "object" || options === null) throw new TypeError("execute options must be an object: { signal? }");
  const { signal } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new TypeError("signal must be an AbortSignal");
  return signal;
}
