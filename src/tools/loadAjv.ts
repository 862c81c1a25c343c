import type Ajv2020 from "ajv/dist/2020";
import type { Options, ValidateFunction } from "ajv/dist/2020";
import type { RegExpEngine } from "ajv/dist/types";
import type addFormats from "ajv-formats";
import { metaSchemaValidator } from "./metaSchemaValidator";

/**
 * The options of the runtime's one ajv instance (and of the meta-schema validator the build compiles).
 * strict: false lets user schemas carry annotations ajv does not know (x-*, examples, …).
 * useDefaults fills a schema's `default` for what the model left out; it writes only into the copy
 * stripOptionalNulls made, never into the model's (frozen) arguments.
 * ownProperties: a property inherited from a prototype never satisfies `required`.
 * strictNumbers: NaN and ±Infinity (JSON's 1e999 parses to Infinity) are not numbers.
 * validateSchema: false, because compileJsonSchema checks user schemas against the meta-schema
 * itself, and generated ones need no check.
 */
export const ajvOptions: Options = { allErrors: true, verbose: true, strict: false, useDefaults: true, ownProperties: true, strictNumbers: true, validateSchema: false };

/** What the runtime validates with: ajv (JSON Schema 2020-12) with ajv-formats, and the meta-schema's validator. */
export interface LoadedAjv {
  /** For schemas of the code (codegen's, zod's): patterns run as `RegExp`. */
  readonly ajv: Ajv2020;
  /** For schemas from outside the code (MCP servers, definitions, JSON Schema parameters): patterns run on `regExp` (RE2, in linear time); made on first use. */
  linear(regExp: RegExpEngine): Ajv2020;
  /** The validator of the 2020-12 meta-schema. */
  metaSchema(): ValidateFunction;
}

/**
 * Loads ajv and ajv-formats. The package build bundles this module, with both libraries and a
 * precompiled meta-schema validator, into `dist/ajv.js`, which the runtime requires on the first tool
 * call it validates (see .ci/bundleRuntime.mjs): ajv is ~100 small modules, and loading them one by
 * one costs a fresh process ~15 ms and ~6 MiB more than loading one file. From source (tests,
 * codegen) it requires the installed packages.
 */
export function loadAjv(): LoadedAjv {
  const Ajv = (require("ajv/dist/2020") as { default: typeof Ajv2020 }).default;
  const formats = (require("ajv-formats") as { default: typeof addFormats }).default;
  const ajv = new Ajv(ajvOptions);
  formats(ajv);
  let meta: ValidateFunction | undefined;
  let linear: Ajv2020 | undefined;
  const makeLinear = (regExp: RegExpEngine) => {
    const instance = new Ajv({ ...ajvOptions, code: { regExp } });
    formats(instance);
    return instance;
  };
  return { ajv, linear: (regExp) => (linear ??= makeLinear(regExp)), metaSchema: () => (meta ??= metaSchemaValidator(ajv)) };
}
