// `vitest.config.ts` bundled once and loaded as it is until one of its files changes. Vite bundles the
// configuration with every lab module it imports on every run (29 files); on two cores that took about
// 100 ms of a 0.7 s `npm test -- stage-01 --run`, as long as the rest of the configuration's work.
// `npm test`'s command (lab/bin/test.mjs) asks here for a bundle that is current and hands it to vitest
// with Node's own loader. The bundle is made the way vite makes its own: packages stay imports, and each
// file's `import.meta.url` is the file's own, so paths computed from it do not move.
// Plain JavaScript, like compile-cache.mjs, so that the command can load it before any TypeScript
// loader. Its type is in config-bundle.d.mts.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, extname, isAbsolute, join, relative } from "node:path";
import { pathToFileURL } from "node:url";

/** Raised when what a bundle is made of changes: a bundle made before it is never read. */
const FORMAT = 1;

/** How esbuild reads each kind of file the configuration may import. */
const LOADERS = { ".ts": "ts", ".mts": "ts", ".cts": "ts", ".js": "js", ".mjs": "js", ".cjs": "js", ".json": "json" };

/** A bundle (or a half-written file) this much older than a new one is removed; a run that read the manifest just before may still load it. */
const KEEP_OLD_MS = 10 * 60 * 1000;

const sha256 = (/** @type {string | Buffer} */ content) => createHash("sha256").update(content).digest("hex");

/** The key of a set of inputs: every file's path and content hash, in a fixed order. */
const keyOf = (/** @type {ReadonlyArray<readonly [string, string]>} */ inputs) =>
  sha256(JSON.stringify([FORMAT, [...inputs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]));

/** Writes a file whole or not at all: two runs at once may both write it, and neither sees half. */
function writeWhole(/** @type {string} */ file, /** @type {string} */ text) {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/**
 * Each configuration file has a manifest of its own: copies of the repository that share one
 * node_modules (the lab's own tests make them) would otherwise replace each other's bundle on every run.
 */
const manifestOf = (/** @type {string} */ cacheDir, /** @type {string} */ configFile) =>
  join(cacheDir, `manifest-${sha256(configFile).slice(0, 16)}.json`);

/**
 * The bundle the manifest names, when every file it was made from still has the content it had then;
 * otherwise null. A file gone or unreadable counts as changed.
 * @param {string} cacheDir
 * @param {string} configFile
 */
function currentBundle(cacheDir, configFile) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestOf(cacheDir, configFile), "utf8"));
  } catch {
    return null;
  }
  if (manifest?.format !== FORMAT || manifest.config !== configFile || !Array.isArray(manifest.inputs)) return null;
  /** @type {Array<readonly [string, string]>} */
  const now = [];
  for (const input of manifest.inputs) {
    if (!Array.isArray(input) || typeof input[0] !== "string" || !isAbsolute(input[0])) return null;
    try {
      // A FIFO where a module was would block the read forever; it is not what was bundled either.
      if (!statSync(input[0]).isFile()) return null;
      now.push([input[0], sha256(readFileSync(input[0]))]);
    } catch {
      return null;
    }
  }
  const bundle = join(cacheDir, `config-${keyOf(now)}.mjs`);
  return manifest.bundle === bundle && existsSync(bundle) ? bundle : null;
}

/**
 * Bundles the configuration and records what it was made from: the content of every file as esbuild
 * read it, hashed as it was read, so a file edited during the build is found changed on the next run.
 * @param {string} cacheDir
 * @param {string} configFile
 */
async function makeBundle(cacheDir, configFile) {
  const { build } = await import("esbuild");
  /** @type {Array<readonly [string, string]>} */
  const inputs = [];
  const result = await build({
    entryPoints: [configFile],
    absWorkingDir: dirname(configFile),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    write: false,
    logLevel: "silent",
    plugins: [
      {
        name: "forge-lab-own-files",
        setup(builder) {
          builder.onLoad({ filter: /.*/ }, ({ path }) => {
            const loader = LOADERS[/** @type {keyof typeof LOADERS} */ (extname(path))];
            if (loader === undefined)
              throw new Error(`${relative(dirname(configFile), path)}: not a kind of file the configuration may import`);
            if (!statSync(path).isFile()) throw new Error(`${relative(dirname(configFile), path)}: not a regular file`);
            const bytes = readFileSync(path);
            inputs.push([path, sha256(bytes)]);
            const url = JSON.stringify(pathToFileURL(path).href);
            const contents = bytes
              .toString("utf8")
              .replace(/\bimport\.meta\.url\b/g, url)
              .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(path))
              .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(dirname(path)));
            return { contents, loader };
          });
        },
      },
    ],
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error("esbuild wrote no bundle");
  mkdirSync(cacheDir, { recursive: true });
  const bundle = join(cacheDir, `config-${keyOf(inputs)}.mjs`);
  writeWhole(bundle, output.text);
  writeWhole(manifestOf(cacheDir, configFile), `${JSON.stringify({ format: FORMAT, config: configFile, bundle, inputs }, null, 2)}\n`);
  for (const name of readdirSync(cacheDir)) {
    const old = join(cacheDir, name);
    // Old bundles, and what a run killed while writing left behind.
    if (old === bundle || !/^(config-[0-9a-f]{64}\.mjs|(config-[0-9a-f]{64}\.mjs|manifest-[0-9a-f]{16}\.json)\.\d+\.tmp)$/.test(name))
      continue;
    // Another run may have removed it first.
    const age = Date.now() - (statSync(old, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > KEEP_OLD_MS) rmSync(old, { force: true });
  }
  return bundle;
}

/**
 * A bundle of `configFile` that is current, made first when there is none; `made` says whether it was
 * made now. Null when none can be made (a syntax error in the configuration, a cache folder that cannot
 * be written): vitest then loads `configFile` itself, and says what is wrong with it as it always does.
 * @param {string} configFile an absolute path
 * @param {string} cacheDir where bundles are kept
 * @returns {Promise<{ readonly path: string; readonly made: boolean } | null>}
 */
export async function bundledConfig(configFile, cacheDir) {
  const current = currentBundle(cacheDir, configFile);
  if (current !== null) return { path: current, made: false };
  try {
    return { path: await makeBundle(cacheDir, configFile), made: true };
  } catch {
    return null;
  }
}

/**
 * Whether a vitest command line names its configuration or its root itself, or only asks for help or
 * the version: then vitest is left to find and load what it was told to.
 * @param {readonly string[]} args
 */
export function choosesItsOwnConfig(args) {
  for (const arg of args) {
    if (arg === "--") return false;
    const name = arg.split("=", 1)[0];
    if (["-c", "--config", "--no-config", "--configLoader", "-r", "--root", "-h", "--help", "-v", "--version"].includes(name ?? ""))
      return true;
  }
  return false;
}
