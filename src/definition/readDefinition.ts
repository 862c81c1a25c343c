import type { z } from "zod";
import { DefinitionError } from "../errors";
import { describeKind } from "../util/describeValue";
import { closestName } from "../util/closestName";
import type { ChatGeneratorDefinition } from "../chat/chatGenerator";
import { truncateForEcho } from "../util/truncate";
import type { AgentDefinition } from "./agentDefinition";
import { definitionSchema } from "./definitionSchema";
import { dataGuardrails } from "./guardrailDataTypes";

type Path = (string | number)[];

/**
 * Checks untrusted data against the definition format and returns it typed (a copy). Throws the
 * first problem as a `DefinitionError` at its path: the rule, the fix and what was found.
 */
export function readDefinition(data: unknown): AgentDefinition {
  const schemas = definitionSchema();
  const parsed = schemas.agent.safeParse(data, { reportInput: true });
  if (parsed.success) return parsed.data as AgentDefinition;
  throw firstProblem(parsed.error.issues, data);
}

/**
 * Checks an untrusted chat generator definition nested in another's options (`{ type, options? }`,
 * found at `path`) as `readDefinition` checks the definition's own `chatGenerator`.
 */
export function readChatGeneratorDefinition(data: unknown, path: Path): ChatGeneratorDefinition {
  const shape = definitionSchema().chatGenerator;
  const parsed = shape.safeParse(data, { reportInput: true });
  if (parsed.success) return parsed.data as ChatGeneratorDefinition;
  const issue = parsed.error.issues[0]!;
  const inner = issue.path.filter((segment): segment is string | number => typeof segment !== "symbol");
  throw asError(issue, [...path, ...inner], () => knownKeys(shape, inner));
}

function firstProblem(issues: readonly z.core.$ZodIssue[], data: unknown): DefinitionError {
  // A missing key is reported at its own path, so it sorts with the others in document order.
  const issue = issues[0]!;
  const path = issue.path.filter((segment): segment is string | number => typeof segment !== "symbol");
  // A problem inside a tools entry is reported against the shape the entry has (its keys, for an unknown one).
  if (path.length >= 2 && path[0] === "tools" && typeof path[1] === "number") return toolReferenceProblem(path.slice(0, 2), valueAt(data, path.slice(0, 2)));
  if (path.length >= 3 && path[0] === "guardrails" && typeof path[2] === "number") return guardrailEntryProblem(path.slice(0, 3), valueAt(data, path.slice(0, 3))) ?? asError(issue, path);
  return asError(issue, path);
}

// A guardrails entry is one built-in, told apart by its key: the problem is reported against that built-in's shape.
function guardrailEntryProblem(path: Path, entry: unknown): DefinitionError | undefined {
  const record = typeof entry === "object" && entry !== null && !Array.isArray(entry) ? (entry as Record<string, unknown>) : undefined;
  if (record && Object.hasOwn(record, "openAIModeration")) {
    return new DefinitionError(
      [...path, "openAIModeration"],
      "has no data form: it calls OpenAI through a client object, which a definition cannot hold; pass it in code, as middleware to Agent.fromJSON or loadAgent: { middleware: [inputGuardrail(openAIModeration({ client }))] }.",
    );
  }
  const kinds = record ? dataGuardrails.filter((key) => Object.hasOwn(record, key)) : [];
  const atTool = path[1] === "toolCall" || path[1] === "toolResult";
  if (kinds.length !== 1) {
    const found = record ? (kinds.length === 0 ? `keys ${Object.keys(record).slice(0, 20).map((k) => `'${truncateForEcho(k)}'`).join(", ") || "none"}` : `${kinds.map((k) => `'${k}'`).join(" and ")}`) : describeKind(entry);
    return new DefinitionError(path, `must be one built-in guardrail: { maxInputLength: { chars } } or { denyPatterns: { patterns } }${atTool ? ", with tools: [names] to check only those tools" : ""}, got ${found}.`);
  }
  const shape = definitionSchema().guardrailEntries[atTool ? "tool" : "text"][kinds[0]!];
  const issue = shape.safeParse(entry, { reportInput: true }).error?.issues[0];
  if (issue === undefined) return undefined;
  const inner = issue.path.filter((segment): segment is string | number => typeof segment !== "symbol");
  return asError(issue, [...path, ...inner], () => knownKeys(shape, inner));
}

// A tools entry is one of three shapes, told apart by its key: the problem is reported against that shape.
function toolReferenceProblem(path: Path, entry: unknown): DefinitionError {
  const schemas = definitionSchema();
  const record = typeof entry === "object" && entry !== null && !Array.isArray(entry) ? (entry as Record<string, unknown>) : undefined;
  const kinds = record ? (["class", "tool", "toolset"] as const).filter((key) => Object.hasOwn(record, key)) : [];
  if (kinds.length !== 1) {
    const found = record ? (kinds.length === 0 ? `keys ${Object.keys(record).map((k) => `'${k}'`).join(", ") || "none"}` : `${kinds.map((k) => `'${k}'`).join(" and ")}`) : describeKind(entry);
    return new DefinitionError(path, `must be one tool reference: { class: <a class with @tool methods> }, { tool: <a tool name> } or { toolset: <a toolset name> }, got ${found}.`);
  }
  const shape = kinds[0] === "class" ? schemas.classTools : kinds[0] === "tool" ? schemas.namedTool : schemas.toolset;
  const parsed = shape.safeParse(entry, { reportInput: true });
  const issue = parsed.error!.issues[0]!;
  const inner = issue.path.filter((segment): segment is string | number => typeof segment !== "symbol");
  return asError(issue, [...path, ...inner], () => knownKeys(shape, inner));
}

function asError(issue: z.core.$ZodIssue, path: Path, keysHere: () => string[] = () => knownKeys(definitionSchema().agent, path)): DefinitionError {
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0]!;
    const known = keysHere();
    const suggestion = closestName(key, known);
    return new DefinitionError(
      [...path, key],
      `is not a key of ${path.length === 0 ? "an agent definition" : "this mapping"}${suggestion ? `; did you mean '${suggestion}'?` : "."} Keys: ${known.join(", ")}.`,
    );
  }
  const input = (issue as { input?: unknown }).input;
  if (issue.code === "invalid_type" && input === undefined) return new DefinitionError(path, `is missing: it ${issue.message}.`);
  // A secret given as a value is not repeated: only its kind.
  const got = path[0] === "snapshotKey" && typeof input === "string" ? "a string" : describeKind(input);
  return new DefinitionError(path, `${issue.message}, got ${got}.`);
}

// The keys a mapping at `path` (below `root`) may have, for the message of an unknown one.
function knownKeys(root: z.ZodType, path: Path): string[] {
  let shape: z.ZodType | undefined = root;
  for (const segment of path) {
    shape = childShape(shape, segment);
    if (!shape) return [];
  }
  const def = (unwrap(shape) as unknown as { def: { shape?: Record<string, unknown> } }).def;
  return Object.keys(def.shape ?? {});
}

function childShape(shape: z.ZodType | undefined, segment: string | number): z.ZodType | undefined {
  let current = unwrap(shape);
  const def = (current as unknown as { def: { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; valueType?: z.ZodType; options?: z.ZodType[] } } | undefined)?.def;
  if (!def) return undefined;
  if (def.type === "object") return def.shape?.[segment as string];
  if (def.type === "array") return def.element;
  if (def.type === "record") return def.valueType;
  if (def.type === "union") {
    current = def.options?.find((option) => (option as unknown as { def: { shape?: Record<string, unknown> } }).def.shape?.[segment as string] !== undefined);
    return current ? childShape(current, segment) : undefined;
  }
  return undefined;
}

function unwrap(shape: z.ZodType | undefined): z.ZodType | undefined {
  let current = shape;
  while (current && ["optional", "nullable", "default"].includes((current as unknown as { def: { type: string } }).def.type)) {
    current = (current as unknown as { def: { innerType: z.ZodType } }).def.innerType;
  }
  return current;
}

function valueAt(data: unknown, path: Path): unknown {
  let value = data;
  for (const segment of path) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}
