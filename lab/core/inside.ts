// Is a path inside a folder? The one answer in the lab, decided on whole segments, never by string
// prefix: `/w/ws-evil` is not inside `/w/ws`, and `/w/ws/..generated` is. Both paths must be absolute
// and already resolved (no symlinks to follow: this is about strings the lab itself built).
import { isAbsolute, relative, sep } from "node:path";

export function isInside(folder: string, path: string, options: { orEqual?: boolean } = {}): boolean {
  const rel = relative(folder, path);
  if (rel === "") return options.orEqual === true;
  return rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
