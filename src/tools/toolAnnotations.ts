import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";

/**
 * Hints about what a tool does, for clients that show tools to people or decide how to run them
 * (MCP's `ToolAnnotations`). They are hints, never enforced: a client must not trust them from a
 * server it does not trust.
 */
export interface ToolAnnotations {
  /** The tool changes nothing (MCP default false). */
  readonly readOnlyHint?: boolean;
  /** A tool that changes something may destroy or overwrite data (MCP default true); meaningless for a read-only tool. */
  readonly destructiveHint?: boolean;
  /** Calling it again with the same arguments has no further effect (MCP default false). */
  readonly idempotentHint?: boolean;
  /** It reaches outside the server's own data: the web, other services (MCP default true). */
  readonly openWorldHint?: boolean;
}

/** The names of the annotation hints, in the order they are listed. */
export const toolAnnotationNames: ReadonlyArray<keyof ToolAnnotations> = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

/**
 * Checks the `annotations` option of a tool: an object of boolean hints, with no unknown key and
 * not both read-only and destructive. Returns a frozen copy; throws `ConfigurationError` naming `subject`.
 */
export function checkToolAnnotations(subject: string, value: unknown): Readonly<ToolAnnotations> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigurationError(subject, `${subject} has annotations that are not an object of boolean hints (${toolAnnotationNames.join(", ")}), got ${describeKind(value)}.`);
  }
  const known = new Set<string>(toolAnnotationNames);
  for (const [key, hint] of Object.entries(value)) {
    if (!known.has(key)) throw new ConfigurationError(subject, `${subject} has an unknown annotation '${key}'; the annotations are ${toolAnnotationNames.join(", ")}.`);
    if (typeof hint !== "boolean") throw new ConfigurationError(subject, `${subject} has annotations.${key} that is not a boolean, got ${describeKind(hint)}.`);
  }
  const annotations = value as ToolAnnotations;
  if (annotations.readOnlyHint === true && annotations.destructiveHint === true) {
    throw new ConfigurationError(subject, `${subject} has annotations readOnlyHint and destructiveHint both true; a read-only tool changes nothing, so drop one of them.`);
  }
  return Object.freeze({ ...annotations });
}

/** Checks the `title` option of a tool: a non-empty string of one line. Throws `ConfigurationError` naming `subject`. */
export function checkToolTitle(subject: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (!isToolTitle(value)) {
    throw new ConfigurationError(subject, `${subject} has a title that is not a non-empty line of text, got ${describeKind(value)}.`);
  }
  return value;
}

/** Whether a value can be a tool's title: a non-empty line of text. */
export function isToolTitle(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "" && !/[\r\n]/.test(value);
}
