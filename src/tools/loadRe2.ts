import type * as Re2js from "re2js";

/**
 * Loads re2js, a pure-JavaScript RE2 (linear-time matching). The package build bundles this module
 * with re2js into `dist/re2.js`, which the runtime requires only when it compiles a schema from
 * outside the code that has a pattern (see .ci/bundleRuntime.mjs). From source it requires the
 * installed package.
 */
export function loadRe2(): typeof Re2js {
  return require("re2js") as typeof Re2js;
}
