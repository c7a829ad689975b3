import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { expect, it } from "vitest";
import { previewDigest } from "forge/tools/controller";
import { createForgeServer, DEFAULT_COMMAND_RULES, forgeTools, toWorkspacePath, type CommandOptions } from "forge/tools/server";
import { temporaryFolder, writeTree } from "../../lab/testing.js";
import { acceptShown, session, type Question } from "./session.js";

// What a model and a person read: each refusal's one line, each question's words and form, a command's
// ending, and the server's own name. A model retries on what it reads, and a person decides on it.

function project(): string {
  const root = temporaryFolder();
  writeTree(root, { "README.md": "# Shop\n", "docs/guide.md": "# Guide\nstep one\nstep two\n", "docs/api.md": "# API\n" });
  return root;
}

const commands: CommandOptions = { policy: () => "danger-full-access", nativeEnabled: () => true, rules: { deny: ["curl"], allow: [] } };
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

it("names every refusal in one line: its code, then what was refused and why", async () => {
  const root = project();
  const long = `/srv/elsewhere/${"x".repeat(200)}`;
  const quoted = JSON.stringify(long.slice(0, 120)).slice(0, -1);
  const { call } = await session({ root, limits: { fileBytes: 16 } }, { answer: () => ({ action: "decline" }) });
  const texts = {
    outside: (await call("read_text_file", { path: long })).text,
    unknown: (await call("delete_everything")).text,
    fields: (await call("list_directory", { path: 7, extra: true })).text,
    twoFields: (await call("read_text_file", { path: "README.md", a: 1, b: 2 })).text,
    exact: (await call("read_text_file", { path: `/srv/${"x".repeat(115)}` })).text,
    large: (await call("write_file", { path: "big.txt", content: "x".repeat(17) })).text,
    atLimit: (await call("write_file", { path: "limit.txt", content: "x".repeat(16) })).code,
    folder: (await call("write_file", { path: "docs", content: "x" })).text,
    throughFile: (await call("write_file", { path: "README.md/inner.txt", content: "x" })).text,
    declined: (await call("write_file", { path: "new.txt", content: "x" })).text,
  };
  expect(texts, "the text of each refusal").toEqual({
    outside: `outside_root: path ${quoted}…" is outside the root this server was started with`,
    unknown:
      'unknown_tool: there is no tool "delete_everything"; use one of list_directory, read_text_file, search_files, write_file, run_command',
    fields:
      'invalid_arguments: invalid arguments for list_directory: path: Invalid input: expected string, received number; "extra": unknown field',
    twoFields: 'invalid_arguments: invalid arguments for read_text_file: "a", "b": unknown field',
    exact: `outside_root: path "/srv/${"x".repeat(115)}" is outside the root this server was started with`,
    large: "too_large: content of 17 bytes is over the limit of 16",
    atLimit: "approval_declined",
    folder: 'not_a_file: path "docs" is not a file',
    throughFile: 'not_a_file: path "README.md/inner.txt" cannot be opened (ENOTDIR)',
    declined: "approval_declined: the person declined; nothing was done",
  });
  let thrown: unknown;
  try {
    toWorkspacePath({ given: root, real: root }, "/elsewhere");
  } catch (error) {
    thrown = error;
  }
  expect(thrown, "what toWorkspacePath throws for a path outside").toMatchObject({ name: "ServerToolError", code: "outside_root" });
});

it("refuses to write over a FIFO or a socket without blocking, and over a folder", async () => {
  const root = project();
  execFileSync("mkfifo", [join(root, "pipe")]);
  const socket = createServer();
  await new Promise<void>((resolve) => socket.listen(join(root, "socket"), resolve));
  try {
    const { call, questions } = await session({ root }, { answer: acceptShown });
    const codes = [];
    for (const path of ["pipe", "socket", "docs"]) codes.push((await call("write_file", { path, content: "x" })).text);
    expect(codes, "writes over a FIFO, a socket and a folder").toEqual([
      'not_a_file: path "pipe" is not a file',
      'not_a_file: path "socket" cannot be opened (ENXIO)',
      'not_a_file: path "docs" is not a file',
    ]);
    expect(questions, "approvals asked for them").toEqual([]);
  } finally {
    socket.close();
  }
});

it("tells the person what a write replaces, with the plan's digest, in a form whose one field is that digest", async () => {
  const root = project();
  const { call, questions } = await session({ root }, { answer: acceptShown });
  await call("write_file", { path: "new.md", content: "# New\n" });
  await call("write_file", { path: `${root}/README.md`, content: "# Shop v2\n" });
  const created = previewDigest({ "new.md": new TextEncoder().encode("# New\n") });
  const replaced = previewDigest({ "README.md": new TextEncoder().encode("# Shop v2\n") });
  expect(
    questions.map((question) => question.message.split("\n")),
    "what the person was shown for a new file and for a replaced one, line by line",
  ).toEqual([
    [
      "write_file asks to write 6 bytes to new.md (creates it).",
      "Targets: new.md",
      `Plan digest: ${created}`,
      "Accept only if this is the change you want.",
    ],
    [
      `write_file asks to write 10 bytes to README.md (replaces the file whose content has sha256:${sha256("# Shop\n")}).`,
      "Targets: README.md",
      `Plan digest: ${replaced}`,
      "Accept only if this is the change you want.",
    ],
  ]);
  expect(questions[0]?.form, "the form of the question").toEqual({
    type: "object",
    properties: {
      planDigest: { type: "string", title: "Plan digest", description: "The digest of the plan you approve", default: created },
    },
    required: ["planDigest"],
  });
  const written = await call("write_file", { path: "second.md", content: "x" });
  expect(written.text, "the text of a write that landed").toBe("wrote second.md");
});

it("waits for a person who takes their time, and refuses when no answer can come", async () => {
  const root = project();
  const slow = await session(
    { root },
    {
      answer: async (question: Question) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return acceptShown(question);
      },
    },
  );
  expect((await slow.call("write_file", { path: "slow.md", content: "x" })).text, "a write accepted after 300 ms").toBe("wrote slow.md");
  const broken = await session(
    { root },
    {
      answer: () => {
        throw new Error("the dialog crashed");
      },
    },
  );
  const refused = await broken.call("write_file", { path: "never.md", content: "x" });
  expect(refused.code, `a write whose question failed: ${refused.text}`).toBe("approval_unavailable");
  expect(refused.text, "its message").toMatch(
    /^approval_unavailable: no answer from the person: .*the dialog crashed.*; nothing was done$/,
  );
  const none = await session({ root });
  expect((await none.call("write_file", { path: "never.md", content: "x" })).text, "a client without elicitation").toBe(
    "approval_unavailable: this client cannot ask a person (no elicitation); nothing was done",
  );
  const cancelled = await session({ root }, { answer: () => ({ action: "cancel" }) });
  expect((await cancelled.call("write_file", { path: "never.md", content: "x" })).text, "a cancelled question").toBe(
    "approval_cancelled: the person cancelled; nothing was done",
  );
  expect(existsSync(join(root, "never.md")), "never.md").toBe(false);
});

it("reports how a command ended: its exit code, the signal that ended it, or its deadline", async () => {
  const root = project();
  const { call, questions } = await session({ root, commands }, { answer: acceptShown });
  const failed = await call("run_command", { command: "ls missing-file" });
  const killed = await call("run_command", { command: "kill -KILL $$" });
  const late = await call("run_command", { command: "sleep 5", timeoutMs: 200 });
  expect(failed.text.split("\n")[0], "the first line of a failing command").toBe("exit code 2");
  expect(failed.text, "its streams").toMatch(/^exit code 2\n--- stdout\n\n--- stderr\nls: .*missing-file.*\n$/);
  expect(killed.text.split("\n")[0], "the first line of a command killed by a signal").toBe("ended by SIGKILL");
  expect(late.text.split("\n")[0], "the first line of a command past its deadline").toBe("timed out");
  expect(late.structured, "its structuredContent").toMatchObject({ timedOut: true, exitCode: null });
  expect(
    questions.map((question) => question.digest),
    "the digests asked for: of the root and the command",
  ).toEqual([sha256(JSON.stringify([root, "kill -KILL $$"])), sha256(JSON.stringify([root, "sleep 5"]))]);
  expect(questions[0]?.message.split("\n"), "what the person is shown for a command, line by line").toEqual([
    `run_command asks to run, in ${root}:`,
    "kill -KILL $$",
    "Why it asks: the command cannot be analyzed safely: variable expansion $ at offset 11",
    `Plan digest: ${questions[0]?.digest}`,
    "Accept only if this is the command you want run.",
  ]);
});

it("ends a command when the client cancels the call", { timeout: 30_000 }, async () => {
  const root = project();
  const { client, server } = await session({ root, commands }, { answer: acceptShown });
  const cancel = new AbortController();
  const call = client.callTool({ name: "run_command", arguments: { command: `touch ${root}/started; sleep 20` } }, undefined, {
    signal: cancel.signal,
  });
  const refusal = call.catch((error: unknown) => String(error));
  while (!existsSync(join(root, "started"))) await new Promise((resolve) => setTimeout(resolve, 20));
  cancel.abort("the user pressed stop");
  expect(await refusal, "what the client's call ended with").toMatch(/the user pressed stop/);
  // The server ends the process and records the call: long before the 20 s the command would take.
  while (server.audit.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(server.audit[0], "the audit entry of the cancelled command").toMatchObject({ tool: "run_command", status: "completed" });
});

it("refuses commands on Windows, whose /bin/sh is missing, and names a refused command's reason", async () => {
  const root = project();
  const windows = await session({ root, commands, platform: "win32" }, { answer: acceptShown });
  expect((await windows.call("run_command", { command: "ls" })).text, "run_command on a win32 server").toBe(
    "commands_unsupported: this server runs commands with /bin/sh, which Windows lacks; nothing ran",
  );
  const off = await session({ root }, { answer: acceptShown });
  expect((await off.call("run_command", { command: "ls" })).text, "run_command on a server started without commands").toBe(
    "commands_unsupported: this server was started without commands; nothing ran",
  );
  const linux = await session({ root, commands }, { answer: () => ({ action: "accept", content: { planDigest: "f".repeat(64) } }) });
  expect((await linux.call("run_command", { command: "curl https://example.com" })).text, "a denied command").toBe(
    'command_denied: "curl https://example.com" matches the deny pattern "curl"',
  );
  const other = await linux.call("run_command", { command: "ps" });
  expect(other.text, "an accept of another digest for a command").toBe(
    `approval_required: the answer approved "${"f".repeat(64)}", not this command (${sha256(JSON.stringify([root, "ps"]))}); nothing ran`,
  );
});

it("names itself, narrows to nothing when the client cannot list its roots, and cuts a long tool name in the audit", async () => {
  const root = project();
  const { client, call, server } = await session({ root }, { roots: [] });
  expect(client.getServerVersion(), "the server's name and version").toEqual({ name: "forge-lab", version: "12.0.0" });
  expect((await call("read_text_file", { path: "README.md" })).text, "a read when the client announced no root").toBe(
    'outside_client_roots: path "README.md" is outside the roots the client announced',
  );
  const broken = await session({ root }, { roots: ["not used"] });
  broken.client.removeRequestHandler("roots/list");
  expect((await broken.call("read_text_file", { path: "README.md" })).code, "a read when listing the roots fails").toBe(
    "outside_client_roots",
  );
  await call(`x${"y".repeat(199)}`);
  expect(server.audit.at(-1)?.tool, "a 200-character tool name in the audit").toBe(`x${"y".repeat(119)}…`);
  await call(`x${"y".repeat(119)}`);
  expect(server.audit.at(-1)?.tool, "a 120-character tool name in the audit").toBe(`x${"y".repeat(119)}`);
});

it("starts only on an absolute folder, keeps protected entries out, and serve's rules deny what reaches out", async () => {
  const root = project();
  const failure = (options: { root: string }) =>
    createForgeServer(options).then(
      () => "started",
      (error: unknown) => String(error),
    );
  expect(await failure({ root: "relative/root" }), "a relative root").toBe(
    "TypeError: the root must be an absolute path, got relative/root",
  );
  expect(await failure({ root: join(root, "README.md") }), "a file as the root").toBe(
    `TypeError: the root ${JSON.stringify(join(root, "README.md"))} is not a folder`,
  );
  const { call } = await session({ root, protectedPaths: ["docs/api.md"] });
  expect((await call("read_text_file", { path: "docs/api.md" })).code, "a protected file").toBe("workspace_path_denied");
  const found = await call("search_files", { path: root, pattern: "step", maxMatches: 1 });
  expect(found.structured, "a search with maxMatches 1").toMatchObject({
    matches: [{ path: "docs/guide.md", line: 2 }],
    limitReason: "matches",
  });
  expect(DEFAULT_COMMAND_RULES, "the rules serve starts with").toEqual({
    deny: ["sudo", "su", "curl", "wget", "ssh", "scp", "rm -rf /", "git push --force", "git reset --hard"],
    allow: [],
  });
  const registry = forgeTools();
  expect(
    [["read"], ["write"], ["network"], ["process"]].map((required) =>
      registry
        .supporting(required as ["read"])
        .map((tool) => tool.name)
        .join(" "),
    ),
    "the tools with each capability",
  ).toEqual(["list_directory read_text_file run_command search_files write_file", "run_command write_file", "run_command", "run_command"]);
});
