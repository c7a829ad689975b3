// The plugin that attaches the evidence reporter to a vitest run. Vitest replaces the configured reporter
// list with the command line's (`--reporter=junit`) and an editor's test explorer brings its own, so a
// reporter in that list is silently dropped; a plugin's configureVitest hook runs after the reporters are
// resolved and before they are created, and adds this one to whatever list the run ended up with.
import type { Plugin } from "vite";
import "vitest/config";
import type { Locale } from "../core/locale.js";
import type { ProjectIndex } from "../vitest/projects.js";
import { EvidenceReporter } from "./reporter.js";

/**
 * One plugin for every stage project of a run: each project calls the hook, the reporter is added once.
 * `locale` is the edition of the line it prints when the evidence cannot be written.
 */
export function evidencePlugin(index: ProjectIndex, locale: Locale = "en"): Plugin {
  const reporter = new EvidenceReporter(index, locale);
  return {
    name: "forge-evidence",
    configureVitest({ vitest }) {
      // The config is resolved anew when watch mode restarts, so the check is on this config's list.
      const reporters = vitest.config.reporters;
      if (!reporters.includes(reporter)) reporters.push(reporter);
    },
  };
}
