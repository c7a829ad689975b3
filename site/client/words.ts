// The words of the edition a browser bundle is built for: the build bundles each edition's own table in
// this module's place (site/build.ts), so a page loads only its own language. Everywhere else (the
// type-checker, the lab in Node, the tests) it is the English table.
export { WORDS } from "./text/en.js";
