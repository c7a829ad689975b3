// Preloaded (node --import) by the CLI tests to inject a failure in the middle of a transaction: the
// second rename through node:fs/promises throws, as a disk that went away would.
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";

const rename = fs.promises.rename;
let calls = 0;
fs.promises.rename = async function failSecondRename(...args) {
  calls += 1;
  if (calls === 2) throw Object.assign(new Error("injected failure: the disk went away"), { code: "EIO" });
  return rename.apply(this, args);
};
syncBuiltinESMExports();
