export { McpToolset } from "./mcpToolset";
export type { McpToolOptions, McpToolsetOptions } from "./mcpToolset";
export type { McpHttpServer, McpServerSpec, McpStdioServer } from "./mcpConnection";
export { McpToolError } from "./mcpResult";
export { serveMcp } from "./serveMcp";
export { McpToolServer } from "./mcpToolServer";
export type { McpListenOptions, McpSessionContext, ServeMcpOptions } from "./serveMcp";
export type { McpCorsOptions } from "./mcpCors";
