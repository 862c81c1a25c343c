// The MCP SDK (@modelcontextprotocol/sdk, an optional peer dependency) is loaded on first use, so
// that importing toolwright/mcp costs nothing until a toolset connects or a server is served, and an
// app that never uses MCP need not install it.
import { ConfigurationError } from "../errors";

type ClientModule = typeof import("@modelcontextprotocol/sdk/client/index.js");
type StdioClientModule = typeof import("@modelcontextprotocol/sdk/client/stdio.js");
type StreamableHttpClientModule = typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js");
type SseClientModule = typeof import("@modelcontextprotocol/sdk/client/sse.js");
type ServerModule = typeof import("@modelcontextprotocol/sdk/server/index.js");
type StdioServerModule = typeof import("@modelcontextprotocol/sdk/server/stdio.js");
type StreamableHttpServerModule = typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js");
type TypesModule = typeof import("@modelcontextprotocol/sdk/types.js");

const paths = {
  client: "@modelcontextprotocol/sdk/client/index.js",
  stdioClient: "@modelcontextprotocol/sdk/client/stdio.js",
  streamableHttpClient: "@modelcontextprotocol/sdk/client/streamableHttp.js",
  sseClient: "@modelcontextprotocol/sdk/client/sse.js",
  server: "@modelcontextprotocol/sdk/server/index.js",
  stdioServer: "@modelcontextprotocol/sdk/server/stdio.js",
  streamableHttpServer: "@modelcontextprotocol/sdk/server/streamableHttp.js",
  types: "@modelcontextprotocol/sdk/types.js",
} as const;

interface Modules {
  client: ClientModule;
  stdioClient: StdioClientModule;
  streamableHttpClient: StreamableHttpClientModule;
  sseClient: SseClientModule;
  server: ServerModule;
  stdioServer: StdioServerModule;
  streamableHttpServer: StreamableHttpServerModule;
  types: TypesModule;
}

/** One module of the MCP SDK, loaded on first use; a missing SDK is a ConfigurationError that says what to install. */
export function mcpSdk<K extends keyof Modules>(part: K, subject: string): Modules[K] {
  try {
    return require(paths[part]) as Modules[K];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw error;
    throw new ConfigurationError(subject, `${subject} needs the MCP SDK: npm install @modelcontextprotocol/sdk (version 1.x), an optional peer dependency of toolwright.`, { cause: error });
  }
}
