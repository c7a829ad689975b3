import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { alwaysAllowPattern, decide, type Action, type CommandRules } from "forge/tools/scope";

// A recorded agent session: the task was "Expose a public route GET /api/greeting" in a project
// worktree. The harness ran every command from /workspace, the platform's own repository. The agent
// proposed 14 actions over 15 turns and wrote 0 lines, because nearly every turn ended waiting for a
// click. The tests replay it under the policy before scope and under this stage's policy.
interface SessionAction {
  readonly turn: number;
  readonly command: string;
  /** What the user clicked in the recorded session when the command asked; null when it did not. */
  readonly response: "approve_once" | "always_allow" | null;
}

interface Session {
  readonly task: string;
  readonly root: string;
  readonly cwd: string;
  readonly turns: number;
  readonly linesWritten: number;
  readonly rules: { readonly deny: readonly string[]; readonly seededAllow: readonly string[] };
  readonly actions: readonly SessionAction[];
}

const session = JSON.parse(
  readFileSync(new URL("../../fixtures/stage-09-terminal-path-scope/session.json", import.meta.url), "utf8"),
) as Session;
const context = { cwd: session.cwd, root: session.root };
const WORKTREE = `${session.root}/.worktrees/dev-http-api`;
/** The "always allow" of turn 3: the literal command the old button stored. */
const LITERAL = session.actions[2]?.command ?? "";

/**
 * The policy before scope, as the session ran it: split at the four operators, deny when a segment
 * starts with a deny pattern's words, approve when every segment starts with an allow pattern's
 * words. `cd` is a segment like any other. An entry stored by the old "always allow" is a whole
 * command, so it is compared with the whole command.
 */
function before(command: string, rules: CommandRules): Action {
  const words = (text: string) => text.trim().split(/\s+/);
  const startsWith = (subject: readonly string[], pattern: string) => words(pattern).every((token, index) => subject[index] === token);
  const isWholeCommand = (pattern: string) => /&&|\|\||;|\|/.test(pattern);
  const segments = command.split(/&&|\|\||;|\|/).map(words);
  if (segments.some((segment) => rules.deny.some((pattern) => startsWith(segment, pattern)))) return "deny";
  if (rules.allow.some((pattern) => isWholeCommand(pattern) && startsWith(words(command), pattern))) return "auto_approve";
  const allowed = (segment: readonly string[]) => rules.allow.some((pattern) => !isWholeCommand(pattern) && startsWith(segment, pattern));
  return segments.every(allowed) ? "auto_approve" : "require_approval";
}

/** Replays the session; a click on "always allow" adds what `remember` returns to the allow list. */
function replay(
  decideOne: (command: string, rules: CommandRules) => Action,
  allow: readonly string[],
  remember: (command: string, rules: CommandRules) => string | null,
) {
  const rules = { deny: [...session.rules.deny], allow: [...allow] };
  const outcomes = session.actions.map(({ command, response }) => {
    const action = decideOne(command, rules);
    if (action === "require_approval" && response === "always_allow") {
      const pattern = remember(command, rules);
      if (pattern !== null) rules.allow.push(pattern);
    }
    return action;
  });
  return { outcomes, stored: rules.allow.slice(allow.length) };
}

const count = (outcomes: readonly Action[]) => ({
  auto_approve: outcomes.filter((action) => action === "auto_approve").length,
  require_approval: outcomes.filter((action) => action === "require_approval").length,
  deny: outcomes.filter((action) => action === "deny").length,
});

const withScope = (command: string, rules: CommandRules) => decide(command, context, rules).action;
const generalized = (command: string, rules: CommandRules) => alwaysAllowPattern(command, context, rules);

it("replays the 14-action session: 2 auto-approved before scope, 7 after", () => {
  expect(
    { actions: session.actions.length, turns: session.turns, linesWritten: session.linesWritten, task: session.task },
    "the recorded session",
  ).toEqual({ actions: 14, turns: 15, linesWritten: 0, task: "Expose a public route GET /api/greeting" });

  const old = replay(before, session.rules.seededAllow, (command) => command);
  // Scope replaces the seeded read verbs: they become declared verbs that count inside the root only.
  const scoped = replay(withScope, [], generalized);
  // For comparison: scope on, but the seeded allow list kept, which approves its verbs anywhere.
  const kept = replay(withScope, session.rules.seededAllow, generalized);

  const table = session.actions.map(({ turn }, index) => ({
    turn,
    before: old.outcomes[index],
    after: scoped.outcomes[index],
    afterKeepingSeededAllow: kept.outcomes[index],
  }));
  const row = (turn: number, before: Action, after: Action, afterKeepingSeededAllow: Action) => ({
    turn,
    before,
    after,
    afterKeepingSeededAllow,
  });
  expect(table, "turn → outcome before scope, after, and after with the seeded allow list kept").toEqual([
    row(1, "require_approval", "auto_approve", "auto_approve"), // cd <worktree> && ls -la
    row(2, "require_approval", "auto_approve", "auto_approve"), // cd <worktree> && cat package.json
    row(3, "require_approval", "require_approval", "require_approval"), // the 191-character listing, 2>/dev/null
    row(4, "auto_approve", "require_approval", "auto_approve"), // cat apps/engine/mix.exs, in /workspace
    row(5, "require_approval", "auto_approve", "auto_approve"), // ls -la src src/routes
    row(6, "require_approval", "auto_approve", "auto_approve"), // grep -rn "router" src --include="*.ts"
    row(7, "auto_approve", "require_approval", "auto_approve"), // cat lib/engine/actions/git_executor.ex
    row(8, "require_approval", "require_approval", "require_approval"), // sed -n '1,120p' …, in /workspace
    row(9, "require_approval", "auto_approve", "auto_approve"), // cat src/server.ts src/routes/health.ts
    row(10, "require_approval", "auto_approve", "auto_approve"), // git status && git log --oneline -5
    row(11, "require_approval", "auto_approve", "auto_approve"), // pnpm test
    row(12, "require_approval", "require_approval", "require_approval"), // pnpm add zod
    row(13, "require_approval", "require_approval", "require_approval"), // curl -s http://localhost:3000/…
    row(14, "deny", "deny", "deny"), // git push --force origin dev-http-api
  ]);
  expect(
    { before: count(old.outcomes), after: count(scoped.outcomes), afterKeepingSeededAllow: count(kept.outcomes) },
    "auto-approved / asked / denied",
  ).toEqual({
    before: { auto_approve: 2, require_approval: 11, deny: 1 },
    after: { auto_approve: 7, require_approval: 6, deny: 1 },
    afterKeepingSeededAllow: { auto_approve: 9, require_approval: 4, deny: 1 },
  });
  // The old button stored the literal command; the new one found nothing it could generalize.
  expect({ before: old.stored, after: scoped.stored }, "what always allow stored").toEqual({ before: [LITERAL], after: [] });
});

it("asks for the 200-character always-allow command, and never stores it literally", () => {
  expect(LITERAL, "the command of turn 3").toBe(
    `cd ${WORKTREE} && find . -type f | head -50; echo "---docs---"; ls -la docs .github; echo "---"; cat .git 2>/dev/null`,
  );
  expect(LITERAL.length, "its length").toBe(191);
  expect(decide(LITERAL, context, { deny: [], allow: [] }), "turn 3 under scope").toEqual({
    action: "require_approval",
    reason: "the command cannot be analyzed safely: a redirection at offset 181",
    authorizedBy: null,
  });
  expect(alwaysAllowPattern(LITERAL, context, { deny: [], allow: [] }), "no pattern for what cannot be analyzed").toBeNull();

  // The old literal entry matched only the identical command: no later turn, and no near variant.
  const literalOnly = { deny: [], allow: [LITERAL] };
  const variant = LITERAL.replace("head -50", "head -60");
  expect(
    {
      identical: before(LITERAL, literalOnly),
      variant: before(variant, literalOnly),
      laterTurns: session.actions.slice(3).filter(({ command }) => before(command, literalOnly) === "auto_approve").length,
    },
    "what the stored literal approved",
  ).toEqual({ identical: "auto_approve", variant: "require_approval", laterTurns: 0 });

  // Without the redirection it still asks from /workspace: after `;` the cd may have failed, and
  // `ls -la docs .github` would list /workspace. Joined by &&, or started in the worktree, it passes.
  const bare = LITERAL.replace(" 2>/dev/null", "");
  const joined = bare.replaceAll("; ", " && ");
  const outcome = (command: string, cwd: string) => {
    const decision = decide(command, { cwd, root: session.root }, { deny: [], allow: [] });
    return `${decision.action}: ${decision.reason}`;
  };
  expect(
    { fromWorkspace: outcome(bare, "/workspace"), joined: outcome(joined, "/workspace"), fromWorktree: outcome(bare, WORKTREE) },
    "the listing without its redirection",
  ).toEqual({
    fromWorkspace: `require_approval: "echo \\"---docs---\\"" asks: it runs in "/workspace", outside the project root ${session.root}`,
    joined: `auto_approve: declared read or build verbs inside the project root ${session.root}`,
    fromWorktree: `auto_approve: declared read or build verbs inside the project root ${session.root}`,
  });
});
