// MCP both ways, with the support desk of examples/support:
//
//   1. Serving. examples/mcp/server.ts serves the desk's @tool methods over MCP (serveMcp). Here the
//      MCP SDK's own Client, as any MCP host would, launches it over stdio for customer c-42: the tool
//      list (the customerId parameter is filled from the session, so the schemas do not show it), a
//      search, an attempt to pass another customer's id (refused), a ticket closed. Then the same
//      server over Streamable HTTP in this process, where the bearer token decides the customer:
//      two customers see their own tickets, a wrong token is refused.
//   2. Using. An Agent whose tools come from two MCP servers through McpToolset: the reference
//      filesystem server (@modelcontextprotocol/server-filesystem, on a temporary notes folder) and
//      the support desk again. The model lists the folder and searches the open tickets, reads the
//      handover note, closes the ticket the note names, and answers.
//
// Every MCP server runs as a child process of this script and ends with it. No API key is needed
// (a scripted model); with OPENAI_API_KEY or OPENAI_BASE_URL set, part 2 uses a real model. Exits 0,
// or 1 if anything went wrong.
//
// Run: npm run example:mcp (builds and generates the desk's schemas first; runs the compiled .js files).
import { chooseChatGenerator } from "../shared/chooseChatGenerator";
import { runAgentOverMcp } from "./agentOverMcp";
import { scriptedMcpModel } from "./scriptedModel";
import { httpClient, stdioClient } from "./sdkClients";

function section(title: string): (line: string) => void {
  console.log(`\n== ${title}`);
  return (line) => console.log(`  ${line}`);
}

async function main(): Promise<void> {
  await stdioClient(section("1a. serving over stdio: the MCP SDK's Client launches server.js (SUPPORT_CUSTOMER_ID=c-42)"));
  await httpClient(section("1b. serving over Streamable HTTP: the customer comes from the bearer token"));
  const { chatGenerator, label } = chooseChatGenerator(scriptedMcpModel);
  await runAgentOverMcp(chatGenerator, section(`2. using: an Agent with two MCP servers' tools (model: ${label})`));
}

main().then(
  () => {
    process.exitCode = 0;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
