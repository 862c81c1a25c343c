import type { Tool } from "../tools/tool";
import { type ToolAnnotations, toolAnnotationNames } from "../tools/toolAnnotations";

/** What an McpToolset kept of a server's tool beyond its name, description and schema. */
export interface McpToolDetails {
  /** The server's name for the tool (the model's may have a prefix and `_` for other characters). */
  readonly serverToolName: string;
  /** The tool's `title` (or `annotations.title`), also the Tool's `title` when it is one line of text. */
  readonly title: string | undefined;
  /** The server's annotation hints, only booleans (also the Tool's `annotations`): hints from a server you may not trust. */
  readonly annotations: ToolAnnotations;
  /** Whether the call may be asked to run as an MCP task: `"optional"` or `"forbidden"` (required ones are not offered). */
  readonly taskSupport: "optional" | "forbidden";
}

const details = new WeakMap<Tool, McpToolDetails>();

/** Records what a server said of the tool made for it. */
export function setMcpToolDetails(tool: Tool, value: McpToolDetails): void {
  details.set(tool, Object.freeze({ ...value, annotations: Object.freeze({ ...value.annotations }) }));
}

/** What the MCP server said of this tool (title, annotations), or undefined for a tool not from an McpToolset. */
export function mcpToolDetails(tool: Tool): McpToolDetails | undefined {
  return details.get(tool);
}

/**
 * The annotation hints of a listed tool, keeping only booleans. A server that says both read-only
 * and destructive is taken at the more careful word: destructive.
 */
export function readAnnotations(annotations: unknown): ToolAnnotations {
  const given = (typeof annotations === "object" && annotations !== null ? annotations : {}) as Record<string, unknown>;
  const out: Record<string, boolean> = {};
  for (const key of toolAnnotationNames) {
    if (typeof given[key] === "boolean") out[key] = given[key];
  }
  if (out.readOnlyHint === true && out.destructiveHint === true) delete out.readOnlyHint;
  return out as ToolAnnotations;
}

/** The tool's title as the server gave it (`title`, or `annotations.title` of older servers). */
export function readTitle(info: { readonly title?: unknown; readonly annotations?: unknown }): string | undefined {
  if (typeof info.title === "string") return info.title;
  const annotations = info.annotations;
  const legacy = typeof annotations === "object" && annotations !== null ? (annotations as { title?: unknown }).title : undefined;
  return typeof legacy === "string" ? legacy : undefined;
}

/** A tool that may destroy something, by the spec's defaults: not read-only, and not said to be non-destructive. */
export function isDestructive(annotations: ToolAnnotations): boolean {
  return annotations.readOnlyHint !== true && annotations.destructiveHint !== false;
}
