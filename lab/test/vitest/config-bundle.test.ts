// `npm test`'s command loads `vitest.config.ts` from a bundle made once (lab/vitest/config-bundle.mjs).
// What these prove: a bundle keeps each file's own `import.meta`, is made again whenever a file it was made
// from changes or goes away, is left to vitest whenever it cannot be made, and is not used when the
// command line names a configuration or root of its own.
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { pathToFileURL } from "node:url";
import { expect, it, type TestContext } from "vitest";
import { bundledConfig, choosesItsOwnConfig } from "../../vitest/config-bundle.mjs";
import { temporaryFolder } from "../../testing.js";

interface Fixture {
  readonly config: string;
  readonly library: string;
  readonly cache: string;
}

/** A configuration that imports a module of its own, which reports where it is and one value. */
function fixture(onFinished: TestContext["onTestFinished"]): Fixture {
  const root = temporaryFolder({ onFinished });
  mkdirSync(join(root, "lib"));
  const library = join(root, "lib", "where.ts");
  writeFileSync(
    library,
    "export const here: string = import.meta.url;\nexport const folder: string = import.meta.dirname;\nexport const answer: number = 42;\n",
  );
  const config = join(root, "vitest.config.ts");
  writeFileSync(config, 'import { answer, folder, here } from "./lib/where.js";\nexport default { answer, folder, here };\n');
  return { config, library, cache: join(root, "cache") };
}

/** What the bundle's default export holds, read from a fresh import. */
async function loaded(path: string): Promise<unknown> {
  const module = (await import(`${pathToFileURL(path).href}?read=${Math.random()}`)) as { default: unknown };
  return module.default;
}

it("bundles a configuration once, keeps each file's own import.meta, and bundles it again when a file it imports changes", async (context) => {
  const { config, library, cache } = fixture(context.onTestFinished);
  const first = await bundledConfig(config, cache);
  expect(first?.made, "a bundle made on the first call").toBe(true);
  expect(await loaded(first?.path ?? ""), "what the bundle exports").toEqual({
    answer: 42,
    folder: join(library, ".."),
    here: pathToFileURL(library).href,
  });
  expect(await bundledConfig(config, cache), "the second call, nothing changed").toEqual({ path: first?.path, made: false });

  writeFileSync(library, readFileSync(library, "utf8").replace("42", "43"));
  const edited = await bundledConfig(config, cache);
  expect({ made: edited?.made, samePath: edited?.path === first?.path }, "after an edit of the imported module").toEqual({
    made: true,
    samePath: false,
  });
  expect(await loaded(edited?.path ?? ""), "what the new bundle exports").toMatchObject({ answer: 43 });

  rmSync(edited?.path ?? "");
  expect((await bundledConfig(config, cache))?.made, "after the bundle the manifest names was removed").toBe(true);
});

it("gives two commands started at once the same whole bundle, and leaves no partial file behind", { timeout: 60_000 }, async (context) => {
  const { config, cache } = fixture(context.onTestFinished);
  const module = new URL("../../vitest/config-bundle.mjs", import.meta.url).href;
  const script = `const { bundledConfig } = await import(${JSON.stringify(module)}); console.log(JSON.stringify(await bundledConfig(${JSON.stringify(config)}, ${JSON.stringify(cache)})));`;
  const both = await Promise.all(
    [1, 2].map(() => promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 50_000 })),
  );
  const [first, second] = both.map(({ stdout }) => JSON.parse(stdout) as { path: string; made: boolean } | null);
  expect({ same: first?.path === second?.path, found: first !== null }, "the two commands' bundles").toEqual({ same: true, found: true });
  expect(await loaded(first?.path ?? ""), "what the bundle exports").toMatchObject({ answer: 42 });
  expect(
    readdirSync(cache).filter((name) => name.endsWith(".tmp")),
    "files left half written",
  ).toEqual([]);
});

it("removes old bundles and what a killed run left half written when it makes a new bundle, and keeps recent ones", async (context) => {
  const { config, library, cache } = fixture(context.onTestFinished);
  await bundledConfig(config, cache);
  const hour = new Date(Date.now() - 60 * 60 * 1000);
  const names = {
    old: `config-${"a".repeat(64)}.mjs`,
    recent: `config-${"b".repeat(64)}.mjs`,
    "half written by a killed run": `config-${"c".repeat(64)}.mjs.4242.tmp`,
    "a manifest half written by a killed run": `manifest-${"d".repeat(16)}.json.4242.tmp`,
    "a file of someone else's": "notes.txt",
  };
  for (const [label, name] of Object.entries(names)) {
    writeFileSync(join(cache, name), "");
    if (label !== "recent") utimesSync(join(cache, name), hour, hour);
  }
  writeFileSync(library, readFileSync(library, "utf8").replace("42", "43"));
  await bundledConfig(config, cache);
  const left = readdirSync(cache);
  expect(
    Object.fromEntries(Object.entries(names).map(([label, name]) => [label, left.includes(name)])),
    "whether each file is still there after a new bundle",
  ).toEqual({
    old: false,
    recent: true,
    "half written by a killed run": false,
    "a manifest half written by a killed run": false,
    "a file of someone else's": true,
  });
});

it("leaves the configuration to vitest when no bundle can be made, and never throws", async (context) => {
  const broken = fixture(context.onTestFinished);
  writeFileSync(broken.config, "export default {\n");
  const gone = fixture(context.onTestFinished);
  expect((await bundledConfig(gone.config, gone.cache))?.made, "the module's bundle, made while it exists").toBe(true);
  rmSync(gone.library);
  // A FIFO where the module was, after a bundle was made and before any: a read would block forever.
  const piped = fixture(context.onTestFinished);
  await bundledConfig(piped.config, piped.cache);
  rmSync(piped.library);
  execFileSync("mkfifo", [piped.library]);
  const pipedFirst = fixture(context.onTestFinished);
  rmSync(pipedFirst.library);
  execFileSync("mkfifo", [pipedFirst.library]);
  const folder = fixture(context.onTestFinished);
  await bundledConfig(folder.config, folder.cache);
  rmSync(folder.library);
  mkdirSync(folder.library);
  const blocked = fixture(context.onTestFinished);
  writeFileSync(blocked.cache, "a file where the cache folder belongs\n");
  expect(
    {
      "a syntax error in the configuration": await bundledConfig(broken.config, broken.cache),
      "an imported module gone since the last bundle": await bundledConfig(gone.config, gone.cache),
      "a file where the cache folder belongs": await bundledConfig(blocked.config, blocked.cache),
      "a FIFO where a bundled module was": await bundledConfig(piped.config, piped.cache),
      "a folder where a bundled module was": await bundledConfig(folder.config, folder.cache),
      "a FIFO where the module belongs, before any bundle": await bundledConfig(pipedFirst.config, pipedFirst.cache),
    },
    "the bundle, when none can be made",
  ).toEqual({
    "a syntax error in the configuration": null,
    "an imported module gone since the last bundle": null,
    "a file where the cache folder belongs": null,
    "a FIFO where a bundled module was": null,
    "a folder where a bundled module was": null,
    "a FIFO where the module belongs, before any bundle": null,
  });
});

it("reads a damaged manifest as no manifest and makes the bundle again", async (context) => {
  const { config, cache } = fixture(context.onTestFinished);
  await bundledConfig(config, cache);
  const manifests = ["not JSON", "null", '{"format":1,"inputs":[["relative/path","0"]]}', '{"format":1,"config":"x","inputs":"none"}'];
  const made: Record<string, boolean | undefined> = {};
  for (const text of manifests) {
    for (const name of readdirSync(cache).filter((file) => file.startsWith("manifest-"))) {
      writeFileSync(join(cache, name), text);
    }
    made[text] = (await bundledConfig(config, cache))?.made;
  }
  expect(made, "whether the bundle was made again, by the manifest found").toEqual(
    Object.fromEntries(manifests.map((text) => [text, true])),
  );
});

it("leaves vitest to find the configuration when the command line names one, a root, help or the version", () => {
  const lines = {
    "stage-01 --run": ["stage-01", "--run"],
    "--config other.ts": ["--config", "other.ts"],
    "--config=other.ts": ["--config=other.ts"],
    "-c other.ts": ["-c", "other.ts"],
    "--no-config": ["--no-config"],
    "--configLoader runner": ["--configLoader", "runner"],
    "--root elsewhere": ["--root", "elsewhere"],
    "-r elsewhere": ["-r", "elsewhere"],
    "--help": ["--help"],
    "--version": ["--version"],
    "run stage-01 -- --config": ["run", "stage-01", "--", "--config"],
    "--configuration, a word of its own": ["--configuration"],
  };
  expect(
    Object.fromEntries(Object.entries(lines).map(([label, args]) => [label, choosesItsOwnConfig(args)])),
    "whether the command line chooses its own configuration",
  ).toEqual({
    "stage-01 --run": false,
    "--config other.ts": true,
    "--config=other.ts": true,
    "-c other.ts": true,
    "--no-config": true,
    "--configLoader runner": true,
    "--root elsewhere": true,
    "-r elsewhere": true,
    "--help": true,
    "--version": true,
    "run stage-01 -- --config": false,
    "--configuration, a word of its own": false,
  });
});
