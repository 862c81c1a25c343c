import type { StateSchema } from "../state/stateSchema";
import { McpToolServer } from "./mcpToolServer";
import type { ServeMcpOptions } from "./serveMcpOptions";

export type { McpListenOptions, McpSessionContext, ServeMcpOptions } from "./serveMcpOptions";

/**
 * Serves tools over MCP, with the schemas the model would see: parameters filled from State stay
 * out of them, and a client can no more set one than a model can. Each session gets its own State.
 * Tools list their output schema (from the method's return type), title and annotations, and
 * answer with `structuredContent`.
 *
 * @example
 * const server = serveMcp({ tools: [new SupportTools(store)], stateSchema, authenticate: userOf, session: ({ principal }) => ({ customer_id: principal }) });
 * await server.connectStdio();                  // as a process an MCP host launches
 * const { url } = await server.listen({ port: 3001 }); // or over Streamable HTTP
 */
export function serveMcp<S extends StateSchema = {}>(options: ServeMcpOptions<S>): McpToolServer<S> {
  return new McpToolServer(options);
}
