// StrykerJS (its TypeScript checker, and the sandbox step that rewrites tsconfig files) drives the compiler through the TypeScript 5 JavaScript API, which the
// repository's TypeScript 7 (a native compiler) no longer ships. Preloaded with `node --import`, this
// module hands StrykerJS the TypeScript 5 installed as `typescript-5`; every other importer of
// "typescript" keeps TypeScript 7.
import { register } from "node:module";

const hooks = `
export async function resolve(specifier, context, next) {
  const fromStryker = context.parentURL?.includes("/node_modules/@stryker-mutator/") ?? false;
  return next(fromStryker && specifier === "typescript" ? "typescript-5" : specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
