import { Tool } from "toolwright";

/** The trivial tool of the mcp section, called in process and through MCP. */
export function echoTool(): Tool {
  return new Tool({
    name: "echo",
    description: "Echo the text back.",
    parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    function: ({ text }) => text,
  });
}
