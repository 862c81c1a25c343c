import type { Tool } from "../tools/tool";

/** What an MCP server says a tool does (its `annotations`): hints, from a server you may not trust. */
export interface McpToolAnnotations {
  /** A name for people. */
  readonly title?: string;
  /** The tool changes nothing (the spec's default: false). */
  readonly readOnlyHint?: boolean;
  /** A change it makes may destroy something, not only add (default: true; meaningful when not read-only). */
  readonly destructiveHint?: boolean;
  /** Calling it again with the same arguments changes nothing more (default: false). */
  readonly idempotentHint?: boolean;
  /** It reaches outside the server's own world, such as the web (default: true). */
  readonly openWorldHint?: boolean;
}

/** What an McpToolset kept of a server's tool beyond its name, description and schema. */
export interface McpToolDetails {
  /** The server's name for the tool (the model's may have a prefix and `_` for other characters). */
  readonly serverToolName: string;
  /** The tool's `title` (or `annotations.title`). */
  readonly title: string | undefined;
  /** The server's annotations, only those of the documented kinds (booleans and a string title). */
  readonly annotations: McpToolAnnotations;
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

/** The annotations of a listed tool, keeping only values of the documented types. */
export function readAnnotations(annotations: unknown): McpToolAnnotations {
  const given = (typeof annotations === "object" && annotations !== null ? annotations : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (typeof given.title === "string") out.title = given.title;
  for (const key of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
    if (typeof given[key] === "boolean") out[key] = given[key];
  }
  return out as McpToolAnnotations;
}

/** A tool that may destroy something, by the spec's defaults: not read-only, and not said to be non-destructive. */
export function isDestructive(annotations: McpToolAnnotations): boolean {
  return annotations.readOnlyHint !== true && annotations.destructiveHint !== false;
}
