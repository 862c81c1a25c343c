import { encodedFormatVersion, sharedReferenceKey, toolSchemaOf } from "../../src/tools/encodedToolSchemas";
import type { ToolModel } from "../model";

/** Schema fragments shorter than this (as JSON) stay inline: a reference would save little. */
export const sharedFragmentMinLength = 64;

/**
 * The data of the generated module as JSON text (`EncodedToolData`): `{"format":3,"shared":[…],
 * "owners":[…]}` with one line per shared fragment, per owner and per tool (in the order given,
 * consecutive tools of one owner grouped), so that a change to one tool is a one-line diff. Fields
 * at their usual value are left out, and a schema of the usual form is written as its properties
 * (see `EncodedTool`). Schema subtrees (of `schema`, of injected parameters' `schema` and of
 * `outputSchema`) that are at
 * least `sharedFragmentMinLength` characters of JSON and occur in two or more tools are written once
 * in `shared` and referenced as `{"$shared":i}`; the runtime expands them back, so every tool still
 * gets its own, self-contained schema (`$ref`s into the tool's own `$defs` are copied as text, so
 * they keep pointing where they did). Fragment ids follow their first use, so the text is deterministic.
 */
export function encodeToolData(models: readonly ToolModel[]): string {
  // A tool's schema, whose root stays with the tool, and its parameters' schemas, which may be shared whole.
  const schemasOf = (model: ToolModel): unknown[] => [
    model.schema,
    model.parameters.flatMap((p) => (p.schema === undefined ? [] : [p.schema])),
    ...(model.outputSchema === undefined ? [] : [model.outputSchema]),
  ];
  // Sharing is off when a schema already uses the reference key, so that expansion cannot misread it.
  const sharing = !models.some((m) => schemasOf(m).some(usesReferenceKey));
  const texts = subtreeTexts;
  const candidates = sharing ? sharedCandidates(models, schemasOf) : new Set<string>();
  keepReused(candidates, models.map(schemasOf), texts);
  const shared: string[] = [];
  const ids = new Map<string, number>();
  const encode = (value: unknown, root: boolean): string => {
    const isObject = value !== null && typeof value === "object";
    const text = isObject ? (root ? undefined : (texts.get(value) ?? canonical(value))) : canonical(value);
    if (text !== undefined && candidates.has(text)) {
      let id = ids.get(text);
      if (id === undefined) {
        const body = encode(value, true);
        ids.set(text, (id = shared.length));
        shared.push(body);
      }
      return `{${JSON.stringify(sharedReferenceKey)}:${id}}`;
    }
    if (Array.isArray(value)) return `[${value.map((v) => encode(v, false)).join(",")}]`;
    if (value !== null && typeof value === "object") {
      return `{${Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).map(([k, v]) => `${JSON.stringify(k)}:${encode(v, false)}`).join(",")}}`;
    }
    return canonical(value);
  };
  // Only a parameter's schema may hold references (its default is a value, not a schema).
  const encodeParameter = ({ role, optional, ...rest }: ToolModel["parameters"][number]): string => {
    const fields: Array<[string, unknown]> = [["name", rest.name]];
    if (role !== "llm") fields.push(["role", role]);
    if (rest.stateKey !== undefined) fields.push(["stateKey", rest.stateKey]);
    if (optional) fields.push(["optional", true]);
    if (rest.default !== undefined) fields.push(["default", rest.default]);
    return `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",")}${rest.schema === undefined ? "" : `,"schema":${encode(rest.schema, false)}`}}`;
  };
  const encodeTool = (model: ToolModel): string => {
    const fields: Array<[string, string]> = [["member", JSON.stringify(model.member)]];
    if (model.isStatic) fields.push(["static", "true"]);
    if (model.name !== model.member) fields.push(["name", JSON.stringify(model.name)]);
    fields.push(["description", JSON.stringify(model.description)], ["parameters", `[${model.parameters.map(encodeParameter).join(",")}]`]);
    const properties = model.schema.properties;
    if (properties !== undefined && canonical(toolSchemaOf(properties, model.parameters)) === canonical(model.schema)) fields.push(["properties", encode(properties, false)]);
    else fields.push(["schema", encode(model.schema, true)]);
    if (!model.strict) fields.push(model.strictReason ? ["strictReason", JSON.stringify(model.strictReason)] : ["strict", "false"]);
    if (model.dates.length > 0) fields.push(["dates", JSON.stringify(model.dates)]);
    if (model.outputSchema !== undefined) fields.push(["outputSchema", encode(model.outputSchema, true)]);
    if (model.resultKind !== undefined) fields.push(["resultKind", JSON.stringify(model.resultKind)]);
    if (model.title !== undefined) fields.push(["title", JSON.stringify(model.title)]);
    if (model.annotations !== undefined) fields.push(["annotations", JSON.stringify(model.annotations)]);
    if (model.signature !== undefined) fields.push(["signature", JSON.stringify(model.signature)]);
    if (Object.keys(model.options.inputsFromState).length > 0 || Object.keys(model.options.outputsToState).length > 0) fields.push(["options", JSON.stringify(model.options)]);
    return `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`;
  };
  const owners = ownerGroups(models).map((group) => {
    const first = group[0]!;
    const head = `${first.kind === "function" ? '"kind":"function",' : ""}"source":${JSON.stringify(first.source)}`;
    return `{${head},"tools":[\n${group.map(encodeTool).join(",\n")}\n]}`;
  });
  const sharedText = shared.length > 0 ? `[\n${shared.join(",\n")}\n]` : "[]";
  return `{"format":${encodedFormatVersion},"shared":${sharedText},"owners":[\n${owners.join(",\n")}\n]}`;
}

/** The tools in runs of one owner (same file, owner and kind), in the order given: an owner per run. */
export function ownerGroups(models: readonly ToolModel[]): ToolModel[][] {
  const groups: ToolModel[][] = [];
  for (const model of models) {
    const last = groups.at(-1)?.[0];
    if (last && last.file === model.file && last.ownerName === model.ownerName && last.kind === model.kind) groups.at(-1)!.push(model);
    else groups.push([model]);
  }
  return groups;
}

// The JSON text of each object and array of the schemas (which are not changed once built), and
// each tool's long subtree texts: watch mode re-encodes every tool after each edit, and these
// are what takes the time, so unchanged tools reuse them.
const subtreeTexts = new WeakMap<object, string>();
const longTextsOf = new WeakMap<ToolModel, readonly string[]>();

// JSON text of every object and array under the schemas that is long enough and found in ≥ 2 tools.
function sharedCandidates(models: readonly ToolModel[], schemasOf: (model: ToolModel) => unknown[]): Set<string> {
  const firstTool = new Map<string, number>();
  const candidates = new Set<string>();
  models.forEach((model, tool) => {
    for (const text of longTexts(model, schemasOf)) {
      const first = firstTool.get(text);
      if (first === undefined) firstTool.set(text, tool);
      else if (first !== tool) candidates.add(text);
    }
  });
  return candidates;
}

function longTexts(model: ToolModel, schemasOf: (model: ToolModel) => unknown[]): readonly string[] {
  const cached = longTextsOf.get(model);
  if (cached) return cached;
  const found: string[] = [];
  const visit = (value: unknown): string => {
    if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
    let text = subtreeTexts.get(value);
    if (text === undefined) {
      text = Array.isArray(value)
        ? `[${value.map(visit).join(",")}]`
        : `{${Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).map(([k, v]) => `${JSON.stringify(k)}:${visit(v)}`).join(",")}}`;
      subtreeTexts.set(value, text);
    } else {
      for (const child of Array.isArray(value) ? value : Object.values(value)) if (child !== undefined) visit(child);
    }
    if (text.length >= sharedFragmentMinLength) found.push(text);
    return text;
  };
  // The roots stay with their tool (only their children may be shared).
  for (const schema of schemasOf(model)) for (const v of Object.values(schema as Record<string, unknown>)) if (v !== undefined) visit(v);
  longTextsOf.set(model, found);
  return found;
}

// A candidate found in two tools only inside another candidate (the properties of a shared
// interface) would be referenced once, from that candidate's own entry: drop such candidates,
// counting references as the encoder makes them, until every one left is referenced twice or more.
function keepReused(candidates: Set<string>, schemasByTool: readonly unknown[][], texts: WeakMap<object, string>): void {
  for (let dropped = true; dropped && candidates.size > 0; ) {
    const references = new Map<string, number>();
    const visit = (value: unknown, root: boolean): void => {
      if (value === null || typeof value !== "object") return;
      const text = texts.get(value);
      if (!root && text !== undefined && candidates.has(text)) {
        const count = (references.get(text) ?? 0) + 1;
        references.set(text, count);
        if (count > 1) return; // its body is encoded once
      }
      for (const child of Array.isArray(value) ? value : Object.values(value)) visit(child, false);
    };
    for (const schemas of schemasByTool) for (const schema of schemas) visit(schema, true);
    dropped = false;
    for (const text of candidates) {
      if ((references.get(text) ?? 0) < 2) {
        candidates.delete(text);
        dropped = true;
      }
    }
  }
}

// The JSON text of a value, keys in their own order (the builder's, which is fixed).
function canonical(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

function usesReferenceKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(usesReferenceKey);
  if (value === null || typeof value !== "object") return false;
  return Object.entries(value).some(([k, v]) => k === sharedReferenceKey || usesReferenceKey(v));
}
