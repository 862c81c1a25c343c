import type { ValidateFunction } from "ajv/dist/2020";
import { ConfigurationError } from "../errors";
import { toJsonValue } from "../state/jsonCodec";
import { compileJsonSchema, problemsFromAjv } from "../tools/argumentValidator";
import type { JsonSchema } from "../tools/jsonSchema";
import type { Tool } from "../tools/tool";
import { limits } from "../util/limits";

/**
 * A tool's MCP `outputSchema` and how its results become `structuredContent`. MCP wants an object
 * schema: a tool that returns an object lists its own schema; any other return type (a string, an
 * array, a union, a nullable object) is listed as `{ result: <schema> }`, and its value sent as `{ result: value }`.
 */
export class McpToolOutput {
  /** The schema clients are shown: always `type: "object"`. */
  readonly schema: JsonSchema;
  readonly #toolName: string;
  readonly #wrapped: boolean;
  readonly #validate: ValidateFunction;

  /** Undefined for a tool with no `outputSchema`. Throws `ConfigurationError` when it is not a valid JSON Schema. */
  static of(tool: Tool): McpToolOutput | undefined {
    return tool.outputSchema === undefined ? undefined : new McpToolOutput(tool.name, tool.outputSchema);
  }

  private constructor(toolName: string, returned: JsonSchema) {
    this.#toolName = toolName;
    this.#wrapped = returned.type !== "object";
    this.schema = this.#wrapped ? wrap(returned) : returned;
    try {
      this.#validate = compileJsonSchema(this.schema);
    } catch (error) {
      throw new ConfigurationError(`Tool '${toolName}'`, `Tool '${toolName}' has an outputSchema that is not a valid JSON Schema: ${(error as Error).message}. Fix the schema, or leave outputSchema out.`, { cause: error });
    }
  }

  /**
   * The `structuredContent` of a value the tool returned (its JSON form: Dates as ISO strings,
   * `undefined` as null), or why it cannot be sent: no JSON form, or not what the schema says.
   */
  structured(value: unknown): { readonly ok: true; readonly content: Record<string, unknown> } | { readonly ok: false; readonly problem: string } {
    let json: unknown;
    try {
      json = toJsonValue(value === undefined ? null : value, this.#wrapped ? ["result"] : [], "return plain data");
    } catch (error) {
      return { ok: false, problem: `Tool '${this.#toolName}' returned a value with no JSON form for its structuredContent: ${(error as Error).message}` };
    }
    const content = (this.#wrapped ? { result: json } : json) as Record<string, unknown>;
    if (this.#validate(content)) return { ok: true, content };
    const problems = problemsFromAjv(this.#validate.errors ?? []);
    const shown = problems.slice(0, limits.maxListedProblems).map((p) => `${p.path === "(root)" ? "the value" : p.path} ${p.message}`);
    if (problems.length > shown.length) shown.push(`and ${problems.length - shown.length} more problems`);
    return { ok: false, problem: `Tool '${this.#toolName}' returned a value that does not match its output schema: ${shown.join("; ")}. Fix the tool or its declared return type.` };
  }
}

// `{ result: T }`, with T's $defs moved to the root so that its `#/$defs/…` references still resolve.
function wrap(returned: JsonSchema): JsonSchema {
  const { $defs, ...result } = returned;
  return { type: "object", properties: { result }, required: ["result"], additionalProperties: false, ...($defs !== undefined && { $defs }) };
}
