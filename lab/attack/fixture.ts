// The folder one server run is attacked in, made fresh for each run and removed after it. The root lies
// two folders deep, with secrets beside it and above it:
//
//   <base>/etc/passwd, <base>/<unseen>-two-folders-up.txt        the traversal lists' target, two folders up
//   <base>/outer/etc/passwd, <base>/outer/<unseen>-one-folder-up.txt  and one folder up
//   <base>/outer/allowed/                                        the root the server is started on
//   <base>/outer/allowed_evil/                                   the prefix sibling (CVE-2025-53110)
//   <base>/outer/allowed" , allowed␠ , allowed' , allowed⇥       the suffix-strip siblings (GHSA-7rgq-gccq-qphx)
//   <base>/outer/outside/                                        what the root's links point to (CVE-2025-53109)
//   <base>/outer/swapped/                                        what a folder of the root is swapped for
//
// Every file outside the root holds the secret (a random token) followed by the label of its place, and
// every outside folder holds a file named with an unseen token and that label: no request ever names
// it, so it can only come back from a listing that reached the folder, and the label says which. Inside
// the root, no file holds either token.
import { randomBytes } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, parse } from "node:path";
import { isInside } from "../core/inside.js";

/** The four characters a normalizer that trims quotes and whitespace strips from a path's end, each with the label of its sibling. */
export const STRIPPED_SUFFIXES = { '"': "suffix-quote", " ": "suffix-space", "'": "suffix-apostrophe", "\t": "suffix-tab" } as const;

/** The words of the inside files: read, listed and searched by the positive controls. */
export const INSIDE = {
  notes: "notes.md",
  notesText: "forge inside notes",
  replaced: "replace-me.txt",
  /** The word the content search looks for: on a line of every inside file and of every secret. */
  searchWord: "forge",
} as const;

export interface Fixture {
  readonly base: string;
  readonly root: string;
  /** The token every outside file holds. */
  readonly secret: string;
  /** The start of every outside-only name. */
  readonly unseen: string;
  /** The first line of this machine's /etc/passwd, which a traversal that climbs far enough reaches. */
  readonly machineSecret: string | null;
  /** False on a disk where `Link` and `link` name one entry. */
  readonly caseSensitive: boolean;
  /** The suffix-strip siblings this disk let us make, by suffix. */
  readonly suffixSiblings: ReadonlyMap<string, string>;
  readonly prefixSibling: string;
  /** The folder the root's links point into, and the file in it. */
  readonly outside: string;
  readonly outsideFile: string;
  /** The folder `swap/` of the root is swapped for. */
  readonly swapped: string;
  /** A file name no folder holds: what a write attempt of the traversal lists creates instead of `passwd`. */
  readonly canary: string;
  /** Where a write of the canary could land beyond the folders snapshot() watches: `etc/<canary>` in every folder above <base>. */
  readonly canaryPlaces: readonly string[];
  /** What changed outside the root since the last call, each change put back as it was. */
  changesOutside(): Change[];
  /** Makes `swap/` of the root a folder holding `note.txt` again. */
  unswap(): void;
  /** Replaces `swap/` of the root with a link to the swapped folder. */
  swap(): void;
  remove(): void;
}

/** An entry outside the root that a call created, changed or removed, and the label of the place it lies in. */
export interface Change {
  readonly kind: "created" | "changed" | "removed";
  readonly path: string;
  readonly place: string;
}

/** A link as `ln -s target path` makes it; a folder link is a junction on Windows. */
function link(target: string, path: string, folder: boolean): void {
  symlinkSync(target, path, folder && process.platform === "win32" ? "junction" : folder ? "dir" : "file");
}

interface Entry {
  readonly signature: string;
  readonly bytes: Buffer | null;
  readonly target: string | null;
}

/** Every entry under `base` outside `root`, without following links: kind, size, times and identity. */
function snapshot(base: string, root: string): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (path === root || isInside(root, path)) continue;
      const stat = lstatSync(path, { bigint: true });
      if (stat.isSymbolicLink()) {
        const target = readlinkSync(path);
        entries.set(path, { signature: `link ${target}`, bytes: null, target });
      } else if (stat.isDirectory()) {
        entries.set(path, { signature: "folder", bytes: null, target: null });
        walk(path);
      } else {
        const signature = `file ${stat.size} ${stat.mtimeNs} ${stat.ctimeNs} ${stat.ino}`;
        entries.set(path, { signature, bytes: stat.isFile() ? readFileSync(path) : null, target: null });
      }
    }
  };
  walk(base);
  return entries;
}

/** Whether this disk tells `Case-Probe` from `case-probe`. */
function caseSensitiveAt(folder: string): boolean {
  const probe = join(folder, "Case-Probe");
  writeFileSync(probe, "");
  try {
    return !existsSync(join(folder, "case-probe"));
  } finally {
    rmSync(probe, { force: true });
  }
}

function firstLine(file: string): string | null {
  try {
    const line = readFileSync(file, "utf8").split("\n")[0]?.trim() ?? "";
    return line.length >= 8 ? line : null;
  } catch {
    return null;
  }
}

export function makeFixture(): Fixture {
  const token = () => randomBytes(6).toString("hex");
  const secret = `SECRET-${token()}`;
  const unseen = `unseen-${token()}`;
  const canary = `forge-attack-${token()}`;
  const base = realpathSync(mkdtempSync(join(tmpdir(), "forge-attack-")));
  const outer = join(base, "outer");
  const root = join(outer, "allowed");
  const secretText = (where: string) => `${INSIDE.searchWord} ${secret} ${where}\n`;
  const put = (file: string, text: string | Buffer) => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  /** Each outside folder by its label, the innermost first: where a change lies. */
  const places: [string, string][] = [];
  /** An outside folder: a secret file under the name requests use, and a file no request names. */
  const secretFolder = (folder: string, file: string, label: string) => {
    places.unshift([label, folder]);
    put(join(folder, file), secretText(label));
    put(join(folder, `${unseen}-${label}.txt`), secretText(label));
  };

  secretFolder(base, join("etc", "passwd"), "two-folders-up");
  put(join(base, "etc", "passwd"), `root:x:0:0:${secret} two-folders-up\n`);
  secretFolder(outer, join("etc", "passwd"), "one-folder-up");
  put(join(outer, "etc", "passwd"), `root:x:0:0:${secret} one-folder-up\n`);

  put(join(root, INSIDE.notes), `${INSIDE.notesText}\nsecond line\n`);
  put(join(root, INSIDE.replaced), `${INSIDE.searchWord} replace me\n`);
  put(join(root, "etc", "passwd"), "root:x:0:0:inside\n");
  put(join(root, "src", "app.ts"), "export {};\n");
  put(join(root, "windows", "win.ini"), "[fonts]\n");
  put(join(root, "swap", "note.txt"), `${INSIDE.searchWord} inside note\n`);

  const prefixSibling = `${root}_evil`;
  secretFolder(prefixSibling, "secret.txt", "prefix");
  const suffixSiblings = new Map<string, string>();
  for (const [suffix, label] of Object.entries(STRIPPED_SUFFIXES)) {
    try {
      secretFolder(`${root}${suffix}`, "secret.txt", label);
      suffixSiblings.set(suffix, `${root}${suffix}`);
    } catch {
      // a disk that refuses the name (Windows refuses `"`): that sibling cannot be attacked here
    }
  }
  const outside = join(outer, "outside");
  secretFolder(outside, "secret.txt", "linked");
  const outsideFile = join(outside, "secret.txt");
  const swapped = join(outer, "swapped");
  secretFolder(swapped, "note.txt", "swapped");
  link(outsideFile, join(root, "link-file"), false);
  link(outside, join(root, "link-dir"), true);

  const canaryPlaces: string[] = [];
  for (let folder = dirname(base); ; folder = dirname(folder)) {
    canaryPlaces.push(join(folder, "etc", canary));
    if (folder === parse(folder).root) break;
  }

  const caseSensitive = caseSensitiveAt(base);
  let before = snapshot(base, root);
  const placeOf = (path: string) => places.find(([, folder]) => isInside(folder, path))?.[0] ?? "beyond the temporary folder";
  const swapPath = join(root, "swap");

  return {
    base,
    root,
    secret,
    unseen,
    machineSecret: firstLine("/etc/passwd"),
    caseSensitive,
    suffixSiblings,
    prefixSibling,
    outside,
    outsideFile,
    swapped,
    canary,
    canaryPlaces,
    changesOutside() {
      const changes: Change[] = [];
      const change = (kind: Change["kind"], path: string) => changes.push({ kind, path, place: placeOf(path) });
      for (const place of canaryPlaces) {
        if (!existsSync(place)) continue;
        change("created", place);
        rmSync(place, { recursive: true, force: true });
      }
      const now = snapshot(base, root);
      for (const [path, entry] of now) {
        const was = before.get(path);
        if (was === undefined) {
          change("created", path);
          rmSync(path, { recursive: true, force: true });
        } else if (was.signature !== entry.signature) change("changed", path);
      }
      for (const [path, was] of before) {
        const entry = now.get(path);
        if (entry !== undefined && entry.signature === was.signature) continue;
        if (entry === undefined) change("removed", path);
        // Put back what was there: a file's bytes, a link's target, a folder.
        const kind = was.signature.split(" ")[0];
        if (entry !== undefined && entry.signature.split(" ")[0] !== kind) rmSync(path, { recursive: true, force: true });
        if (was.bytes !== null) put(path, was.bytes);
        else if (was.target !== null) {
          rmSync(path, { force: true });
          link(was.target, path, existsSync(was.target) && lstatSync(was.target).isDirectory());
        } else mkdirSync(path, { recursive: true });
      }
      if (changes.length > 0) before = snapshot(base, root);
      return changes;
    },
    unswap() {
      rmSync(swapPath, { recursive: true, force: true });
      put(join(swapPath, "note.txt"), `${INSIDE.searchWord} inside note\n`);
    },
    swap() {
      rmSync(swapPath, { recursive: true, force: true });
      link(swapped, swapPath, true);
    },
    remove() {
      rmSync(base, { recursive: true, force: true });
      for (const place of canaryPlaces) rmSync(place, { force: true });
    },
  };
}
