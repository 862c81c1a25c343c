import { StaleSchemaError } from "../errors";
import { setOwn } from "../util/ownProperty";
import type { GeneratedModuleInfo, GeneratedParameter, GeneratedToolEntry } from "./generatedEntry";
import type { JsonSchema } from "./jsonSchema";

/** The version of the data format `toolwright codegen` writes and this runtime reads. */
export const encodedFormatVersion = 3;

/**
 * The tools of a generated module in the compact form `toolwright codegen` writes: the data as JSON
 * text (read by the type checker as one string, not inferred as a large object literal) and, in the
 * same order as the data's owners, a thunk per owner returning its class or `defineTool` result.
 * Written by `toolwright codegen`; do not write by hand.
 */
export interface EncodedToolSchemas {
  /** Each owner of `data.owners`, in order, read lazily (import cycles). */
  readonly owners: ReadonlyArray<() => unknown>;
  /** JSON text of `EncodedToolData`: see `decodeToolData`. */
  readonly data: string;
}

/**
 * The JSON document in `EncodedToolSchemas.data`. Fields at their usual value are left out (see
 * `EncodedTool`), and the tools are grouped by owner, so that a module of many tools stays small.
 */
export interface EncodedToolData {
  /** `encodedFormatVersion` of the codegen that wrote it. */
  readonly format: number;
  /** Schema fragments that occur in several tools; `{ "$shared": i }` anywhere in a tool's schemas stands for `shared[i]`. */
  readonly shared: readonly unknown[];
  readonly owners: readonly EncodedOwner[];
}

/** A class (or a `defineTool` function) and its tools. */
export interface EncodedOwner {
  /** `function` for a `defineTool` function; left out for a class (`method`). */
  readonly kind?: "function";
  /** `GeneratedToolEntry.source` of every tool of the owner. */
  readonly source: string;
  readonly tools: readonly EncodedTool[];
}

/** A `GeneratedToolEntry` without what its owner gives, and without fields at their usual value. */
export interface EncodedTool {
  readonly member: string;
  /** Left out when false. */
  readonly static?: true;
  /** Left out when it is `member`. */
  readonly name?: string;
  readonly description: string;
  readonly parameters: readonly EncodedParameter[];
  /**
   * The properties of the usual schema (`toolSchemaOf`): an object of the `llm` parameters, those not
   * optional required, no other property allowed. A schema of another form is given whole as `schema`.
   */
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly schema?: JsonSchema;
  /** Left out when true, or when `strictReason` (why not) is there. */
  readonly strict?: false;
  readonly strictReason?: string;
  readonly dates?: readonly string[];
  readonly outputSchema?: JsonSchema;
  readonly resultKind?: "media";
  readonly title?: string;
  readonly annotations?: GeneratedToolEntry["annotations"];
  readonly signature?: string;
  /** Left out when both maps are empty. */
  readonly options?: GeneratedToolEntry["options"];
}

/** A `GeneratedParameter` without `role` when it is `llm` and without `optional` when false. */
export type EncodedParameter = Omit<GeneratedParameter, "role" | "optional"> & { readonly role?: GeneratedParameter["role"]; readonly optional?: true };

/** The key of a reference to a shared fragment: `{ "$shared": 3 }`. */
export const sharedReferenceKey = "$shared";

/**
 * The schema codegen builds for a tool whose parameters have these properties: an object of the
 * `llm` parameters, the non-optional ones required, nothing else allowed (key order as codegen writes it).
 */
export function toolSchemaOf(properties: Readonly<Record<string, JsonSchema>>, parameters: readonly Pick<GeneratedParameter, "name" | "role" | "optional">[]): JsonSchema {
  const required = parameters.filter((p) => p.role === "llm" && !p.optional).map((p) => p.name);
  return { type: "object", properties: properties as Record<string, JsonSchema>, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/**
 * The entries of an encoded module: parses the data, expands shared fragments (each tool gets its
 * own, self-contained copy) and attaches the owners. Throws `StaleSchemaError` when the data was
 * written in a format this runtime does not read, or does not parse.
 */
export function decodeToolSchemas(encoded: EncodedToolSchemas, info: GeneratedModuleInfo): GeneratedToolEntry[] {
  const owners = decodeToolData(encoded.data, info);
  if (owners.length !== encoded.owners.length) throw stale(info, `it lists ${encoded.owners.length} owners for ${owners.length} in its data`);
  return owners.flatMap((tools, i) => tools.map((tool) => ({ ...tool, owner: encoded.owners[i]! })));
}

/** The tools of `EncodedToolSchemas.data` by owner, in full (shared fragments expanded, left-out fields filled in), without their owners. */
export function decodeToolData(text: string, info: GeneratedModuleInfo): Array<Array<Omit<GeneratedToolEntry, "owner">>> {
  const data = parseData(text, info);
  // Without shared fragments nothing is a reference (codegen writes none when a schema uses the key).
  const expand = data.shared.length > 0 ? expander(data.shared, info) : (value: unknown) => value;
  return data.owners.map((owner) => {
    if (!Array.isArray(owner?.tools)) throw stale(info, "an owner in its data has no tools");
    return owner.tools.map((tool) => decodeTool(tool, owner, expand));
  });
}

function decodeTool(tool: EncodedTool, owner: EncodedOwner, expand: (value: unknown) => unknown): Omit<GeneratedToolEntry, "owner"> {
  const parameters: GeneratedParameter[] = tool.parameters.map((p) => ({
    ...p,
    role: p.role ?? "llm",
    optional: p.optional === true,
    ...(p.schema === undefined ? {} : { schema: expand(p.schema) as JsonSchema }),
  }));
  const schema = tool.schema !== undefined ? (expand(tool.schema) as JsonSchema) : toolSchemaOf(expand(tool.properties ?? {}) as Record<string, JsonSchema>, parameters);
  return {
    kind: owner.kind ?? "method",
    member: tool.member,
    static: tool.static === true,
    name: tool.name ?? tool.member,
    description: tool.description,
    parameters,
    schema,
    strict: tool.strict !== false && tool.strictReason === undefined,
    ...(tool.strictReason === undefined ? {} : { strictReason: tool.strictReason }),
    ...(tool.dates === undefined ? {} : { dates: tool.dates }),
    ...(tool.outputSchema === undefined ? {} : { outputSchema: expand(tool.outputSchema) as JsonSchema }),
    ...(tool.resultKind === undefined ? {} : { resultKind: tool.resultKind }),
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
    ...(tool.signature === undefined ? {} : { signature: tool.signature }),
    options: tool.options ?? { inputsFromState: {}, outputsToState: {} },
    source: owner.source,
  };
}

function parseData(text: string, info: GeneratedModuleInfo): EncodedToolData {
  let data: EncodedToolData;
  try {
    data = JSON.parse(text) as EncodedToolData;
  } catch (error) {
    throw stale(info, `its data is not valid JSON (${(error as Error).message})`);
  }
  if (data?.format !== encodedFormatVersion || !Array.isArray(data.owners) || !Array.isArray(data.shared)) {
    const format = typeof data?.format === "number" ? `format ${data.format}` : "an unknown format";
    throw stale(info, `it was written in ${format}, and this version of toolwright reads format ${encodedFormatVersion}`);
  }
  return data;
}

// A fresh copy of `value` with every `{ "$shared": i }` replaced by (a fresh copy of) shared[i].
function expander(shared: readonly unknown[], info: GeneratedModuleInfo): (value: unknown) => unknown {
  const expanding = new Set<number>();
  const expand = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(expand);
    if (value === null || typeof value !== "object") return value;
    const id = referenceOf(value);
    if (id !== undefined) {
      if (id < 0 || id >= shared.length || expanding.has(id)) throw stale(info, `its shared fragment ${id} is ${expanding.has(id) ? "circular" : "missing"}`);
      expanding.add(id);
      const copy = expand(shared[id]);
      expanding.delete(id);
      return copy;
    }
    const copy: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) setOwn(copy, k, expand(v));
    return copy;
  };
  return expand;
}

function referenceOf(value: object): number | undefined {
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== sharedReferenceKey) return undefined;
  const id = (value as Record<string, unknown>)[sharedReferenceKey];
  return typeof id === "number" && Number.isInteger(id) ? id : undefined;
}

function stale(info: GeneratedModuleInfo, problem: string): StaleSchemaError {
  return new StaleSchemaError(info.module, `${info.module} cannot be read: ${problem}. Run \`${info.command}\` to regenerate it.`);
}
