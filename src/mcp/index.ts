/**
 * MCP both ways: an MCP server's tools as a toolset (`McpToolset`), and `@tool` classes served over
 * MCP (`serveMcp`). Needs `@modelcontextprotocol/sdk` (an optional peer dependency).
 * @module toolwright/mcp
 */
export type { McpCallOptions } from "./mcpToolset";
export type { McpCallResult } from "./mcpResult";
export type { McpBinaryPart } from "./mcpBinary";
export { McpConfirmationPolicy } from "./mcpConfirmationPolicy";
export type { McpConfirm } from "./mcpConfirmationPolicy";
export { mcpToolDetails } from "./mcpToolDetails";
export type { McpToolDetails } from "./mcpToolDetails";
export type { McpLogMessage, McpWarning } from "./mcpNotices";
export { McpToolset } from "./mcpToolset";
export type { McpToolOptions, McpToolsetOptions } from "./mcpToolset";
export type { McpHttpServer, McpServerSpec, McpStdioServer } from "./mcpConnection";
export { McpToolError } from "./mcpResult";
export { McpServerError } from "./mcpServerError";
export { serveMcp } from "./serveMcp";
export { McpToolServer } from "./mcpToolServer";
export type { McpListenOptions, McpSessionContext, ServeMcpOptions } from "./serveMcp";
export type { McpCorsOptions } from "./mcpCors";
