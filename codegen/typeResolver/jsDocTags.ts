import { Node, type Symbol as MorphSymbol } from "ts-morph";
import type { SchemaNode } from "./context";

/** What JSDoc says about a property or parameter: description, keywords, and an `@asType` override. */
export interface JsDocInfo {
  readonly description?: string;
  readonly keywords: Record<string, unknown>;
  /** `@asType integer`, `@asType any`, … */
  readonly asType?: string;
}

const numberTags = new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "minItems", "maxItems"]);

/** Reads the JSDoc of a property's declarations. */
export function propertyJsDoc(symbol: MorphSymbol): JsDocInfo {
  for (const declaration of symbol.getDeclarations()) {
    if (Node.isJSDocable(declaration)) {
      const docs = declaration.getJsDocs();
      if (docs.length > 0) return jsDocInfo(docs[docs.length - 1]!.getDescription(), docs[docs.length - 1]!.getTags().map((t) => [t.getTagName(), t.getCommentText() ?? ""] as const));
    }
  }
  return { keywords: {} };
}

/** Turns a JSDoc description and tags into schema keywords. */
export function jsDocInfo(description: string | undefined, tags: ReadonlyArray<readonly [string, string]>): JsDocInfo {
  const keywords: Record<string, unknown> = {};
  let asType: string | undefined;
  for (const [name, rawText] of tags) {
    const text = rawText.trim();
    if (numberTags.has(name) && text !== "" && Number.isFinite(Number(text))) keywords[name] = Number(text);
    else if (name === "pattern" || name === "format") keywords[name] = text;
    else if (name === "default") keywords.default = parseLiteral(text);
    else if (name === "example") keywords.examples = [...((keywords.examples as unknown[]) ?? []), parseLiteral(text)];
    else if (name === "deprecated") keywords.deprecated = true;
    else if (name === "asType") asType = text;
  }
  // Lines wrapped inside a paragraph are one line to the model (as for `@param` and the summary); paragraphs stay apart.
  const text = description?.trim().split(/\n\s*\n/).map((paragraph) => paragraph.trim().replace(/\s*\n\s*/g, " ")).join("\n\n");
  return { description: text ? text : undefined, keywords, asType };
}

/** Applies description and keywords to a schema node (the node is copied). */
export function withJsDoc(schema: SchemaNode, info: JsDocInfo): SchemaNode {
  if (!info.description && Object.keys(info.keywords).length === 0) return schema;
  const copy: SchemaNode = { ...schema, ...info.keywords };
  if (info.description) copy.description = info.description;
  return copy;
}

function parseLiteral(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
