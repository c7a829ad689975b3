// `npm run site:build`: writes the static site to site/dist.
import { relative } from "node:path";
import { buildSite, DIST } from "../build.js";

const result = await buildSite();
for (const skipped of result.skipped) console.warn(`skipped ${skipped}`);
for (const path of result.untranslated) console.warn(`${path} shows the English text: its translation is not written yet`);
for (const size of result.sizes) {
  console.log(
    `${size.page.padEnd(48)} ${(size.bytes / 1024).toFixed(1).padStart(6)} KB (+ ${(size.listingBytes / 1024).toFixed(1)} KB code listings)`,
  );
}
for (const { script, bytes } of result.selfCheckSizes)
  console.log(`${script.padEnd(48)} ${(bytes / 1024).toFixed(1).padStart(6)} KB (loaded when a learner first checks a file)`);
console.log(
  `Built ${result.pages.length} pages into ${relative(process.cwd(), DIST) || "."}/ — open index.html from disk or run npm start.`,
);
