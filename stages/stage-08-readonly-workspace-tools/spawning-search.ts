// The control of stage 08's no-process test: a search as many harnesses write it, by starting
// ripgrep, with a quiet fallback to "no matches" when that fails. The test runs it in the same child
// as the module under test, to prove that the child notices a process being started even when the
// module catches the error.
import { execFile } from "node:child_process";

export class ReadOnlyWorkspace {
  readonly #root: string;

  constructor(root: string) {
    this.#root = root;
  }

  search(query: string): Promise<{ matches: string[]; truncated: boolean; limitReason: null }> {
    return new Promise((resolve) => {
      const empty = { matches: [], truncated: false, limitReason: null };
      try {
        execFile("rg", ["--fixed-strings", "--line-number", query, this.#root], (error, stdout) => {
          resolve(error ? empty : { ...empty, matches: stdout.split("\n").filter((line) => line !== "") });
        });
      } catch {
        resolve(empty);
      }
    });
  }
}
