import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { Tool } from "../tools/tool";
import type { McpToolOutput } from "./mcpToolOutput";

/**
 * How `tools/list` shows a tool: its name, `title`, description, the input schema the model would
 * see, the output schema (see `McpToolOutput`) and its annotations. The title is also put in
 * `annotations.title`, where clients of protocol versions before 2025-06-18 look for it.
 */
export function mcpToolListing(tool: Tool, output: McpToolOutput | undefined): McpTool {
  const annotations = tool.title !== undefined || tool.annotations !== undefined ? { ...(tool.title !== undefined && { title: tool.title }), ...tool.annotations } : undefined;
  return {
    name: tool.name,
    ...(tool.title !== undefined && { title: tool.title }),
    description: tool.description,
    inputSchema: tool.parameters as McpTool["inputSchema"],
    ...(output !== undefined && { outputSchema: output.schema as McpTool["outputSchema"] }),
    ...(annotations !== undefined && { annotations }),
  };
}
