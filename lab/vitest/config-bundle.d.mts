// The types of config-bundle.mjs, which is plain JavaScript so that `npm test`'s command can load it first.

/** A current bundle of the configuration, made first when there is none; null when none can be made. */
export declare function bundledConfig(
  configFile: string,
  cacheDir: string,
): Promise<{ readonly path: string; readonly made: boolean } | null>;

/** Whether a vitest command line names its configuration or root itself, or asks only for help or the version. */
export declare function choosesItsOwnConfig(args: readonly string[]): boolean;
