import { errorText } from "./mcpConnection";
import { McpServerError } from "./mcpServerError";

/** What went wrong in one call, for `mcpCallError`. */
export interface McpCallFailure {
  readonly error: unknown;
  /** The run's signal for the call (aborted: the run or the Agent's own time limit ended it). */
  readonly signal: AbortSignal;
  readonly server: string;
  readonly tool: string;
  readonly timeoutMs: number;
  readonly maxTotalTimeoutMs: number;
  /** The call ran out of `maxTotalTimeoutMs`. */
  readonly totalTimedOut: boolean;
}

// Errors of a connection that never reached the server: the request was not sent, so it did not run.
const unreachable = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/**
 * What a failed call tells the model: an abort as it is (the run or its time limit ended it), else
 * which server and tool, and what went wrong: a server that could not be reached, a time limit, a
 * dropped connection, or the server's refusal.
 */
export function mcpCallError(failure: McpCallFailure): unknown {
  const { error, signal, server, tool } = failure;
  if (signal.aborted || (error as Error)?.name === "McpToolError") return error;
  const failed = (message: string) => new McpServerError({ subject: `MCP server '${server}'`, message, cause: error });
  if (failure.totalTimedOut) {
    return failed(`MCP server '${server}' did not finish the call to '${tool}' within ${failure.maxTotalTimeoutMs} ms (maxTotalTimeoutMs), progress notwithstanding; the server was told to cancel it.`);
  }
  if (isUnreachable(error)) {
    return failed(`MCP server '${server}' could not be reached for the call to '${tool}' (${errorText(innermost(error))}); the call did not run. Check that the server is up; the next call tries again.`);
  }
  const code = (error as { code?: unknown })?.code;
  if (code === -32001) return failed(`MCP server '${server}' did not answer the call to '${tool}' within ${failure.timeoutMs} ms (timeoutMs); the server was told to cancel it.`);
  if (code === -32000) {
    return failed(`MCP server '${server}' closed the connection during the call to '${tool}'; the call may or may not have run. The next call reconnects.`);
  }
  const message = (error as Error)?.message ?? String(error);
  return failed(`MCP server '${server}' refused the call to '${tool}': ${message}`);
}

/** Whether an error (or one of its causes) says the server could not be reached at all. */
export function isUnreachable(error: unknown): boolean {
  for (let current = error, depth = 0; typeof current === "object" && current !== null && depth < 8; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && unreachable.has(code)) return true;
  }
  return false;
}

// The fetch error with its cause ("fetch failed (connect ECONNREFUSED 127.0.0.1:3001)"), under the wrappers.
function innermost(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 8; depth++) {
    const cause = (current as { cause?: unknown })?.cause;
    if (typeof cause !== "object" || cause === null || typeof (cause as { cause?: unknown }).cause !== "object") return current;
    current = cause;
  }
  return current;
}
