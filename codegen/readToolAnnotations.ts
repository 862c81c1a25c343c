import { Node } from "ts-morph";
import { type ToolAnnotations, toolAnnotationNames } from "../src/tools/toolAnnotations";
import type { Diagnostics } from "./diagnostics";

/** What the JSDoc of a tool says about it for people and clients: `@title` and the MCP annotation hints. */
export interface ReadToolAnnotations {
  readonly title?: string;
  readonly annotations?: ToolAnnotations;
}

const hintNames: ReadonlySet<string> = new Set(toolAnnotationNames);

/**
 * Reads `@title <text>` and the boolean tags `@readOnlyHint`, `@destructiveHint`, `@idempotentHint`
 * and `@openWorldHint` (alone for true, or followed by `true` or `false`) from the tool's JSDoc. A
 * bad value, an unknown `…Hint` tag, a tag given twice and a read-only tool marked destructive are
 * TW107 diagnostics naming `label`; undefined is returned then.
 */
export function readToolAnnotations(docNode: Node, label: string, diagnostics: Diagnostics): ReadToolAnnotations | undefined {
  const doc = Node.isJSDocable(docNode) ? docNode.getJsDocs().at(-1) : undefined;
  if (!doc) return {};
  let title: string | undefined;
  const annotations: Record<string, boolean> = {};
  let ok = true;
  const fail = (tag: Node, message: string) => {
    diagnostics.at(tag, "TW107", message);
    ok = false;
  };
  for (const tag of doc.getTags()) {
    const name = tag.getTagName();
    const text = (tag.getCommentText() ?? "").trim();
    if (name === "title") {
      if (title !== undefined) fail(tag, `${label} has @title twice; keep one.`);
      else if (text === "" || text.includes("\n")) fail(tag, `${label} has an @title that is not one line of text; write @title followed by the name people see, e.g. @title Search tickets.`);
      else title = text;
    } else if (hintNames.has(name)) {
      if (Object.hasOwn(annotations, name)) fail(tag, `${label} has @${name} twice; keep one.`);
      else if (text === "" || text === "true") annotations[name] = true;
      else if (text === "false") annotations[name] = false;
      else fail(tag, `${label} has @${name} '${text.split("\n")[0]}', which is not a boolean; write @${name} alone for true, or @${name} false.`);
    } else if (/hint$/i.test(name)) {
      const meant = toolAnnotationNames.find((known) => known.toLowerCase() === name.toLowerCase());
      const fix = meant ? `write @${meant}` : `the annotations are ${toolAnnotationNames.map((n) => `@${n}`).join(", ")}`;
      fail(tag, `${label} has the JSDoc tag @${name}, which is not a tool annotation; ${fix}.`);
    }
  }
  if (annotations.readOnlyHint === true && annotations.destructiveHint === true) {
    const tag = doc.getTags().find((t) => t.getTagName() === "destructiveHint")!;
    fail(tag, `${label} has @readOnlyHint and @destructiveHint; a read-only tool changes nothing, so drop one of them.`);
  }
  if (!ok) return undefined;
  return { ...(title !== undefined && { title }), ...(Object.keys(annotations).length > 0 && { annotations: orderedHints(annotations) }) };
}

// In the order MCP lists them, whatever order the tags were written in, so reordering tags changes nothing.
function orderedHints(annotations: Record<string, boolean>): ToolAnnotations {
  return Object.fromEntries(toolAnnotationNames.filter((name) => Object.hasOwn(annotations, name)).map((name) => [name, annotations[name]!]));
}
