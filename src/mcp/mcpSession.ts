import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { State } from "../state/state";
import { invokeTools } from "../tools/invokeTools";
import type { Tool } from "../tools/tool";
import { RunAbort } from "../util/runAbort";
import { Semaphore } from "../util/semaphore";

/**
 * One MCP session's calls on its own State. A call runs exactly as a model's call does in a run:
 * arguments validated against the schema the client was shown (so an injected parameter is an
 * unknown property), injected values filled from the session's State, outputs merged into it, and
 * failures turned into the same text the model gets, with injected values redacted. Calls of tools
 * that read or write State run one at a time; the others run side by side.
 */
export class McpSession {
  readonly #tools: ReadonlyMap<string, Tool>;
  readonly #state: State;
  readonly #id: string;
  readonly #timeoutMs: number | undefined;
  readonly #stateCalls = new Semaphore(1);
  #calls = 0;

  constructor(tools: ReadonlyMap<string, Tool>, state: State, id: string, timeoutMs: number | undefined) {
    this.#tools = tools;
    this.#state = state;
    this.#id = id;
    this.#timeoutMs = timeoutMs;
  }

  /** The session's State (what its tools' outputs were merged into). */
  get state(): State {
    return this.#state;
  }

  async call(name: string, args: Record<string, unknown> | undefined, signal: AbortSignal): Promise<CallToolResult> {
    const tool = this.#tools.get(name);
    const usesState = tool !== undefined && (tool.usesState || Object.keys(tool.inputsFromState).length > 0 || Object.keys(tool.outputsToState).length > 0);
    const release = usesState ? await this.#stateCalls.acquire() : undefined;
    const step = ++this.#calls;
    const id = `mcp-${step}`;
    const abort = new RunAbort(signal);
    try {
      const [outcome] = await invokeTools(
        [{ id, toolName: name, arguments: args ?? {} }],
        { tools: this.#tools, state: this.#state, abort, concurrency: 1, raiseOnFailure: false, ...(this.#timeoutMs !== undefined && { timeoutMs: this.#timeoutMs }) },
        { runId: () => this.#id, step, keys: [id] },
      );
      const result = outcome!.message.toolCallResults[0]!;
      return { content: [{ type: "text", text: result.result }], ...(result.error && { isError: true }) };
    } finally {
      abort.dispose();
      release?.();
    }
  }
}
