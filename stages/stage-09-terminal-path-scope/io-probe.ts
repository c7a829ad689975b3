// Runs a scope module's decide() and alwaysAllowPattern() with the file system and the environment
// booby-trapped, and prints what they touched. Started by scope.test.ts as a child process, bundled:
//   node io-probe.mjs <module file> <cases as JSON>
// Every function of node:fs and node:fs/promises (named ESM imports included), process.cwd and every
// read of process.env record the call and throw while the traps are armed.
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { pathToFileURL } from "node:url";

interface Case {
  readonly command: string;
  readonly context: { readonly cwd: string; readonly root: string };
  readonly rules: { readonly deny: readonly string[]; readonly allow: readonly string[] };
}

interface ScopeModule {
  decide(command: string, context: Case["context"], rules: Case["rules"]): unknown;
  alwaysAllowPattern(command: string, context: Case["context"], rules: Case["rules"]): unknown;
}

const touched: string[] = [];
let armed = false;

function touch(name: string): void {
  if (!armed) return;
  touched.push(name);
  throw new Error(`${name} was used: the policy must do no IO`);
}

function trapFunctions(target: object, label: string): void {
  const record = target as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    const original = record[name];
    // Classes (Stats, Dirent, ReadStream) are not calls the policy could make on the disk by themselves.
    if (typeof original !== "function" || /^[A-Z]/.test(name)) continue;
    record[name] = function trapped(this: unknown, ...args: unknown[]): unknown {
      touch(`${label}.${name}`);
      return Reflect.apply(original, this, args);
    };
  }
}

trapFunctions(fs, "fs");
trapFunctions(fs.promises, "fs.promises");
// `import { statSync } from "node:fs"` reads the ESM namespace, which is updated only on request.
syncBuiltinESMExports();

const cwd = process.cwd.bind(process);
process.cwd = () => {
  touch("process.cwd");
  return cwd();
};
process.env = new Proxy(process.env, {
  get(target, key, receiver) {
    if (typeof key === "string") touch(`process.env.${key}`);
    return Reflect.get(target, key, receiver);
  },
  has(target, key) {
    if (typeof key === "string") touch(`process.env.${key}`);
    return Reflect.has(target, key);
  },
  ownKeys(target) {
    touch("process.env (listed)");
    return Reflect.ownKeys(target);
  },
});

const [moduleFile, casesJson] = process.argv.slice(2);
if (moduleFile === undefined || casesJson === undefined) throw new Error("usage: io-probe <module file> <cases as JSON>");
const cases = JSON.parse(casesJson) as Case[];

// Armed after the import: Node's module loader reads the module's file through these very functions.
const scope = (await import(pathToFileURL(moduleFile).href)) as ScopeModule;
const results: unknown[] = [];
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
armed = true;
try {
  for (const { command, context, rules } of cases) {
    try {
      results.push({ decision: scope.decide(command, context, rules), pattern: scope.alwaysAllowPattern(command, context, rules) });
    } catch (error) {
      results.push({ error: message(error) });
    }
  }
} finally {
  armed = false;
}
process.stdout.write(`${JSON.stringify({ touched, results })}\n`);
