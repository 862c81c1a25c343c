export { McpToolset } from "./mcpToolset";
export type { McpToolOptions, McpToolsetOptions } from "./mcpToolset";
export type { McpHttpServer, McpServerSpec, McpStdioServer } from "./mcpConnection";
export { McpToolError } from "./mcpResult";
export { McpToolServer, serveMcp } from "./serveMcp";
export type { McpListenOptions, McpSessionContext, ServeMcpOptions } from "./serveMcp";
