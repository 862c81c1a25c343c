import type { ErrorObject, ValidateFunction } from "ajv/dist/2020";
import { ConfigurationError, type ArgumentProblem } from "../errors";
import type { ZodSchema } from "../state/zodIntrospection";
import { describeKind } from "../util/describeValue";
import { formatPath, pointerToPath } from "../util/formatPath";
import { findShapeProblem } from "../util/jsonShape";
import { limits } from "../util/limits";
import { truncateForEcho } from "../util/truncate";
import type { JsonSchema } from "./jsonSchema";
import type { LoadedAjv } from "./loadAjv";
import type { SchemaOrigin } from "./schemaOrigin";
import { findUnsupportedPattern, linearRegExp, schemaPatterns, UnsupportedPatternError } from "./linearPattern";
import { metaSchemaId } from "./metaSchemaValidator";
import { stripOptionalNulls } from "./stripOptionalNulls";
import type { ArgumentValidator } from "./validation";

export type { ArgumentValidator, ValidationOutcome } from "./validation";

export type { SchemaOrigin } from "./schemaOrigin";

let loaded: LoadedAjv | undefined;
const byIdentity: Record<SchemaOrigin, WeakMap<object, ValidateFunction>> = { user: new WeakMap(), code: new WeakMap(), generated: new WeakMap() };
// Identical schemas (fifty tools taking { a: number, b: number }) share one compiled validator.
const byText = new Map<string, ValidateFunction>();

// Required on first use, not on import: an app whose tools are never called never loads ajv.
function sharedAjv(): LoadedAjv {
  return (loaded ??= (require("./loadAjv") as typeof import("./loadAjv")).loadAjv());
}

// Throws ajv's own error for a schema the meta-schema rejects. A schema naming another dialect in
// `$schema` is left to ajv, which refuses dialects it does not know.
function checkAgainstMetaSchema({ ajv, metaSchema }: LoadedAjv, schema: JsonSchema): void {
  const dialect = (schema as { $schema?: unknown }).$schema;
  if (dialect !== undefined && dialect !== metaSchemaId) {
    ajv.validateSchema(schema, true);
    return;
  }
  const validate = metaSchema();
  if (!validate(schema)) throw new Error(`schema is invalid: ${ajv.errorsText(validate.errors)}`);
}

/**
 * Compiles a JSON Schema once (cached by origin and identity, and by its JSON text, keys in their
 * order). A `user` or `code` schema is first checked against the meta-schema; a `user` schema's
 * patterns then run on RE2 (see SchemaOrigin). Throws ajv's error for an invalid schema, and an
 * `UnsupportedPatternError` for a `user` schema with a pattern RE2 cannot run.
 */
export function compileJsonSchema(schema: JsonSchema, origin: SchemaOrigin = "user"): ValidateFunction {
  const cache = byIdentity[origin];
  let validate = cache.get(schema);
  if (validate) return validate;
  const text = `${origin}\u0000${JSON.stringify(schema)}`;
  validate = byText.get(text);
  if (!validate) {
    const instance = sharedAjv();
    if (origin !== "generated") checkAgainstMetaSchema(instance, schema);
    validate = origin === "user" ? compileLinear(instance, schema) : instance.ajv.compile(schema);
    byText.set(text, validate);
  }
  cache.set(schema, validate);
  return validate;
}

// A schema without patterns compiles as it always did; one with patterns on the RE2 instance (only
// then is re2js loaded), each pattern checked first, so a refusal names it and its place.
function compileLinear(instance: LoadedAjv, schema: JsonSchema): ValidateFunction {
  if (schemaPatterns(schema).length === 0) return instance.ajv.compile(schema);
  const unsupported = findUnsupportedPattern(schema);
  if (unsupported) throw unsupported;
  return instance.linear(linearRegExp).compile(schema);
}

// A validator compiled on first use; an invalid schema is a ConfigurationError naming the tool.
function lazyValidator(schema: JsonSchema, origin: SchemaOrigin, subject: string): () => ValidateFunction {
  let validate: ValidateFunction | undefined;
  return () => {
    if (!validate) {
      try {
        validate = compileJsonSchema(schema, origin);
      } catch (error) {
        if (error instanceof UnsupportedPatternError) {
          throw new ConfigurationError(subject, `${subject} has parameters whose ${error.message}: the patterns of a JSON Schema run on RE2 so that no input can stall the process; rewrite the pattern without lookaround or backreferences, or pass a zod object.`, { cause: error });
        }
        throw new ConfigurationError(subject, `${subject} has parameters that are not a valid JSON Schema: ${(error as Error).message}. Fix the schema, or pass a zod object.`, { cause: error });
      }
    }
    return validate;
  };
}

/**
 * Refuses what no schema check should see: arguments nested deeper than `maxArgumentDepth`, a
 * `__proto__` key at any depth (JSON keeps it as own data, but code that copies by assignment
 * would make it a prototype), and a non-finite number anywhere, open objects and untyped
 * parameters included (`1e999` parses as `Infinity`, which no JSON value is).
 */
export function screenArguments(args: unknown): ArgumentProblem | undefined {
  const problem = findShapeProblem(args, { maxDepth: limits.maxArgumentDepth, refuseProtoKeys: true, refuseNonFinite: true });
  if (!problem) return undefined;
  if (problem.kind === "depth") return { path: "(root)", message: `nest deeper than ${limits.maxArgumentDepth} levels, the limit for tool arguments` };
  const path = formatPath(problem.path.map(echoSegment));
  if (problem.kind === "nonFinite") return { path, message: `is ${problem.value}, which is not a JSON number; send a finite number` };
  return { path, message: 'is an unknown property ("__proto__" is never accepted as a property name)' };
}

/**
 * A validator for a JSON Schema: optional `null`s are dropped, then ajv checks the rest. The schema
 * is compiled on the first call (so that defining tools costs nothing at start-up).
 */
export function jsonSchemaValidator(schema: JsonSchema, subject: string, origin: SchemaOrigin = "user"): ArgumentValidator {
  const compiled = lazyValidator(schema, origin, subject);
  let ready: ValidateFunction | undefined;
  return {
    validate(args) {
      const validate = (ready ??= compiled());
      const screened = screenArguments(args);
      if (screened) return { ok: false, problems: [screened] };
      const value = stripOptionalNulls(args, schema) as Record<string, unknown>;
      if (validate(value)) return { ok: true, value };
      return { ok: false, problems: problemsFromAjv(validate.errors ?? []) };
    },
  };
}

/**
 * A validator for a zod object: optional `null`s are dropped (using the schema's JSON form), the
 * JSON form the model sees is checked with ajv (so problems read exactly as for a JSON Schema tool),
 * then zod parses; its output (defaults, transforms) is what the tool receives, and its issues
 * report what the JSON form cannot express (refinements).
 */
export function zodArgumentValidator(schema: ZodSchema, jsonForm: JsonSchema): ArgumentValidator {
  let checkJsonForm: ValidateFunction | undefined | null = null;
  return {
    validate(args) {
      if (checkJsonForm === null) checkJsonForm = compileOrUndefined(jsonForm);
      const screened = screenArguments(args);
      if (screened) return { ok: false, problems: [screened] };
      const value = stripOptionalNulls(args, jsonForm) as Record<string, unknown>;
      if (checkJsonForm && !checkJsonForm(value)) return { ok: false, problems: problemsFromAjv(checkJsonForm.errors ?? []) };
      const result = schema.safeParse(value);
      if (result.success) return { ok: true, value: result.data as Record<string, unknown> };
      return {
        ok: false,
        problems: result.error.issues.flatMap((issue) => {
          if (issue.code === "unrecognized_keys") {
            return issue.keys.map((key) => ({ path: formatPath([...issue.path, key].map(echoSegment)), message: unknownPropertyMessage(issue.path.length === 0, Object.keys(jsonForm.properties ?? {})) }));
          }
          return [{ path: formatPath(issue.path.map(echoSegment)), message: `${issue.message.replace(/^Invalid input: /, "")}` }];
        }),
      };
    },
  };
}

// zod can emit JSON Schema that ajv does not compile (a pattern only JavaScript accepts, …); zod alone then checks.
function compileOrUndefined(schema: JsonSchema): ValidateFunction | undefined {
  try {
    return compileJsonSchema(schema, "code");
  } catch {
    return undefined;
  }
}

function unknownPropertyMessage(atRoot: boolean, allowed: string[]): string {
  const list = allowed.length > 0 ? allowed.join(", ") : "none";
  return atRoot ? `is not a parameter of this tool (parameters: ${list})` : `is not an allowed property (allowed: ${list})`;
}

/** Turns ajv errors into one problem per path, choosing the closest branch of a failed `anyOf`. */
export function problemsFromAjv(errors: readonly ErrorObject[]): ArgumentProblem[] {
  const kept = collapseBranches(errors);
  const problems: ArgumentProblem[] = [];
  const seen = new Set<string>();
  for (const error of kept) {
    const problem = describeAjvError(error);
    const key = `${problem.path}\u0000${problem.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  }
  return problems;
}

// A failed anyOf/oneOf yields an error per branch. Keep the errors of the branch that got closest
// (one whose type matched), or a single "must be X or Y" when no branch had the right type.
function collapseBranches(errors: readonly ErrorObject[]): ErrorObject[] {
  const unions = errors.filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf");
  if (unions.length === 0) return [...errors];
  let result = [...errors];
  for (const union of unions) {
    const prefix = `${union.schemaPath}/`;
    const inBranch = result.filter((e) => e.schemaPath.startsWith(prefix));
    const byBranch = new Map<string, ErrorObject[]>();
    for (const e of inBranch) {
      const branch = e.schemaPath.slice(prefix.length).split("/")[0]!;
      byBranch.set(branch, [...(byBranch.get(branch) ?? []), e]);
    }
    const typeMismatch = (errs: ErrorObject[]) => errs.some((e) => e.keyword === "type" && e.instancePath === union.instancePath);
    const candidates = [...byBranch.values()].filter((errs) => !typeMismatch(errs)).sort((a, b) => a.length - b.length);
    result = result.filter((e) => !e.schemaPath.startsWith(prefix) && e !== union);
    if (candidates.length > 0) {
      result.push(...candidates[0]!);
    } else {
      const types = [...byBranch.values()].flat().filter((e) => e.keyword === "type").map((e) => (e.params as { type: string | string[] }).type).flat();
      result.push({ ...union, keyword: "type", params: { type: [...new Set(types)] } });
    }
  }
  return result;
}

// Property names come from the model: a 10 MB name is echoed as its first characters.
function echoSegment(segment: PropertyKey): PropertyKey {
  return typeof segment === "string" ? truncateForEcho(segment) : segment;
}

function describeAjvError(error: ErrorObject): ArgumentProblem {
  const path = pointerToPath(error.instancePath).map(echoSegment);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return { path: formatPath([...path, params.missingProperty as string]), message: "is required" };
    case "additionalProperties": {
      const properties = Object.keys((error.parentSchema as JsonSchema | undefined)?.properties ?? {});
      return { path: formatPath([...path, echoSegment(params.additionalProperty as string)]), message: unknownPropertyMessage(path.length === 0, properties) };
    }
    case "type": {
      const types = ([] as string[]).concat(params.type as string | string[]);
      return { path: formatPath(path), message: `must be ${types.join(" or ")} (got ${describeKind(error.data)})` };
    }
    case "enum":
      return {
        path: formatPath(path),
        message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")} (got ${describeKind(error.data)})`,
      };
    case "const":
      return { path: formatPath(path), message: `must be ${JSON.stringify(params.allowedValue)} (got ${describeKind(error.data)})` };
    default:
      return { path: formatPath(path), message: `${error.message ?? error.keyword} (got ${describeKind(error.data)})` };
  }
}
