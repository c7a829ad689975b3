// The type of compile-cache.mjs, which is plain JavaScript so that `npm test`'s command can load it first.

/** Turns Node's cache of compiled code on for this process and the workers it starts (compile-cache.mjs). */
export declare function keepCompiledCode(): void;
