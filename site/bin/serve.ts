// `npm start`: builds the site and serves it on http://localhost:4173 (PORT to change) until Ctrl-C.
import { buildSite, DIST } from "../build.js";
import { startServer } from "../serve.js";

const port = Number(process.env.PORT ?? 4173);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT="${process.env.PORT}" is not a port number.`);
  process.exit(2);
}
const result = await buildSite();
for (const skipped of result.skipped) console.warn(`skipped ${skipped}`);
for (const path of result.untranslated) console.warn(`${path} shows the English text: its translation is not written yet`);
let server;
try {
  server = await startServer({ root: DIST, port });
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  console.error(code === "EADDRINUSE" ? `Port ${port} is in use: set PORT to another one, e.g. PORT=4174 npm start.` : String(error));
  process.exit(1);
}
const address = server.address();
const actual = typeof address === "object" && address ? address.port : port;
console.log(`Forge Lab is served at http://localhost:${actual}/ — only on this machine. Press Ctrl-C to stop.`);
const stop = () => {
  server.close(() => process.exit(0));
  // An open tab or a keep-alive fetch would hold close() open until its connection times out: we are
  // stopping, so every connection goes now.
  server.closeAllConnections();
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
