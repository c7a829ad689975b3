// The versions of verification.json, apart from its schema, so that writing a file (build.ts, in every
// `npm test`) loads no schema library; whoever reads a file validates it (schema.ts).

/** The version this lab writes. Version 1 files (before `run` existed) are still read: see readVerification. */
export const VERIFICATION_SCHEMA_VERSION = 2;
export const READABLE_SCHEMA_VERSIONS = [1, 2] as const;
