// What the self-check script (selfcheck.ts) gives the page, and how the page loads it: a classic script
// added on first use, since a page opened from disk may load a script but not fetch a file.
import type { Verdict } from "../../lab/evidence/selfcheck.js";
import type { VerdictWords } from "../../lab/evidence/words/en.js";
import { selfCheckScript } from "./course.js";

export type SelfCheck = (text: string, words: VerdictWords) => Verdict;

declare global {
  interface Window {
    forgeSelfCheck?: SelfCheck;
  }
}

let loading: Promise<SelfCheck> | null = null;

/** Loads the self-check once, from beside the script `app` (the page's bundle); later calls share it. */
export function loadSelfCheck(app: HTMLScriptElement | null, locale: string): Promise<SelfCheck> {
  const loaded = window.forgeSelfCheck;
  if (loaded) return Promise.resolve(loaded);
  if (loading) return loading;
  const attempt = new Promise<SelfCheck>((resolve, reject) => {
    if (!app) {
      reject(new Error("the page's script is not found, so the self-check cannot be loaded beside it"));
      return;
    }
    const script = document.createElement("script");
    script.src = new URL(selfCheckScript(locale), app.src).href;
    script.addEventListener("load", () => {
      const check = window.forgeSelfCheck;
      if (check) resolve(check);
      else reject(new Error(`${script.src} loaded but gave no self-check`));
    });
    script.addEventListener("error", () => reject(new Error(`${script.src} could not be loaded`)));
    document.head.append(script);
  });
  // A failed load may be retried (a file restored, a server restarted): only a success is kept.
  loading = attempt.catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
