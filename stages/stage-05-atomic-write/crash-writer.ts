// The child process of stage 05's crash test (atomic.test.ts), which kills it with SIGKILL.
//
//   node --import tsx crash-writer.ts <module file | --in-place-control> <size> <fill> <stagger ms> <target>...
//
// (The test bundles this file and the module under test to plain JavaScript first and runs
// `node crash-writer.mjs module-under-test.mjs …`, so each of its twenty children starts quickly.)
//
// It imports atomicWrite from the module file of the tree under test, builds a payload of <size> bytes
// (the text <fill>, repeated), prints "ready" and waits for "go" on stdin. Then it starts one
// atomicWrite per target, <stagger> ms apart, so that one kill finds the writes at different moments.
// Each write is announced on stdout: "writing <index>" just before the call, "done <index>" after it.
// The process then stays alive (stdin stays open) until it is killed.
import { open } from "node:fs/promises";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

type AtomicWrite = (target: string, content: Uint8Array) => Promise<void>;

const [modulePath, sizeText, fill, staggerText, ...targets] = process.argv.slice(2);
const size = Number(sizeText);
const stagger = Number(staggerText);
if (!modulePath || !fill || !Number.isInteger(size) || size <= 0 || !Number.isFinite(stagger) || targets.length === 0) {
  process.stderr.write("usage: crash-writer.ts <module file> <size> <fill> <stagger ms> <target>...\n");
  process.exit(2);
}

// stdout to a pipe is written synchronously on Linux, so a line printed before the kill reaches the test.
const say = (line: string) => process.stdout.write(`${line}\n`);

/**
 * The control: what a non-atomic writer does, straight into the target in 64 KiB pieces, saying
 * "piece 8 <index>" and stalling there. The test kills it then, to prove that its check can fail.
 */
const IN_PLACE_CONTROL = "--in-place-control";
async function writeInPlace(target: string, content: Uint8Array, index: number): Promise<void> {
  const handle = await open(target, "w");
  try {
    for (let offset = 0, piece = 0; offset < content.byteLength; offset += 65_536, piece += 1) {
      await handle.write(content, offset, Math.min(65_536, content.byteLength - offset));
      if (piece === 8) {
        say(`piece 8 ${index}`);
        // Stall here, as a slow disk would, so the kill lands in the middle of the write every time.
        await new Promise((resolve) => setTimeout(resolve, 5_000));
      }
    }
  } finally {
    await handle.close();
  }
}

async function loadAtomicWrite(file: string): Promise<AtomicWrite> {
  const loaded: unknown = await import(pathToFileURL(file).href);
  const atomicWrite = (loaded as { atomicWrite?: unknown }).atomicWrite;
  if (typeof atomicWrite !== "function") {
    process.stderr.write(`${file} does not export a function atomicWrite\n`);
    process.exit(2);
  }
  return atomicWrite as AtomicWrite;
}

const atomicWrite = modulePath === IN_PLACE_CONTROL ? null : await loadAtomicWrite(modulePath);
const write = (target: string, content: Uint8Array, index: number) =>
  atomicWrite ? atomicWrite(target, content) : writeInPlace(target, content, index);
const payload = Buffer.alloc(size, fill);

const input = createInterface({ input: process.stdin });
input.on("line", (line) => {
  if (line.trim() !== "go") return;
  targets.forEach((target, index) => {
    setTimeout(() => {
      say(`writing ${index}`);
      write(target, payload, index).then(
        () => say(`done ${index}`),
        (error: unknown) => {
          say(`failed ${index} ${error instanceof Error ? error.message : String(error)}`);
          process.exit(1);
        },
      );
    }, index * stagger);
  });
});
say("ready");
