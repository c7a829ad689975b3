// Preloaded (node --import) by the CLI tests to make the file system misbehave at a planned moment:
// a kill, a full disk, a read-only mount, or an editor saving a file while a command runs.
//
// FORGE_INJECT holds a JSON array of rules, each applied to the calls of one fs function:
//   { "call": "rename" | "renameSync" | "open" | "openSync" | "unlink" | "unlinkSync",
//     "path": "a substring the path must contain (the destination, for a rename)",
//     "from": 1,      // the first matching call the rule applies to (1-based)
//     "times": 1,     // how many calls it applies to; 0 means every one from then on
//     "do": "kill" | "kill-after" | "fail:ENOSPC" | "save:<file>=<text>" }
// "kill" kills the process before the call, "kill-after" right after it; "fail:CODE" throws an error
// with that code instead of calling; "save" writes <text> to <file> (as an editor would), then calls.
// When FORGE_INJECT_LOG names a file, each rule that fires appends a line to it (for a scenario to know
// whether a planned moment was reached at all).
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";

// The originals, for the "save" action: its own writes must not count as calls the rules see.
const raw = { openSync: fs.openSync, writeSync: fs.writeSync, closeSync: fs.closeSync };
const rules = JSON.parse(process.env.FORGE_INJECT ?? "[]").map((rule) => ({ from: 1, times: 1, ...rule, seen: 0 }));

function matching(call, path) {
  for (const rule of rules) {
    if (rule.call !== call || (rule.path && !String(path).includes(rule.path))) continue;
    rule.seen += 1;
    if (rule.seen >= rule.from && (rule.times === 0 || rule.seen < rule.from + rule.times)) return rule;
  }
  return null;
}

function before(rule) {
  if (!rule) return;
  if (process.env.FORGE_INJECT_LOG) fs.appendFileSync(process.env.FORGE_INJECT_LOG, `${rule.call} #${rule.seen}: ${rule.do}\n`);
  if (rule.do === "kill") process.kill(process.pid, "SIGKILL");
  if (rule.do.startsWith("fail:")) {
    const code = rule.do.slice(5);
    throw Object.assign(new Error(`${code}: injected failure`), { code });
  }
  if (rule.do.startsWith("save:")) {
    const [file, text = ""] = rule.do.slice(5).split("=");
    const handle = raw.openSync(file, "w");
    raw.writeSync(handle, text);
    raw.closeSync(handle);
  }
}

const after = (rule) => {
  if (rule?.do === "kill-after") process.kill(process.pid, "SIGKILL");
};

function wrapSync(name, pathOf) {
  const original = fs[name];
  fs[name] = function (...args) {
    const rule = matching(name, pathOf(args));
    before(rule);
    const result = original.apply(this, args);
    after(rule);
    return result;
  };
}

function wrapAsync(name, pathOf) {
  const original = fs.promises[name];
  fs.promises[name] = async function (...args) {
    const rule = matching(name, pathOf(args));
    before(rule);
    const result = await original.apply(this, args);
    after(rule);
    return result;
  };
}

wrapSync("renameSync", (args) => args[1]);
wrapSync("openSync", (args) => args[0]);
wrapSync("unlinkSync", (args) => args[0]);
wrapAsync("rename", (args) => args[1]);
wrapAsync("open", (args) => args[0]);
wrapAsync("unlink", (args) => args[0]);
syncBuiltinESMExports();
