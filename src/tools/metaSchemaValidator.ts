import type Ajv2020 from "ajv/dist/2020";
import type { ValidateFunction } from "ajv/dist/2020";

/** The JSON Schema dialect the runtime validates with, and checks schemas without a `$schema` against. */
export const metaSchemaId = "https://json-schema.org/draft/2020-12/schema";

/**
 * The validator of the 2020-12 meta-schema, which every schema a user hands to `new Tool` is checked
 * against before it is compiled. From source it is compiled by `ajv` (~20 ms, the largest single cost
 * of a first tool call); the package build replaces this module in `dist/ajv.js` with ajv's standalone
 * code for the same meta-schema, compiled at build time with the same options (.ci/bundleRuntime.mjs).
 */
export function metaSchemaValidator(ajv: Ajv2020): ValidateFunction {
  const validate = ajv.getSchema(metaSchemaId);
  if (!validate) throw new Error(`ajv has no meta-schema ${metaSchemaId}`);
  return validate;
}
