// The environment of a child process a lab test starts (a vitest, the lab CLI, a workflow step).

/**
 * This process's variables without those the running vitest set (VITEST*, TEST) and without the lab's
 * own (FORGE_*), which each test sets for itself: a FORGE_TARGET exported in a developer's shell must not
 * change what a test sees.
 */
export function childEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith("VITEST") || key === "TEST" || key.startsWith("FORGE_")) continue;
    env[key] = value;
  }
  return env;
}
