import { Node, ts, type Type } from "ts-morph";
import type { Diagnostics } from "./diagnostics";
import type { DiscoveredTool } from "./discoverTools";
import { awaitedType } from "./returnSchema";
import type { ToolwrightSymbols } from "./toolwrightSymbols";

// Deep enough for any result type a tool declares; recursion is also cut by the types already seen.
const maxDepth = 16;

/**
 * What a tool's declared (awaited) return type says about its result: `"media"` when it returns an
 * `ImageContent`, a `FileContent`, or an array of `string | ImageContent | FileContent` (alone or
 * in a union with other types the runtime sends as text), which the runtime sends as a tool
 * message with parts; undefined for any other type. An image or a file anywhere else (a property
 * of an object, an array with other items) reaches the model only as base64 JSON text, which the
 * runtime refuses: that is TW303, unless the tool's options have `outputsToString` (which may pick
 * or convert it), and the result is `"failed"`.
 */
export function resultKind(tool: DiscoveredTool, symbols: ToolwrightSymbols, label: string, diagnostics: Diagnostics): "media" | "failed" | undefined {
  const returned = awaitedType(tool.signature.getReturnType());
  if (returned.isAny() || returned.isUnknown()) return undefined;
  const walk = new MediaWalk(symbols, tool.signature);
  let media = false;
  let nested = false;
  for (const member of returned.isUnion() ? returned.getUnionTypes() : [returned]) {
    if (symbols.isMedia(member)) media = true;
    else if (member.isArray() || member.isTuple()) {
      const items = member.isArray() ? [member.getArrayElementTypeOrThrow()] : member.getTupleElements();
      const flat = items.flatMap((item) => (item.isUnion() ? item.getUnionTypes() : [item]));
      if (flat.every((item) => symbols.isMedia(item) || isText(item))) media ||= flat.some((item) => symbols.isMedia(item));
      else nested ||= flat.some((item) => walk.holdsMedia(item, 0));
    } else nested ||= walk.holdsMedia(member, 0);
  }
  if (nested && !hasOutputsToString(tool.optionsArgument)) {
    const returnNode = tool.signature.getReturnTypeNode() ?? tool.anchor;
    diagnostics.at(
      returnNode,
      "TW303",
      `${label} returns '${returned.getText(tool.signature, ts.TypeFormatFlags.NoTruncation)}', which holds an ImageContent or FileContent inside other data; the model would get it as base64 JSON text, so the runtime refuses it. Return the ImageContent or FileContent alone or in an array of string | ImageContent | FileContent, put other data in outputsToState, or convert the result with outputsToString.`,
    );
    return "failed";
  }
  return media ? "media" : undefined;
}

function isText(type: Type): boolean {
  return type.isString() || type.isStringLiteral() || type.isTemplateLiteral();
}

function hasOutputsToString(options: Node | undefined): boolean {
  return options !== undefined && Node.isObjectLiteralExpression(options) && options.getProperty("outputsToString") !== undefined;
}

// Looks for an ImageContent or FileContent inside a type: union members, array and tuple items, object properties.
class MediaWalk {
  readonly #seen = new Set<Type>();

  constructor(
    private readonly symbols: ToolwrightSymbols,
    private readonly at: Node,
  ) {}

  holdsMedia(type: Type, depth: number): boolean {
    if (this.symbols.isMedia(type)) return true;
    if (depth > maxDepth || this.#seen.has(type)) return false;
    this.#seen.add(type);
    if (type.isUnion()) return type.getUnionTypes().some((t) => this.holdsMedia(t, depth + 1));
    if (type.isIntersection()) return type.getIntersectionTypes().some((t) => this.holdsMedia(t, depth + 1));
    if (type.isArray()) return this.holdsMedia(type.getArrayElementTypeOrThrow(), depth + 1);
    if (type.isTuple()) return type.getTupleElements().some((t) => this.holdsMedia(t, depth + 1));
    if (!type.isObject() || type.getCallSignatures().length > 0) return false;
    return type.getProperties().some((property) => this.holdsMedia(property.getTypeAtLocation(this.at), depth + 1));
  }
}
