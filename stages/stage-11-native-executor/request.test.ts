import { expect, it } from "vitest";
import { z } from "zod";
import {
  NativeExecutor,
  NativeRequestError,
  nativeRequestSchema,
  parseNativeRequest,
  translateMsysPath,
  type NativeExecutorOptions,
  type Platform,
} from "forge/tools/executor";
import { temporaryFolder } from "../../lab/testing.js";

// The request contract of the native executor: a closed record a model fills in as JSON. Every check
// here is on the request's text, with no process started; the paths of a Windows build machine are
// checked on any machine.

const FULL = "danger-full-access";
const literal = (value: string) => ({ kind: "literal", value });
const pathItem = (value: string) => ({ kind: "path", value });

/** A valid request to run a build tool; the fields given replace or add to it. */
function request(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { description: "build the docs", executable: pathItem("/usr/local/bin/docbuild"), argv: [], ...fields };
}

/** The problems parseNativeRequest names for an input, or what it returned. */
function problems(input: unknown): readonly string[] | string {
  try {
    return `accepted: ${JSON.stringify(parseNativeRequest(input))}`;
  } catch (error) {
    if (error instanceof NativeRequestError) return error.problems;
    return `not a NativeRequestError: ${String(error)}`;
  }
}

/** The one problem named for a field of an otherwise valid request, or "accepted". */
function verdict(fields: Record<string, unknown>): string {
  const found = problems(request(fields));
  if (typeof found === "string") return found.startsWith("accepted") ? "accepted" : found;
  return found.length === 1 ? (found[0] ?? "") : `${found.length} problems: ${found.join(" | ")}`;
}

it("names every problem of a request in one error", () => {
  const input = {
    description: "",
    executable: pathItem("node"),
    argv: [pathItem("~/docs/index.md"), pathItem("$HOME/docs"), literal("a\u0000b"), 42, { kind: "shell", value: "make docs" }],
    cwd: pathItem("docs"),
    stdoutEncoding: "auto",
    timeoutMs: 0,
    runInBackground: true,
    env: { PATH: "/tmp/evil" },
    shell: true,
  };
  let caught: unknown;
  try {
    parseNativeRequest(input);
  } catch (error) {
    caught = error;
  }
  const error = caught as NativeRequestError;
  expect({ name: error?.name, code: error?.code, problems: error?.problems }, "the error for a request wrong in thirteen ways").toEqual({
    name: "NativeRequestError",
    code: "NATIVE_REQUEST_INVALID",
    problems: [
      "description: required",
      'executable.value: "node" is a bare command name: nothing is looked up in PATH, give the absolute path of the program',
      'argv[0].value: "~/docs/index.md" starts with ~, which is not expanded (there is no shell): give the absolute path',
      'argv[1].value: "$HOME/docs" names $HOME, which is not expanded (there is no shell): give the absolute path',
      'argv[2].value: "a\\u0000b" contains a NUL byte',
      'argv[3]: must be { kind: "literal", value } or { kind: "path", value }',
      'argv[4].kind: must be { kind: "literal", value } or { kind: "path", value }',
      'cwd.value: "docs" is not absolute: give the whole path, C:\\… on Windows or /… elsewhere',
      'stdoutEncoding: "auto" is not an encoding: use one of utf8, gbk, utf16le, raw (there is no auto: declare it)',
      "timeoutMs: must be a number of milliseconds above 0 and at most 600000, got 0",
      '"env": unknown field (a request cannot set the environment)',
      '"shell": unknown field',
      "runInBackground: refused together with timeoutMs: a background run has no deadline, so give one or the other",
    ],
  });
  expect(error.message, "the message lists the same problems").toBe(`invalid native request: ${error.problems.join("; ")}`);
  expect(Object.isFrozen(error.problems), "the list of problems is read-only").toBe(true);

  // Untyped JSON: object-property names are unknown fields like any other, and a non-object is named.
  expect(
    {
      "property names": problems(JSON.parse('{"__proto__": {}, "constructor": 1, "toString": 2}')),
      null: problems(null),
      "an array": problems([]),
      "a string": problems("make docs"),
      "extra fields in an item": problems(request({ argv: [{ kind: "literal", value: "x", quoted: true, env: {} }] })),
      "a blank description": problems(request({ description: " \t" })),
      "a NUL in the description": problems(request({ description: "build\u0000docs" })),
      "a description that is a number": problems(request({ description: 7 })),
    },
    "the problems of inputs that are not requests at all",
  ).toEqual({
    "property names": [
      "description: required",
      "executable: required",
      "argv: required",
      '"__proto__": unknown field',
      '"constructor": unknown field',
      '"toString": unknown field',
    ],
    null: ["(request): must be an object, got null"],
    "an array": ["(request): must be an object, got an array"],
    "a string": ['(request): must be an object, got "make docs"'],
    "extra fields in an item": ['argv[0]."quoted": unknown field', 'argv[0]."env": unknown field'],
    "a blank description": ["description: required"],
    "a NUL in the description": ["description: contains a NUL byte"],
    "a description that is a number": ["description: must be a string, got 7"],
  });
});

it("exports the request contract as a closed JSON Schema, the one a client is shown", () => {
  // What an MCP client or a model is given to fill in: the schema's JSON Schema, as the input it accepts.
  type Node = { [key: string]: unknown };
  const node = (value: unknown): Node => (typeof value === "object" && value !== null ? (value as Node) : {});
  const closed = (value: unknown) => {
    const schema = node(value);
    const properties = node(schema.properties);
    return {
      type: schema.type,
      additionalProperties: schema.additionalProperties,
      properties: Object.keys(properties).sort(),
      required: Array.isArray(schema.required) ? [...schema.required].sort() : schema.required,
      kind: node(properties.kind).const,
      value: node(properties.value).type,
    };
  };
  const json = node(z.toJSONSchema(nativeRequestSchema, { io: "input" }));
  const fields = node(json.properties);
  const argv = node(fields.argv);
  const items = node(argv.items);
  const choices = (Array.isArray(items.anyOf) ? items.anyOf : Array.isArray(items.oneOf) ? items.oneOf : [items]) as unknown[];
  const enumOf = (field: string) => ({ enum: node(fields[field]).enum, default: node(fields[field]).default });
  const timeoutMs = node(fields.timeoutMs);
  expect(
    {
      request: { ...closed(json), kind: undefined, value: undefined },
      description: node(fields.description).type,
      executable: closed(fields.executable),
      cwd: closed(fields.cwd),
      argv: {
        type: argv.type,
        maxItems: argv.maxItems,
        items: choices.map(closed).sort((a, b) => String(a.kind).localeCompare(String(b.kind))),
      },
      entrypoint: enumOf("entrypoint"),
      stdoutEncoding: enumOf("stdoutEncoding"),
      stderrEncoding: enumOf("stderrEncoding"),
      errors: enumOf("errors"),
      timeoutMs: { type: timeoutMs.type, exclusiveMinimum: timeoutMs.exclusiveMinimum, maximum: timeoutMs.maximum },
      runInBackground: node(fields.runInBackground).type,
    },
    "the JSON Schema of nativeRequestSchema (input side)",
  ).toEqual({
    request: {
      type: "object",
      additionalProperties: false,
      properties: [
        "argv",
        "cwd",
        "description",
        "entrypoint",
        "errors",
        "executable",
        "runInBackground",
        "stderrEncoding",
        "stdoutEncoding",
        "timeoutMs",
      ],
      required: ["argv", "description", "executable"],
      kind: undefined,
      value: undefined,
    },
    description: "string",
    executable: {
      type: "object",
      additionalProperties: false,
      properties: ["kind", "value"],
      required: ["kind", "value"],
      kind: "path",
      value: "string",
    },
    cwd: {
      type: "object",
      additionalProperties: false,
      properties: ["kind", "value"],
      required: ["kind", "value"],
      kind: "path",
      value: "string",
    },
    argv: {
      type: "array",
      maxItems: 4096,
      items: [
        {
          type: "object",
          additionalProperties: false,
          properties: ["kind", "value"],
          required: ["kind", "value"],
          kind: "literal",
          value: "string",
        },
        {
          type: "object",
          additionalProperties: false,
          properties: ["kind", "value"],
          required: ["kind", "value"],
          kind: "path",
          value: "string",
        },
      ],
    },
    entrypoint: { enum: ["native", "interpreter"], default: "native" },
    stdoutEncoding: { enum: ["utf8", "gbk", "utf16le", "raw"], default: "utf8" },
    stderrEncoding: { enum: ["utf8", "gbk", "utf16le", "raw"], default: "utf8" },
    errors: { enum: ["replace", "strict"], default: "replace" },
    timeoutMs: { type: "number", exclusiveMinimum: 0, maximum: 600_000 },
    runInBackground: "boolean",
  });
});

it("fills the defaults: utf8, replace, 120000 ms and the workspace as cwd", async () => {
  const parsed = parseNativeRequest(request());
  expect(parsed, "the parsed request").toEqual({
    description: "build the docs",
    executable: { kind: "path", value: "/usr/local/bin/docbuild" },
    argv: [],
    cwd: null,
    entrypoint: "native",
    stdoutEncoding: "utf8",
    stderrEncoding: "utf8",
    errors: "replace",
    timeoutMs: 120_000,
    runInBackground: false,
  });
  expect(
    [parsed, parsed.executable, parsed.argv].map((part) => Object.isFrozen(part)),
    "the request, its executable and its argv are frozen",
  ).toEqual([true, true, true]);

  const workspace = temporaryFolder();
  const executor = new NativeExecutor({ platform: "linux", policy: () => FULL, nativeEnabled: () => true, workspace });
  const prepared = await executor.prepare(request({ executable: pathItem(process.execPath), entrypoint: "interpreter" }));
  expect({ cwd: prepared.cwd, timeoutMs: prepared.timeoutMs }, "the prepared request's folder and deadline").toEqual({
    cwd: workspace,
    timeoutMs: 120_000,
  });
  // Declared values are kept as declared.
  expect(
    parseNativeRequest(request({ stdoutEncoding: "gbk", stderrEncoding: "utf16le", errors: "strict", cwd: pathItem("/srv/docs") })),
    "a request that declares every field",
  ).toEqual(expect.objectContaining({ stdoutEncoding: "gbk", stderrEncoding: "utf16le", errors: "strict", cwd: pathItem("/srv/docs") }));
  expect(
    {
      raw: verdict({ stderrEncoding: "raw" }),
      cp936: verdict({ stdoutEncoding: "cp936" }),
      ignore: verdict({ errors: "ignore" }),
      "a cwd that is a string": verdict({ cwd: "/srv/docs" }),
    },
    "encodings, error modes and the cwd's type",
  ).toEqual({
    raw: "accepted",
    cp936: 'stdoutEncoding: "cp936" is not an encoding: use one of utf8, gbk, utf16le, raw (there is no auto: declare it)',
    ignore: 'errors: "ignore" is not an error mode: use replace or strict',
    "a cwd that is a string": 'cwd: must be { kind: "path", value }',
  });
});

it("keeps literal arguments exactly and normalizes typed paths without changing their meaning", () => {
  const megabyte = "x".repeat(1024 * 1024);
  const literals = ["", "  ", "/c", "/all", "$HOME", "~", "..", "a\\b", 'say "hi"', "中文", "😀", megabyte];
  const parsed = parseNativeRequest(request({ argv: literals.map(literal) }));
  const changed = literals.filter((value, index) => parsed.argv[index]?.value !== value);
  expect({ count: parsed.argv.length, changed }, "literals that did not come back exactly").toEqual({
    count: literals.length,
    changed: [],
  });

  const normalized: Record<string, string> = {};
  for (const value of ["/srv//docs/./site/", "/srv/docs", "C:/Users/ana/Q3.docx", "c:\\Users\\\\ana\\.\\Q3.docx", "D:\\", "/"]) {
    const item = parseNativeRequest(request({ argv: [pathItem(value)] })).argv[0];
    normalized[value] = item?.value ?? "missing";
  }
  expect(normalized, "typed paths, normalized").toEqual({
    "/srv//docs/./site/": "/srv/docs/site/",
    "/srv/docs": "/srv/docs",
    "C:/Users/ana/Q3.docx": "C:\\Users\\ana\\Q3.docx",
    "c:\\Users\\\\ana\\.\\Q3.docx": "c:\\Users\\ana\\Q3.docx",
    "D:\\": "D:\\",
    "/": "/",
  });

  const lone = "report\uD800.md";
  expect(
    {
      "..": verdict({ argv: [pathItem("/srv/docs/../secrets")] }),
      "Windows ..": verdict({ argv: [pathItem("C:\\docs\\..\\secrets")] }),
      "a name that begins with dots": verdict({ argv: [pathItem("/srv/..docs/x")] }),
      "a POSIX name with a backslash": verdict({ argv: [pathItem("/srv/a\\..\\b")] }),
      relative: verdict({ argv: [pathItem("docs/index.md")] }),
      "drive-relative": verdict({ argv: [pathItem("C:docs")] }),
      UNC: verdict({ argv: [pathItem("\\\\server\\share\\x")] }),
      empty: verdict({ argv: [pathItem("")] }),
      blank: verdict({ argv: [pathItem("  ")] }),
      "${HOME}": verdict({ argv: [pathItem("/x/${HOME}/y")] }),
      "%USERPROFILE%": verdict({ argv: [pathItem("C:\\x\\%USERPROFILE%\\y")] }),
      "a dollar that names nothing": verdict({ argv: [pathItem("/srv/price$5")] }),
      NUL: verdict({ argv: [pathItem("/srv/a\u0000b")] }),
      "a lone surrogate in a path": verdict({ argv: [pathItem(`/srv/${lone}`)] }),
      "a lone surrogate in a literal": verdict({ argv: [literal(lone)] }),
      "a lone low surrogate": verdict({ argv: [literal("\uDC00x")] }),
      "a paired surrogate": verdict({ argv: [literal("😀"), pathItem("/srv/😀")] }),
      "a literal that is a number": verdict({ argv: [{ kind: "literal", value: 5 }] }),
      "a literal without a value": verdict({ argv: [{ kind: "literal" }] }),
    },
    "typed path and literal values, one by one",
  ).toEqual({
    "..": 'argv[0].value: "/srv/docs/../secrets" contains "..": give the path without it',
    "Windows ..": 'argv[0].value: "C:\\\\docs\\\\..\\\\secrets" contains "..": give the path without it',
    "a name that begins with dots": "accepted",
    "a POSIX name with a backslash": "accepted",
    relative: 'argv[0].value: "docs/index.md" is not absolute: give the whole path, C:\\… on Windows or /… elsewhere',
    "drive-relative": 'argv[0].value: "C:docs" is not absolute: give the whole path, C:\\… on Windows or /… elsewhere',
    UNC: 'argv[0].value: "\\\\\\\\server\\\\share\\\\x" is not absolute: give the whole path, C:\\… on Windows or /… elsewhere',
    empty: "argv[0].value: required",
    blank: "argv[0].value: required",
    "${HOME}": 'argv[0].value: "/x/${HOME}/y" names ${HOME}, which is not expanded (there is no shell): give the absolute path',
    "%USERPROFILE%":
      'argv[0].value: "C:\\\\x\\\\%USERPROFILE%\\\\y" names %USERPROFILE%, which is not expanded (there is no shell): give the absolute path',
    "a dollar that names nothing": "accepted",
    NUL: 'argv[0].value: "/srv/a\\u0000b" contains a NUL byte',
    "a lone surrogate in a path": 'argv[0].value: "/srv/report\\ud800.md" contains a lone surrogate, which cannot be passed exactly',
    "a lone surrogate in a literal": 'argv[0].value: "report\\ud800.md" contains a lone surrogate, which cannot be passed exactly',
    "a lone low surrogate": 'argv[0].value: "\\udc00x" contains a lone surrogate, which cannot be passed exactly',
    "a paired surrogate": "accepted",
    "a literal that is a number": "argv[0].value: must be a string, got 5",
    "a literal without a value": "argv[0].value: required",
  });
  // A huge value is named, not copied whole into the message that goes back to the model: up to 120
  // characters are quoted whole, longer values are cut there and their length is given.
  const relative = (length: number) => verdict({ argv: [pathItem(`docs/${"y".repeat(length - 5)}`)] });
  const tail = "is not absolute: give the whole path, C:\\… on Windows or /… elsewhere";
  expect({ 120: relative(120), 121: relative(121) }, "the problem named for relative paths of 120 and 121 characters").toEqual({
    120: `argv[0].value: ${JSON.stringify(`docs/${"y".repeat(115)}`)} ${tail}`,
    121: `argv[0].value: ${JSON.stringify(`docs/${"y".repeat(115)}…`)} (121 characters) ${tail}`,
  });
  const huge = verdict({ argv: [pathItem(`docs/${megabyte}`)] });
  expect(huge, "the problem named for a relative path of a megabyte").toBe(
    `argv[0].value: ${JSON.stringify(`docs/${"x".repeat(115)}…`)} (1048581 characters) is not absolute: give the whole path, C:\\… on Windows or /… elsewhere`,
  );
});

it("takes a path for a Windows path only when it begins with a drive, so C:/ further in keeps a POSIX path POSIX", () => {
  // A backup of a Windows drive kept on a Linux server, in a folder named "C:": a POSIX path all the same.
  const parsed = parseNativeRequest(request({ argv: [pathItem("/srv/backups//C:/Users/./ana")] }));
  expect(parsed.argv[0]?.value, "a POSIX path with a folder named C:, normalized").toBe("/srv/backups/C:/Users/ana");
  expect(verdict({ argv: [pathItem("docs/C:/Users/ana")] }), "a relative path with C:/ further in").toBe(
    'argv[0].value: "docs/C:/Users/ana" is not absolute: give the whole path, C:\\… on Windows or /… elsewhere',
  );
});

it("refuses ${ in a typed path even when its brace is never closed", () => {
  // The model meant a variable: a shell would have tried to expand it (and failed), and nothing here does.
  expect(
    { "${HOME without its brace": verdict({ argv: [pathItem("/srv/${HOME")] }), "a lone ${": verdict({ argv: [pathItem("/srv/${")] }) },
    "typed paths with an unclosed ${",
  ).toEqual({
    "${HOME without its brace": expect.stringContaining("names ${HOME, which is not expanded"),
    "a lone ${": expect.stringContaining("names ${, which is not expanded"),
  });
});

it("names a typed path's value that is missing or not a string as it names a literal's", () => {
  expect(
    {
      "a path item without a value": verdict({ argv: [{ kind: "path" }] }),
      "a path item whose value is a number": verdict({ argv: [{ kind: "path", value: 5 }] }),
      "an executable whose value is null": verdict({ executable: { kind: "path", value: null } }),
    },
    "typed paths whose value is not a string",
  ).toEqual({
    "a path item without a value": "argv[0].value: required",
    "a path item whose value is a number": "argv[0].value: must be a string, got 5",
    "an executable whose value is null": "executable.value: must be a string, got null",
  });
});

it("refuses a batch file or a bare command name as the executable, in any case", () => {
  const executables = [
    "C:\\Tools\\build.bat",
    "C:\\Tools\\build.CMD",
    "C:\\Tools\\build.Bat",
    "C:\\Tools\\build.bat.", // Windows drops the trailing dot and runs build.bat
    "C:\\Tools\\build.cmd ", // and the trailing space
    "C:\\Tools\\build.cmd. .",
    "/opt/tools/build.bat", // refused on every platform: the same request may reach Windows
    "C:\\Tools\\build", // no extension: not a .exe
    "C:\\Tools\\build.com",
    "C:\\Tools\\build.exe.",
    "C:\\Tools\\build.exe",
    "C:\\Tools\\BUILD.EXE",
    "C:\\Tools\\batch.bat.exe",
    "/opt/tools/build",
    "/opt/tools/bat", // a program named bat, not a batch file
    "node",
    "docbuild.exe",
    "",
  ];
  const outcomes: Record<string, string> = {};
  for (const value of executables) outcomes[value] = verdict({ executable: pathItem(value) });
  const batch = (value: string) =>
    `executable.value: ${JSON.stringify(value)} is a batch file: Windows runs .bat and .cmd through cmd.exe, which parses the arguments again (BatBadBut, CVE-2024-27980)`;
  const notExe = (value: string) => `executable.value: ${JSON.stringify(value)} does not name a .exe: on Windows only a .exe runs here`;
  const bare = (value: string) =>
    `executable.value: ${JSON.stringify(value)} is a bare command name: nothing is looked up in PATH, give the absolute path of the program`;
  expect(outcomes, "each executable, as a typed path").toEqual({
    "C:\\Tools\\build.bat": batch("C:\\Tools\\build.bat"),
    "C:\\Tools\\build.CMD": batch("C:\\Tools\\build.CMD"),
    "C:\\Tools\\build.Bat": batch("C:\\Tools\\build.Bat"),
    "C:\\Tools\\build.bat.": batch("C:\\Tools\\build.bat."),
    "C:\\Tools\\build.cmd ": batch("C:\\Tools\\build.cmd "),
    "C:\\Tools\\build.cmd. .": batch("C:\\Tools\\build.cmd. ."),
    "/opt/tools/build.bat": batch("/opt/tools/build.bat"),
    "C:\\Tools\\build": notExe("C:\\Tools\\build"),
    "C:\\Tools\\build.com": notExe("C:\\Tools\\build.com"),
    "C:\\Tools\\build.exe.": notExe("C:\\Tools\\build.exe."),
    "C:\\Tools\\build.exe": "accepted",
    "C:\\Tools\\BUILD.EXE": "accepted",
    "C:\\Tools\\batch.bat.exe": "accepted",
    "/opt/tools/build": "accepted",
    "/opt/tools/bat": "accepted",
    node: bare("node"),
    "docbuild.exe": bare("docbuild.exe"),
    "": "executable.value: required",
  });
  expect(
    { literal: verdict({ executable: literal("/usr/bin/make") }), string: verdict({ executable: "/usr/bin/make" }) },
    "an executable that is not a typed path",
  ).toEqual({ literal: 'executable.kind: must be "path"', string: 'executable: must be { kind: "path", value }' });
});

it("refuses a known shell, interpreter or command runner as the executable unless the request names the interpreter gate", async () => {
  // The closed list the lesson gives in full. A typed argv exists so that no program reads its
  // arguments as code; these programs do exactly that (or start the program their arguments name).
  const known: Record<string, readonly string[]> = {
    shell: ["ash", "bash", "busybox", "cmd", "command", "csh", "dash", "elvish", "fish", "ksh", "mksh", "nu", "powershell", "pwsh"].concat([
      "rbash",
      "sh",
      "tcsh",
      "wsl",
      "xonsh",
      "yash",
      "zsh",
    ]),
    interpreter: ["awk", "bun", "cscript", "deno", "elixir", "expect", "gawk", "groovy", "irb", "julia", "lua", "luajit", "mawk"]
      .concat(["mshta", "nawk", "node", "nodejs", "osascript", "perl", "php", "py", "pypy", "python", "pythonw", "pyw", "r"])
      .concat(["rscript", "ruby", "tclsh", "wish", "wscript"]),
    "command runner": ["chroot", "doas", "env", "flock", "ionice", "nice", "nohup", "nsenter", "runas", "runuser", "script"].concat([
      "setsid",
      "stdbuf",
      "strace",
      "su",
      "sudo",
      "taskset",
      "time",
      "timeout",
      "unshare",
      "watch",
      "xargs",
    ]),
  };
  const gated = (kind: string, name: string, value: string) =>
    `executable.value: ${JSON.stringify(value)} is a${kind === "interpreter" ? "n" : ""} ${kind} (${name}): it reads its arguments as code or as a command, which a typed argv exists to avoid; set entrypoint to "interpreter" if that is what this request means`;
  // Only the programs whose outcome is not the expected one are listed, with what happened instead.
  const wrong = (outcome: (kind: string, name: string) => [string, string]) => {
    const found: Record<string, string> = {};
    for (const [kind, names] of Object.entries(known)) {
      for (const name of names) {
        const [actual, wanted] = outcome(kind, name);
        if (actual !== wanted) found[name] = actual;
      }
    }
    return found;
  };
  expect(
    wrong((kind, name) => [verdict({ executable: pathItem(`/usr/bin/${name}`) }), gated(kind, name, `/usr/bin/${name}`)]),
    'known programs not refused as "… is a shell (…)", "an interpreter" or "a command runner" without the gate',
  ).toEqual({});
  expect(
    wrong((_, name) => [verdict({ executable: pathItem(`/usr/bin/${name}`), entrypoint: "interpreter" }), "accepted"]),
    "known programs not accepted with entrypoint interpreter",
  ).toEqual({});

  // The name is the last segment of the typed path, in any letter case, without trailing dots and
  // spaces, without its last extension, and without a version at its end.
  const spellings = {
    "C:\\Windows\\System32\\CMD.EXE": ["shell", "cmd"],
    "C:\\Program Files\\PowerShell\\7\\pwsh.exe": ["shell", "pwsh"],
    "C:\\Python312\\Python.EXE": ["interpreter", "python"],
    "/mnt/c/Windows/System32/cmd.exe": ["shell", "cmd"],
    "/usr/bin/python3.12": ["interpreter", "python"],
    "/usr/local/bin/lua5.4": ["interpreter", "lua"],
    "/usr/bin/perl5.36.0": ["interpreter", "perl"],
    "/bin/sh.distrib": ["shell", "sh"],
    "/usr/local/bin/Bash": ["shell", "bash"],
    // Every trailing dot and space goes, as Windows drops them; then only the last extension; then only
    // the version at the very end.
    "/usr/bin/bash  ": ["shell", "bash"],
    "/usr/bin/bash.": ["shell", "bash"],
    "C:\\Python312\\python3.12.exe": ["interpreter", "python"],
  } as const;
  const seen: Record<string, string> = {};
  for (const value of Object.keys(spellings)) seen[value] = verdict({ executable: pathItem(value) });
  expect(seen, "known programs under other spellings").toEqual(
    Object.fromEntries(Object.entries(spellings).map(([value, [kind, name]]) => [value, gated(kind, name, value)])),
  );

  // Programs whose names only look alike are native programs like any other.
  const lookalikes = ["/usr/local/bin/docbuild", "/usr/bin/shellcheck", "/usr/bin/node-gyp", "/usr/bin/nodemon", "/usr/bin/python-config"]
    .concat(["/usr/bin/envsubst", "/usr/bin/timedatectl", "/opt/tools/x264", "C:\\Windows\\System32\\cmdkey.exe"])
    // A version inside a name is part of it, and on POSIX a backslash is a character of the name.
    .concat(["/opt/tools/ba5sh", "/opt/tools/not\\bash"]);
  expect(
    Object.fromEntries(lookalikes.map((value) => [value, verdict({ executable: pathItem(value) })])),
    "programs whose names resemble a known one",
  ).toEqual(Object.fromEntries(lookalikes.map((value) => [value, "accepted"])));

  // The gate opens only this check: a batch file and a bare name stay refused, and the field is closed.
  expect(
    {
      "a batch file": verdict({ executable: pathItem("C:\\Tools\\build.cmd"), entrypoint: "interpreter" }),
      "a bare name": verdict({ executable: pathItem("sh"), entrypoint: "interpreter" }),
      "entrypoint shell": verdict({ executable: pathItem("/bin/sh"), entrypoint: "shell" }),
      "entrypoint native, said": verdict({ executable: pathItem("/usr/local/bin/docbuild"), entrypoint: "native" }),
      "the default": parseNativeRequest(request()).entrypoint,
    },
    "entrypoint with other executables and values",
  ).toEqual({
    "a batch file":
      'executable.value: "C:\\\\Tools\\\\build.cmd" is a batch file: Windows runs .bat and .cmd through cmd.exe, which parses the arguments again (BatBadBut, CVE-2024-27980)',
    "a bare name": 'executable.value: "sh" is a bare command name: nothing is looked up in PATH, give the absolute path of the program',
    "entrypoint shell": 'entrypoint: "shell" is not an entry point: use native or interpreter',
    "entrypoint native, said": "accepted",
    "the default": "native",
  });

  // On win32, cmd.exe /c is refused before anything looks at the disk or starts.
  const windows = new NativeExecutor({ platform: "win32", policy: () => FULL, nativeEnabled: () => true, workspace: "C:\\work" });
  const cmd = "C:\\Windows\\System32\\cmd.exe";
  expect(
    await windows.prepare(request({ executable: pathItem(cmd), argv: [literal("/c"), literal("del /q C:\\work\\*")] })).then(
      () => "prepared",
      (error: unknown) => (error instanceof NativeRequestError ? error.problems.join(" | ") : String(error)),
    ),
    "cmd.exe /c on win32",
  ).toBe(gated("shell", "cmd", cmd));
});

it("bounds argv at 4096 items and timeoutMs at 600000 ms", () => {
  const items = (count: number) => Array.from({ length: count }, (_, index) => literal(`--page=${index}`));
  // Refused by its length alone, with one problem: a million bad items are not each named.
  const million = verdict({ argv: Array.from({ length: 1_000_000 }, () => 42) });
  expect(
    {
      4095: verdict({ argv: items(4095) }),
      4096: verdict({ argv: items(4096) }),
      4097: verdict({ argv: items(4097) }),
      "a million items that are not even items": million,
      "argv that is not an array": verdict({ argv: "--all" }),
    },
    "argv at its limit",
  ).toEqual({
    4095: "accepted",
    4096: "accepted",
    4097: "argv: at most 4096 items, got 4097",
    "a million items that are not even items": "argv: at most 4096 items, got 1000000",
    "argv that is not an array": "argv: must be an array",
  });

  const timeouts: Record<string, unknown> = {
    "0": 0,
    "-1": -1,
    "0.5": 0.5,
    "1": 1,
    "599999": 599_999,
    "600000": 600_000,
    "600001": 600_001,
    Infinity: Number.POSITIVE_INFINITY,
    NaN: Number.NaN,
    '"1000"': "1000",
    null: null,
    "an object": { ms: 5 },
  };
  const outcomes: Record<string, string> = {};
  for (const [name, timeoutMs] of Object.entries(timeouts)) outcomes[name] = verdict({ timeoutMs });
  const refused = (got: string) => `timeoutMs: must be a number of milliseconds above 0 and at most 600000, got ${got}`;
  expect(outcomes, "timeoutMs at its limits").toEqual({
    "0": refused("0"),
    "-1": refused("-1"),
    "0.5": "accepted",
    "1": "accepted",
    "599999": "accepted",
    "600000": "accepted",
    "600001": refused("600001"),
    Infinity: refused("Infinity"),
    NaN: refused("NaN"),
    '"1000"': refused('"1000"'),
    null: refused("null"),
    "an object": refused("an object"),
  });
  expect(parseNativeRequest(request({ timeoutMs: 600_000 })).timeoutMs, "the longest deadline, kept").toBe(600_000);
});

it("refuses runInBackground together with an explicit timeoutMs", () => {
  const outcome = (fields: Record<string, unknown>) => {
    const found = problems(request(fields));
    if (typeof found !== "string") return found.join(" | ");
    const parsed = parseNativeRequest(request(fields));
    return `runInBackground ${parsed.runInBackground}, timeoutMs ${parsed.timeoutMs}`;
  };
  expect(
    {
      "background, no deadline": outcome({ runInBackground: true }),
      "background with a deadline": outcome({ runInBackground: true, timeoutMs: 5000 }),
      "background with a bad deadline": outcome({ runInBackground: true, timeoutMs: "soon" }),
      "foreground with a deadline": outcome({ runInBackground: false, timeoutMs: 5000 }),
      "foreground, default deadline": outcome({ runInBackground: false }),
      'runInBackground "yes"': outcome({ runInBackground: "yes" }),
    },
    "runInBackground and timeoutMs together",
  ).toEqual({
    "background, no deadline": "runInBackground true, timeoutMs null",
    "background with a deadline":
      "runInBackground: refused together with timeoutMs: a background run has no deadline, so give one or the other",
    "background with a bad deadline":
      'timeoutMs: must be a number of milliseconds above 0 and at most 600000, got "soon" | ' +
      "runInBackground: refused together with timeoutMs: a background run has no deadline, so give one or the other",
    "foreground with a deadline": "runInBackground false, timeoutMs 5000",
    "foreground, default deadline": "runInBackground false, timeoutMs 120000",
    'runInBackground "yes"': 'runInBackground: must be true or false, got "yes"',
  });
  // The exported schema holds the same rule, for a caller that validates with zod directly.
  expect(
    nativeRequestSchema.safeParse(request({ runInBackground: true, timeoutMs: 1 })).error?.issues.map((issue) => issue.path.join(".")),
    "the schema's issues for a background run with a deadline",
  ).toEqual(["runInBackground"]);
});

it("requires a Windows .exe path on win32 and a POSIX path elsewhere, before any IO", async () => {
  const workspace = temporaryFolder();
  const workspaces: Record<Platform, string> = { win32: "C:\\work\\docs", linux: workspace, darwin: workspace };
  const prepare = (platform: Platform, fields: Record<string, unknown>) => {
    const options: NativeExecutorOptions = { platform, policy: () => FULL, nativeEnabled: () => true, workspace: workspaces[platform] };
    // Some of these run node, which reads its arguments as code: each names the interpreter gate.
    return new NativeExecutor(options).prepare(request({ entrypoint: "interpreter", ...fields })).then(
      (prepared) => `prepared: ${prepared.executable}`,
      (error: unknown) => (error instanceof NativeRequestError ? error.problems.join(" | ") : String(error)),
    );
  };
  const exe = "C:\\Program Files\\DocBuild\\docbuild.exe";
  const outcomes = {
    "win32, a POSIX executable": await prepare("win32", { executable: pathItem("/usr/local/bin/docbuild") }),
    "win32, an MSYS path argument and cwd": await prepare("win32", {
      executable: pathItem(exe),
      argv: [literal("/all"), pathItem("/c/Users/ana/docs/index.md")],
      cwd: pathItem("/c/Users/ana/docs"),
    }),
    // Every rule of the form is met; this machine has no drive C:, so the check on the disk says so.
    "win32, a Windows .exe": await prepare("win32", { executable: pathItem(exe) }),
    "linux, a Windows executable": await prepare("linux", { executable: pathItem(exe) }),
    "darwin, a Windows path argument": await prepare("darwin", {
      executable: pathItem(process.execPath),
      argv: [pathItem("D:\\docs\\index.md")],
    }),
    "linux, no .exe needed": await prepare("linux", { executable: pathItem(process.execPath) }),
  };
  expect(outcomes, "prepare by platform and path form").toEqual({
    "win32, a POSIX executable":
      'executable.value: "/usr/local/bin/docbuild" is not a Windows path: give C:\\… (translateMsysPath turns an MSYS path into one)',
    "win32, an MSYS path argument and cwd":
      'argv[1].value: "/c/Users/ana/docs/index.md" is not a Windows path: give C:\\… (translateMsysPath turns an MSYS path into one) | ' +
      'cwd.value: "/c/Users/ana/docs" is not a Windows path: give C:\\… (translateMsysPath turns an MSYS path into one)',
    "win32, a Windows .exe": `executable.value: ${JSON.stringify(exe)} does not exist | cwd (the workspace): "C:\\\\work\\\\docs" does not exist`,
    "linux, a Windows executable": `executable.value: ${JSON.stringify(exe)} is not absolute on linux: give a /… path`,
    "darwin, a Windows path argument": 'argv[0].value: "D:\\\\docs\\\\index.md" is not absolute on darwin: give a /… path',
    "linux, no .exe needed": `prepared: ${process.execPath}`,
  });

  // The checks on the disk: a folder where the program belongs, a file where the folder belongs.
  const disk = {
    "a folder as the executable": await prepare("linux", { executable: pathItem(workspace) }),
    "a file as the cwd": await prepare("linux", { executable: pathItem(process.execPath), cwd: pathItem(process.execPath) }),
    "a missing cwd": await prepare("linux", { executable: pathItem(process.execPath), cwd: pathItem(`${workspace}/missing`) }),
    "a cwd below a file": await prepare("linux", { executable: pathItem(process.execPath), cwd: pathItem(`${process.execPath}/sub`) }),
    "a name too long to look up": await prepare("linux", { executable: pathItem(`/${"n".repeat(300)}`) }),
  };
  expect(disk, "prepare with paths that name the wrong kind of thing").toEqual({
    "a folder as the executable": `executable.value: ${JSON.stringify(workspace)} is not a file`,
    "a file as the cwd": `cwd.value: ${JSON.stringify(process.execPath)} is not a folder`,
    "a missing cwd": `cwd.value: ${JSON.stringify(`${workspace}/missing`)} does not exist`,
    "a cwd below a file": `cwd.value: ${JSON.stringify(`${process.execPath}/sub`)} does not exist`,
    "a name too long to look up": `executable.value: "/${"n".repeat(119)}…" (301 characters) cannot be checked (ENAMETOOLONG)`,
  });
});

/** What a call returned, or the error it threw, in words. */
function said(call: () => string): string {
  try {
    return call();
  } catch (error) {
    return String(error);
  }
}

const mounts = { "/tmp": "C:\\Users\\ana\\AppData\\Local\\Temp", "/": "C:\\Program Files\\Git" };

it("translateMsysPath maps drives and mounts to Windows paths by whole segments", () => {
  const paths = [
    "/c/Users/ana/report.docx",
    "/C/Users/ana/",
    "/c",
    "/d/builds//out/./app.exe",
    "/tmp",
    "/tmp/build.log",
    "/tmpfiles/x", // not under /tmp: a string prefix is not a folder
    "/etc/hosts", // under the root mount
    "/",
    "/tmp/../etc/profile", // .. is folded on the MSYS side: this is /etc/profile
    "/c/../tmp/x",
    "/cd/x", // not a drive: a folder under the root mount
    "C:/Users/ana/x.txt", // already native
    "D:\\builds\\app.exe",
  ];
  const translated: Record<string, string> = {};
  for (const value of paths) translated[value] = translateMsysPath(value, mounts);
  expect(translated, "each MSYS path, translated with /tmp and / mounted").toEqual({
    "/c/Users/ana/report.docx": "C:\\Users\\ana\\report.docx",
    "/C/Users/ana/": "C:\\Users\\ana",
    "/c": "C:\\",
    "/d/builds//out/./app.exe": "D:\\builds\\out\\app.exe",
    "/tmp": "C:\\Users\\ana\\AppData\\Local\\Temp",
    "/tmp/build.log": "C:\\Users\\ana\\AppData\\Local\\Temp\\build.log",
    "/tmpfiles/x": "C:\\Program Files\\Git\\tmpfiles\\x",
    "/etc/hosts": "C:\\Program Files\\Git\\etc\\hosts",
    "/": "C:\\Program Files\\Git",
    "/tmp/../etc/profile": "C:\\Program Files\\Git\\etc\\profile",
    "/c/../tmp/x": "C:\\Users\\ana\\AppData\\Local\\Temp\\x",
    "/cd/x": "C:\\Program Files\\Git\\cd\\x",
    "C:/Users/ana/x.txt": "C:\\Users\\ana\\x.txt",
    "D:\\builds\\app.exe": "D:\\builds\\app.exe",
  });
  // The longest mount wins, and a mount may take over a drive's name.
  const nested = { "/tmp/cache": "E:\\cache", "/tmp": "C:\\Temp", "/c": "F:\\c-drive\\", "/opt/": "C:\\opt" };
  expect(
    ["/tmp/cache/a", "/tmp/cachex/a", "/tmp/x", "/c/x", "/opt/tool"].map((value) => translateMsysPath(value, nested)),
    "paths under nested and overriding mounts",
  ).toEqual(["E:\\cache\\a", "C:\\Temp\\cachex\\a", "C:\\Temp\\x", "F:\\c-drive\\x", "C:\\opt\\tool"]);
});

it("translateMsysPath refuses empty input, NUL, URLs, relative paths and unknown mounts", () => {
  const attempts: Record<string, () => string> = {
    empty: () => translateMsysPath("", mounts),
    blank: () => translateMsysPath("  ", mounts),
    "not a string": () => translateMsysPath(undefined as unknown as string, mounts),
    NUL: () => translateMsysPath("/c/x\u0000.txt", mounts),
    "a file URL": () => translateMsysPath("file:///c/Users/ana/x.txt", mounts),
    "a web URL": () => translateMsysPath("https://example.com/c/x", mounts),
    relative: () => translateMsysPath("docs/index.md", mounts),
    "home ~": () => translateMsysPath("~/docs", mounts),
    "a network path": () => translateMsysPath("//server/share/x", mounts),
    "a backslash network path": () => translateMsysPath("\\\\server\\share\\x", mounts),
    "unknown mount": () => translateMsysPath("/opt/tool/bin", { "/tmp": "C:\\Temp" }),
    "no mounts at all": () => translateMsysPath("/usr/bin/env", {}),
    "a mount table that is not an object": () => translateMsysPath("/c/x", null as unknown as Record<string, string>),
    "a relative mount": () => translateMsysPath("/c/x", { tmp: "C:\\Temp" }),
    "a mount onto a POSIX folder": () => translateMsysPath("/c/x", { "/tmp": "/var/tmp" }),
    "a mount onto a number": () => translateMsysPath("/c/x", { "/tmp": 5 as unknown as string }),
    "a NUL in a mount": () => translateMsysPath("/c/x", { "/tmp\u0000": "C:\\Temp" }),
    "a NUL in a mount's folder": () => translateMsysPath("/c/x", { "/tmp": "C:\\Temp\u0000" }),
  };
  const outcomes: Record<string, string> = {};
  for (const [name, attempt] of Object.entries(attempts)) outcomes[name] = said(() => `returned ${attempt()}`);
  expect(outcomes, "translateMsysPath for inputs it cannot translate").toEqual({
    empty: "Error: an MSYS path is required",
    blank: "Error: an MSYS path is required",
    "not a string": "Error: an MSYS path is required",
    NUL: 'Error: "/c/x\\u0000.txt" contains a NUL byte',
    "a file URL": 'Error: "file:///c/Users/ana/x.txt" is a URL, not a path',
    "a web URL": 'Error: "https://example.com/c/x" is a URL, not a path',
    relative: 'Error: "docs/index.md" is relative: only an absolute MSYS path names one place',
    "home ~": 'Error: "~/docs" is relative: only an absolute MSYS path names one place',
    "a network path": 'Error: "//server/share/x" is a network path or an MSYS escape: it is not translated',
    "a backslash network path": 'Error: "\\\\\\\\server\\\\share\\\\x" is a network path or an MSYS escape: it is not translated',
    "unknown mount": 'Error: "/opt/tool/bin" is under no known mount (unknown mount; mounts: /tmp, and the drives /a to /z)',
    "no mounts at all": 'Error: "/usr/bin/env" is under no known mount (unknown mount; mounts: none, and the drives /a to /z)',
    "a mount table that is not an object": "TypeError: the mount table must be an object",
    "a relative mount": 'TypeError: invalid mount table: "tmp" is not an absolute MSYS folder',
    "a mount onto a POSIX folder": 'TypeError: invalid mount table: "/tmp" must map to a Windows folder such as C:\\…, got "/var/tmp"',
    "a mount onto a number": 'TypeError: invalid mount table: "/tmp" must map to a Windows folder such as C:\\…, got 5',
    "a NUL in a mount": 'TypeError: invalid mount table: "/tmp\\u0000" is not an absolute MSYS folder',
    "a NUL in a mount's folder":
      'TypeError: invalid mount table: "/tmp" must map to a Windows folder such as C:\\…, got "C:\\\\Temp\\u0000"',
  });
});

it("translateMsysPath calls a value a URL only when it begins with a scheme", () => {
  // A colon further in makes no URL: the refusal names what is really wrong with the value.
  expect(
    {
      "a relative path with a colon in a name": said(() => translateMsysPath("docs/v2:draft.md", mounts)),
      "a network path with a colon in a name": said(() => translateMsysPath("//server/docs/v2:draft.md", mounts)),
      "a URL": said(() => translateMsysPath("https://example.com/docs/v2:draft.md", mounts)),
    },
    "translateMsysPath for values with a colon",
  ).toEqual({
    "a relative path with a colon in a name": expect.stringContaining("is relative"),
    "a network path with a colon in a name": expect.stringContaining("is a network path"),
    "a URL": expect.stringContaining("is a URL"),
  });
});

it("translateMsysPath refuses a mount table that is not an object of Windows folders", () => {
  const attempts: Record<string, () => string> = {
    "no mount table": () => translateMsysPath("/c/x", undefined as unknown as Record<string, string>),
    "a string": () => translateMsysPath("/c/x", "C:\\msys64" as unknown as Record<string, string>),
    "a number": () => translateMsysPath("/c/x", 5 as unknown as Record<string, string>),
    "a mount onto an array": () => translateMsysPath("/c/x", { "/tmp": ["C:\\Temp"] } as unknown as Record<string, string>),
  };
  const outcomes: Record<string, string> = {};
  for (const [name, attempt] of Object.entries(attempts)) outcomes[name] = said(() => `returned ${attempt()}`);
  expect(outcomes, "translateMsysPath with mount tables it cannot read").toEqual({
    "no mount table": "TypeError: the mount table must be an object",
    "a string": "TypeError: the mount table must be an object",
    "a number": "TypeError: the mount table must be an object",
    "a mount onto an array": 'TypeError: invalid mount table: "/tmp" must map to a Windows folder such as C:\\…, got an array',
  });
});

it("translateMsysPath names each mount it knows when a path is under none", () => {
  const message = said(() => translateMsysPath("/opt/tool", { "/tmp": "C:\\Temp", "/home": "C:\\Users" }));
  const named = /mounts: (.*), and the drives/.exec(message)?.[1]?.split(/,\s*/);
  expect(named, `the mounts named in ${JSON.stringify(message)}`).toEqual(["/tmp", "/home"]);
});

it("translateMsysPath answers from its mount table alone and grants no permission", async () => {
  // No file system, no environment: the same path under two tables gives two answers, and paths
  // that exist on no disk here translate all the same.
  const one = translateMsysPath("/tmp/build.log", { "/tmp": "C:\\Temp" });
  const other = translateMsysPath("/tmp/build.log", { "/tmp": "E:\\scratch" });
  // Only the table's own entries count: an inherited one, or a "__proto__" key from JSON, is not a mount.
  const inherited = said(() => translateMsysPath("/opt/x", Object.create({ "/opt": "C:\\opt" }) as Record<string, string>));
  const fromJson = said(() => translateMsysPath("/c/x", JSON.parse('{"__proto__": "C:\\\\proto"}') as Record<string, string>));
  expect({ one, other, inherited, fromJson }, "one path under different mount tables").toEqual({
    one: "C:\\Temp\\build.log",
    other: "E:\\scratch\\build.log",
    inherited: 'Error: "/opt/x" is under no known mount (unknown mount; mounts: none, and the drives /a to /z)',
    fromJson: 'TypeError: invalid mount table: "__proto__" is not an absolute MSYS folder',
  });

  // A translated path is a name, not a permission: under read-only on win32 nothing runs.
  const sam = translateMsysPath("/c/Windows/System32/config/SAM", mounts);
  const readOnly = new NativeExecutor({ platform: "win32", policy: () => "read-only", nativeEnabled: () => true, workspace: "C:\\work" });
  const outcome = await readOnly
    .prepare(request({ executable: pathItem("C:\\Windows\\System32\\reg.exe"), argv: [literal("save"), pathItem(sam)] }))
    .then(
      () => "prepared",
      (error: unknown) => `${(error as Error).name} (${String((error as { code?: unknown }).code)})`,
    );
  expect({ sam, outcome }, "a system file's MSYS path, translated and then asked for under read-only").toEqual({
    sam: "C:\\Windows\\System32\\config\\SAM",
    outcome: "SandboxUnavailableError (SANDBOX_UNAVAILABLE)",
  });
});
