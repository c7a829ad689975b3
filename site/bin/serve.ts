// `npm start`: builds the site and serves it on http://localhost:4173 (PORT to change) until Ctrl-C, or
// until whatever started it ends (site/lifetime.ts). `npm start -- --out <folder>` builds into and
// serves that folder instead of site/dist.
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

let out = DIST;
try {
  const { values } = parseArgs({ options: { out: { type: "string" } }, strict: true, allowPositionals: false });
  if (values.out !== undefined) out = resolve(values.out);
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}. Usage: npm start [-- --out <folder>]`);
  process.exit(2);
}
const port = Number(process.env.PORT ?? 4173);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT="${process.env.PORT}" is not a port number.`);
  process.exit(2);
}
const result = await buildSite(out);
for (const skipped of result.skipped) console.warn(`skipped ${skipped}`);
for (const path of result.untranslated) console.warn(`${path} shows the English text: its translation is not written yet`);
try {
  server = await startServer({ root: out, port });
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  console.error(code === "EADDRINUSE" ? `Port ${port} is in use: set PORT to another one, e.g. PORT=4174 npm start.` : String(error));
  process.exit(1);
}
const address = server.address();
const actual = typeof address === "object" && address ? address.port : port;
console.log(`Forge Lab is served at http://localhost:${actual}/ — only on this machine. Press Ctrl-C to stop.`);
