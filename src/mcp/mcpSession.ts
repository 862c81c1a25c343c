import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { State } from "../state/state";
import type { StateSchema } from "../state/stateSchema";
import type { ToolRunner } from "../agent/toolRunner";
import { mcpContentBlocks, mediaParts } from "./mcpContentBlocks";
import type { McpToolOutput } from "./mcpToolOutput";

/**
 * One MCP session: its own State, and its calls run by the server's ToolRunner exactly as a model's
 * calls are run in an Agent run (arguments validated against the schema the client was shown, so an
 * injected parameter is an unknown property; injected values from the session's State; outputs
 * merged into it; failures as the text a model gets, with injected values redacted). A tool with an
 * output schema also answers with `structuredContent`; a result with images or files answers with
 * `image`, `audio` and `resource` blocks (see `mcpContentBlocks`).
 */
export class McpSession<S extends StateSchema = StateSchema> {
  readonly #runner: ToolRunner<S>;
  readonly #state: State<S>;
  readonly #id: string;
  readonly #outputs: ReadonlyMap<string, McpToolOutput>;
  #calls = 0;

  constructor(runner: ToolRunner<S>, state: State<S>, id: string, outputs: ReadonlyMap<string, McpToolOutput> = new Map()) {
    this.#runner = runner;
    this.#state = state;
    this.#id = id;
    this.#outputs = outputs;
  }

  /** The session's State (what its tools' outputs were merged into). */
  get state(): State<S> {
    return this.#state;
  }

  /** Runs one `tools/call` of the session. */
  async call(name: string, args: Record<string, unknown> | undefined, signal: AbortSignal): Promise<CallToolResult> {
    const step = ++this.#calls;
    const { text, error, value, parts } = await this.#runner.call(this.#state, { name, arguments: args ?? {}, id: `mcp-${step}` }, { signal, runId: this.#id, step });
    const media = error ? undefined : (parts ?? mediaParts(value));
    if (media) {
      // structuredContent is JSON: the bytes would go into it as base64 text.
      if (this.#outputs.has(name)) return { content: [{ type: "text", text: `Tool '${name}' returned images or files, which MCP sends as content blocks and not as the structuredContent its output schema asks for; declare no output schema for a tool that returns media.` }], isError: true };
      return { content: mcpContentBlocks(media) };
    }
    const output = error ? undefined : this.#outputs.get(name);
    if (!output) return { content: [{ type: "text", text }], ...(error && { isError: true }) };
    const structured = output.structured(value);
    if (!structured.ok) return { content: [{ type: "text", text: structured.problem }], isError: true };
    return { content: [{ type: "text", text }], structuredContent: structured.content };
  }
}
