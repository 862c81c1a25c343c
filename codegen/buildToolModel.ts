import { Node, type ParameterDeclaration } from "ts-morph";
import type { GeneratedParameter } from "../src/tools/generatedEntry";
import type { JsonSchema } from "../src/tools/jsonSchema";
// The strict-mode rule is one pure function shared with the runtime (src/tools/strictCompatibility.ts
// imports nothing but a type), so codegen and `new Tool` can never disagree about it.
import { strictCompatibility } from "../src/tools/strictCompatibility";
// Likewise the tool-name rule (src/tools/toolName.ts imports nothing).
import { isValidToolName } from "../src/tools/toolName";
import { classifyParameters } from "./classifyParameters";
import { Diagnostics } from "./diagnostics";
import type { DiscoveredTool } from "./discoverTools";
import type { ToolModel } from "./model";
import { setOwn } from "../src/util/ownProperty";
import { signatureOf } from "./signatureOf";
import { readToolAnnotations } from "./readToolAnnotations";
import { readToolOptions } from "./readToolOptions";
import { resultKind } from "./resultKind";
import { awaitedType, returnSchema } from "./returnSchema";
import type { ToolwrightSymbols } from "./toolwrightSymbols";
import { applyAsType } from "./typeResolver/asType";
import { dateMarker, type ResolveContext, type SchemaNode } from "./typeResolver/context";
import { jsDocInfo, withJsDoc } from "./typeResolver/jsDocTags";
import { printParameters } from "./typeResolver/printType";
import { resolveType } from "./typeResolver/resolveType";


/** A tool whose name is known, even if its schema could not be built (for the duplicate-name check). */
export interface NamedTool {
  readonly name: string;
  /** `Class.method` or the defineTool const. */
  readonly label: string;
  /** `file:line:col` of the decorator or `defineTool` call. */
  readonly source: string;
}

/**
 * Builds the model of one discovered tool, or reports why it cannot be built. Once the tool's name
 * is read and valid it is added to `names`, so duplicate names are reported alongside other errors.
 */
export function buildToolModel(tool: DiscoveredTool, symbols: ToolwrightSymbols, diagnostics: Diagnostics, names: NamedTool[] = []): ToolModel | undefined {
  const label = tool.kind === "method" ? `${tool.ownerName}.${tool.member}` : tool.ownerName;
  const options = readToolOptions(tool.optionsArgument, label, diagnostics, tool.kind);
  if (!options) return undefined;
  const name = options.name ?? tool.member;
  if (!isValidToolName(name)) {
    const suggestion = name.replace(/[^a-zA-Z0-9_-]+/g, "_").slice(0, 64);
    const fix = options.nameNode ? "change the name option" : `set a name with ${tool.kind === "method" ? "@tool({ name })" : "defineTool(fn, { name })"}`;
    diagnostics.at(
      options.nameNode ?? tool.anchor,
      "TW102",
      `${label} has tool name '${name}', which is not valid: a tool name is 1-64 characters of letters, digits, '_' and '-'; ${fix}${isValidToolName(suggestion) ? `, for example ${options.nameNode ? "to " : ""}'${suggestion}'` : ""}.`,
    );
    return undefined;
  }
  names.push({ name, label, source: diagnostics.location(tool.anchor) });
  const docs = methodDocs(tool.docNode);
  const described = readToolAnnotations(tool.docNode, label, diagnostics);
  const parameters = classifyParameters(tool.parameters, options, label, symbols, diagnostics);
  if (!parameters || !described) return undefined;
  const ctx: ResolveContext = { diagnostics, toolwright: symbols, anchor: tool.anchor, defs: new Map(), stack: [], defNames: new Map() };
  const properties: Record<string, SchemaNode> = {};
  const required: string[] = [];
  let failed = false;
  const plans: GeneratedParameter[] = [];
  for (const { declaration, plan } of parameters) {
    plans.push(plan.role === "stateKey" ? withStateKeySchema(plan, declaration, docs.asType[plan.name], symbols) : plan);
    if (plan.role !== "llm") continue;
    const path = `${label}(${plan.name})`;
    if (!Node.isIdentifier(declaration.getNameNode())) {
      diagnostics.at(
        declaration,
        "TW204",
        `${path} is destructured, so it has no name to put in the schema; take the object as one named parameter (options: { … }) and destructure it in the body.`,
      );
      failed = true;
      continue;
    }
    if (declaration.isRestParameter()) {
      diagnostics.at(
        declaration,
        "TW204",
        `${label}(...${plan.name}) is a rest parameter, which the schema cannot describe as one property; take an array instead (${plan.name}: ${declaration.getTypeNode()?.getText() ?? "string[]"}).`,
      );
      failed = true;
      continue;
    }
    const anchored: ResolveContext = { ...ctx, anchor: declaration };
    const asType = docs.asType[plan.name];
    // `defineTool(function f(limit = 3) …)`: defineTool's `any[]` context types an unannotated
    // parameter `any`; its literal default still says what it is.
    const initializer = declaration.getTypeNode() ? undefined : declaration.getInitializer();
    const declared = declaration.getType();
    const type = (declared.isAny() || declared.isUnknown()) && initializer ? initializer.getType().getBaseTypeOfLiteralType() : declared;
    if (!asType && (type.isAny() || type.isUnknown())) {
      if (!declaration.getTypeNode()) {
        diagnostics.at(declaration, "TW204", `${path} has no type annotation, so codegen cannot tell the model what to send; annotate it (${plan.name}: string, …).`);
      } else if ((type.compilerType as { intrinsicName?: string }).intrinsicName === "error") {
        diagnostics.at(
          declaration,
          "TW302",
          `${path} has type '${declaration.getTypeNode()!.getText()}', which TypeScript cannot resolve, so codegen cannot tell the model what to send; fix the type or its import.`,
        );
      } else {
        diagnostics.at(
          declaration,
          "TW302",
          `${path} is '${type.getText()}', which gives the model no schema; give it a type, or add @asType ${plan.name} any to the ${tool.kind === "method" ? "method" : "function"}'s JSDoc to accept any JSON value.`,
        );
      }
      failed = true;
      continue;
    }
    const resolved = asType ? applyAsType(asType, type, path, anchored, declaration.getTypeNode()) : resolveType(type, path, anchored, declaration.getTypeNode());
    if (!resolved) {
      failed = true;
      continue;
    }
    let schema = withNestedParamDocs(withJsDoc(resolved, { description: docs.params[plan.name], keywords: {} }), plan.name, docs.params);
    if (plan.default !== undefined) schema = { ...schema, default: plan.default };
    properties[plan.name] = schema;
    if (!plan.optional) required.push(plan.name);
  }
  checkOutputSources(tool, options.outputsToState, options.outputNodes, label, diagnostics);
  const kind = resultKind(tool, symbols, label, diagnostics);
  if (failed || kind === "failed") return undefined;
  const root: SchemaNode = { type: "object", properties };
  if (required.length > 0) root.required = required;
  root.additionalProperties = false;
  if (ctx.defs.size > 0) root.$defs = Object.fromEntries([...ctx.defs].sort(([a], [b]) => a.localeCompare(b)));
  const { schema, dates } = withoutMarkers(root);
  const strict = strictCompatibility(schema);
  // Images and files are sent as parts, never as structured data: no output schema describes them.
  const outputSchema = kind === "media" ? undefined : returnSchema(tool, symbols);
  return {
    kind: tool.kind,
    ownerName: tool.ownerName,
    member: tool.member,
    isStatic: tool.isStatic,
    file: tool.sourceFile.getFilePath(),
    source: diagnostics.relative(tool.sourceFile.getFilePath()),
    ...signatureOf(tool),
    name,
    description: options.description ?? docs.summary,
    parameters: plans,
    parameterTypes: printParameters(
      parameters.map((p) => p.declaration),
      parameters.map((p) => p.plan.role),
      symbols,
    ),
    schema,
    strict: strict.compatible,
    ...(strict.compatible ? {} : { strictReason: strict.reason }),
    dates,
    ...(outputSchema !== undefined && { outputSchema }),
    ...(kind === "media" && { resultKind: kind }),
    ...described,
    options: { inputsFromState: options.inputsFromState, outputsToState: options.outputsToState },
  };
}

// The JSON Schema of a stateKey parameter's type, for the runtime to check the state key against.
// It is best effort: a type with no JSON form, or with Dates (which State holds as Date objects,
// not as the strings the schema would describe), gets no schema and no diagnostic.
function withStateKeySchema(plan: GeneratedParameter, declaration: ParameterDeclaration, asType: string | undefined, symbols: ToolwrightSymbols): GeneratedParameter {
  const silent = new Diagnostics("/");
  const ctx: ResolveContext = { diagnostics: silent, toolwright: symbols, anchor: declaration, defs: new Map(), stack: [], defNames: new Map() };
  const type = declaration.getType();
  const path = `(${plan.name})`;
  if (!asType && (type.isAny() || type.isUnknown())) return plan;
  const resolved = asType ? applyAsType(asType, type, path, ctx, declaration.getTypeNode()) : resolveType(type, path, ctx, declaration.getTypeNode());
  if (!resolved || silent.count > 0) return plan;
  const root: SchemaNode = ctx.defs.size > 0 ? { ...resolved, $defs: Object.fromEntries([...ctx.defs].sort(([a], [b]) => a.localeCompare(b))) } : resolved;
  const { schema, dates } = withoutMarkers(root);
  return dates.length > 0 ? plan : { ...plan, schema };
}

interface MethodDocs {
  summary: string;
  params: Record<string, string | undefined>;
  asType: Record<string, string>;
}

// The summary (first paragraph), `@param` descriptions and `@asType <param> <type>` tags.
function methodDocs(node: Node): MethodDocs {
  const docs: MethodDocs = { summary: "", params: {}, asType: {} };
  if (!Node.isJSDocable(node)) return docs;
  const doc = node.getJsDocs().at(-1);
  if (!doc) return docs;
  docs.summary = (doc.getDescription().trim().split(/\n\s*\n/)[0] ?? "").replace(/\s*\n\s*/g, " ");
  for (const tag of doc.getTags()) {
    if (Node.isJSDocParameterTag(tag)) {
      const text = jsDocInfo(tag.getCommentText()?.replace(/^\s*-\s*/, ""), []).description;
      if (text) docs.params[tag.getName()] = text.replace(/\s*\n\s*/g, " ");
    } else if (tag.getTagName() === "asType") {
      const [param, type] = (tag.getCommentText() ?? "").trim().split(/\s+/);
      if (param && type) docs.asType[param] = type;
    }
  }
  return docs;
}

// `@param filter.limit Max results` (and `@param rows[].id`, TypeScript's nested-parameter JSDoc)
// describes a property of a parameter; written for this tool, it wins over the property's own JSDoc.
// Properties reached only through a `$ref` are shared with other uses, so they are left alone.
function withNestedParamDocs(schema: SchemaNode, name: string, params: Record<string, string | undefined>): SchemaNode {
  let result = schema;
  for (const [key, text] of Object.entries(params)) {
    if (!text || (!key.startsWith(`${name}.`) && !key.startsWith(`${name}[].`))) continue;
    const steps = key.slice(name.length).split(/(?=\.|\[\])/).map((step) => (step === "[]" ? "[]" : step.replace(/^\./, "")));
    result = describeAt(result, steps, text) ?? result;
  }
  return result;
}

function describeAt(node: SchemaNode, steps: readonly string[], text: string): SchemaNode | undefined {
  if (steps.length === 0) return { ...node, description: text };
  const [step, ...rest] = steps as [string, ...string[]];
  if (node.anyOf) {
    const branches = node.anyOf as SchemaNode[];
    const index = branches.findIndex((branch) => describeAt(branch, steps, text) !== undefined);
    if (index === -1) return undefined;
    return { ...node, anyOf: branches.map((branch, i) => (i === index ? describeAt(branch, steps, text)! : branch)) };
  }
  if (step === "[]") {
    const items = node.items && typeof node.items === "object" ? describeAt(node.items as SchemaNode, rest, text) : undefined;
    return items && { ...node, items };
  }
  const property = node.properties?.[step] as SchemaNode | undefined;
  const described = property && describeAt(property, rest, text);
  return described && { ...node, properties: { ...node.properties, [step]: described } };
}

// TW203: outputsToState.source must be a property of the (awaited) return type.
function checkOutputSources(tool: DiscoveredTool, outputs: Record<string, { source?: string }>, nodes: Record<string, Node>, label: string, diagnostics: Diagnostics): void {
  const sources = Object.entries(outputs).filter(([, config]) => config.source !== undefined);
  if (sources.length === 0) return;
  const returned = awaitedType(tool.signature.getReturnType());
  if (returned.isAny() || returned.isUnknown()) return;
  const candidates = returned.isUnion() ? returned.getUnionTypes().filter((t) => !t.isUndefined() && !t.isNull()) : [returned];
  for (const [stateKey, config] of sources) {
    if (candidates.some((t) => t.getProperty(config.source!))) continue;
    const known = [...new Set(candidates.flatMap((t) => (t.isObject() && !t.isArray() ? t.getProperties().map((p) => p.getName()) : [])))];
    diagnostics.at(
      nodes[stateKey]!,
      "TW203",
      `outputsToState.${stateKey} of ${label} reads '${config.source}', which is not a property of what the tool returns (${returned.getText(tool.signature)}); read one of its properties, or return an object with '${config.source}'. Properties: ${known.join(", ") || "none"}.`,
    );
  }
}

// The schema without its Date markers, and JSON Pointers to where they were, in one walk.
function withoutMarkers(root: SchemaNode): { schema: JsonSchema; dates: string[] } {
  const dates: string[] = [];
  const copy = (node: unknown, pointer: string): unknown => {
    if (node === null || typeof node !== "object") return node;
    if (Array.isArray(node)) return node.map((item, i) => copy(item, `${pointer}/${i}`));
    if ((node as SchemaNode)[dateMarker]) dates.push(pointer);
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) if (child !== undefined) setOwn(out, key, copy(child, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`));
    return out;
  };
  return { schema: copy(root, "#") as JsonSchema, dates };
}
