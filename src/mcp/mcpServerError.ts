import { ProviderError } from "../errors";

/**
 * An MCP server could not be reached, connected to or read, or a call to one of its tools did not
 * complete (a time limit, a dropped connection, a refusal): thrown by `McpToolset.connect` and
 * `refresh`, and the error of a failed call (the `cause` of a `ToolInvocationError`).
 */
export class McpServerError extends ProviderError {
  /** Who failed, as the message names it: `McpToolset 'fs'`, `MCP server 'fs'`. */
  readonly subject: string;

  constructor(options: { readonly subject: string; readonly message: string; readonly cause?: unknown }) {
    super(options.message, Object.hasOwn(options, "cause") ? { cause: options.cause } : undefined);
    this.subject = options.subject;
  }
}
