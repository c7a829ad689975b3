// `npm start`: builds the site and serves it on http://localhost:4173 (`--port` or PORT to change) until
// Ctrl-C, or until whatever started it ends (site/lifetime.ts). `npm start -- --out <folder>` builds
// into and serves that folder instead of site/dist.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildSite, DIST } from "../build.js";
import { endWithStarter, type StopReason } from "../lifetime.js";
import { startServer } from "../serve.js";

let server: Awaited<ReturnType<typeof startServer>> | undefined;

/** Says why, once, where someone may still read it: a closed terminal or pipe must not turn stopping into a crash. */
function stop(reason: StopReason): void {
  for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});
  const why =
    reason.kind === "signal"
      ? `${reason.signal} received`
      : reason.kind === "starter"
        ? "the process that started this server has ended"
        : "its standard input was closed";
  console.log(`Stopping: ${why}.`);
  if (!server) process.exit(0);
  server.close(() => process.exit(0));
  // An open tab or a keep-alive fetch would hold close() open until its connection times out: we are
  // stopping, so every connection goes now.
  server.closeAllConnections();
}

// Watched from the start: a starter that ends during the build leaves nothing behind either.
endWithStarter(stop);

const USAGE = "Usage: npm start [-- [--port <number>] [--out <folder>]]";
let out = DIST;
let portText = process.env.PORT;
let portSource = "PORT";
try {
  const { values } = parseArgs({ options: { out: { type: "string" }, port: { type: "string" } }, strict: true, allowPositionals: false });
  if (values.out !== undefined) out = resolve(values.out);
  // An option, not only a variable: `PORT=4174 npm start` is a POSIX shell's syntax, which cmd.exe lacks.
  if (values.port !== undefined) [portText, portSource] = [values.port, "--port"];
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}. ${USAGE}`);
  process.exit(2);
}
const port = portText === undefined ? 4173 : /^\d{1,5}$/.test(portText.trim()) ? Number(portText) : Number.NaN;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`${portSource}="${portText}" is not a port number (0 to 65535). ${USAGE}`);
  process.exit(2);
}
const result = await buildSite(out);
for (const skipped of result.skipped) console.warn(`skipped ${skipped}`);
for (const path of result.untranslated) console.warn(`${path} shows the English text: its translation is not written yet`);
try {
  server = await startServer({ root: out, port });
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  console.error(
    code === "EADDRINUSE"
      ? `Port ${port} is in use: choose another one, e.g. npm start -- --port ${port === 65535 ? port - 1 : port + 1}.`
      : String(error),
  );
  process.exit(1);
}
const address = server.address();
const actual = typeof address === "object" && address ? address.port : port;
console.log(`Forge Lab is served at http://localhost:${actual}/ — only on this machine. Press Ctrl-C to stop.`);
