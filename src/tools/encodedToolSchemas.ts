import { StaleSchemaError } from "../errors";
import { setOwn } from "../util/ownProperty";
import type { GeneratedModuleInfo, GeneratedToolEntry } from "./generatedEntry";

/** The version of the data format `toolwright codegen` writes and this runtime reads. */
export const encodedFormatVersion = 2;

/**
 * The tools of a generated module in the compact form `toolwright codegen` writes: the data as JSON
 * text (read by the type checker as one string, not inferred as a large object literal) and, in the
 * same order as the data's tools, a thunk per tool returning its class or `defineTool` result.
 * Written by `toolwright codegen`; do not write by hand.
 */
export interface EncodedToolSchemas {
  /** The owner of each tool, in the order of `data.tools`, read lazily (import cycles). */
  readonly owners: ReadonlyArray<() => unknown>;
  /** JSON text of `{ format, shared, tools }`: see `decodeToolSchemas`. */
  readonly data: string;
}

/** The JSON document in `EncodedToolSchemas.data`. */
export interface EncodedToolData {
  /** `encodedFormatVersion` of the codegen that wrote it. */
  readonly format: number;
  /** Schema fragments that occur in several tools; `{ "$shared": i }` anywhere in a tool's schemas stands for `shared[i]`. */
  readonly shared: readonly unknown[];
  /** Every entry without its `owner`. */
  readonly tools: ReadonlyArray<Omit<GeneratedToolEntry, "owner">>;
}

/** The key of a reference to a shared fragment: `{ "$shared": 3 }`. */
export const sharedReferenceKey = "$shared";

/**
 * The entries of an encoded module: parses the data, expands shared fragments (each tool gets its
 * own, self-contained copy) and attaches the owners. Throws `StaleSchemaError` when the data was
 * written in a format this runtime does not read, or does not parse.
 */
export function decodeToolSchemas(encoded: EncodedToolSchemas, info: GeneratedModuleInfo): GeneratedToolEntry[] {
  const tools = decodeToolData(encoded.data, info);
  if (tools.length !== encoded.owners.length) throw stale(info, `it lists ${encoded.owners.length} owners for ${tools.length} tools`);
  return tools.map((tool, i) => ({ ...tool, owner: encoded.owners[i]! }));
}

/** The tools of `EncodedToolSchemas.data`, shared fragments expanded, without their owners. */
export function decodeToolData(text: string, info: GeneratedModuleInfo): Array<Omit<GeneratedToolEntry, "owner">> {
  const data = parseData(text, info);
  // Without shared fragments nothing is a reference (codegen writes none when a schema uses the key).
  const expand = data.shared.length > 0 ? expander(data.shared, info) : (value: unknown) => value;
  return data.tools.map((tool) => ({
    ...tool,
    parameters: tool.parameters.map((p) => (p.schema === undefined ? p : { ...p, schema: expand(p.schema) as typeof p.schema })),
    schema: expand(tool.schema) as GeneratedToolEntry["schema"],
  }));
}

function parseData(text: string, info: GeneratedModuleInfo): EncodedToolData {
  let data: EncodedToolData;
  try {
    data = JSON.parse(text) as EncodedToolData;
  } catch (error) {
    throw stale(info, `its data is not valid JSON (${(error as Error).message})`);
  }
  if (data?.format !== encodedFormatVersion || !Array.isArray(data.tools) || !Array.isArray(data.shared)) {
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
