// Part 1 of the MCP example: the support desk's server (./server.ts) as any MCP client sees it. This
// is the MCP SDK's own Client, not toolwright: what an IDE or a desktop assistant would do.
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { supportServer } from "./server";

type Say = (line: string) => void;

/** The text of a tools/call result, marked when the server flagged it as an error. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? `[${part.type}]`).join("\n");
  return result.isError ? `isError: ${text}` : text;
}

/** Launches server.js over stdio for customer c-42: lists the tools, searches, tries another customer's id, closes a ticket. */
export async function stdioClient(say: Say): Promise<void> {
  const client = new Client({ name: "mcp-example", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [join(__dirname, "server.js")], env: { SUPPORT_CUSTOMER_ID: "c-42" } }),
  );
  try {
    say(`connected to '${client.getServerVersion()?.name}' over stdio; it says: ${client.getInstructions()}`);
    const { tools } = await client.listTools();
    for (const tool of tools) say(`tool ${tool.name}: ${JSON.stringify(tool.inputSchema)}`);
    say(`  (no customerId: it is filled from the session, which SUPPORT_CUSTOMER_ID set when the host launched the server)`);

    say(`search_tickets {"query":"open"} → ${await call(client, "search_tickets", { query: "open" })}`);
    say(`search_tickets {"query":"open","customerId":"c-7"} → ${await call(client, "search_tickets", { query: "open", customerId: "c-7" })}`);
    say(`close_ticket {"ticketId":"T-3"} (c-7's ticket) → ${await call(client, "close_ticket", { ticketId: "T-3" })}`);
    say(`close_ticket {"ticketId":"T-2"} → ${await call(client, "close_ticket", { ticketId: "T-2" })}`);
  } finally {
    await client.close(); // ends the server's process too
  }
}

/** Opens a Streamable HTTP session with a bearer token; the token decides the customer. */
async function httpSession(url: string, token: string): Promise<Client> {
  const client = new Client({ name: "mcp-example", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/** Serves the same tools over Streamable HTTP in this process; two customers' sessions, and a wrong token. */
export async function httpClient(say: Say): Promise<void> {
  const { url, close } = await supportServer.listen();
  say(`supportServer.listen() → ${url}`);
  try {
    for (const token of ["token-c42", "token-c7"]) {
      const client = await httpSession(url, token);
      say(`Bearer ${token}: search_tickets {"query":"open"} → ${await call(client, "search_tickets", { query: "open" })}`);
      await client.close();
    }
    const refused = await httpSession(url, "token-stolen").then(
      async (client) => void (await client.close()),
      (error: unknown) => error as Error,
    );
    if (!refused) throw new Error("a session with a wrong token was accepted");
    say(`Bearer token-stolen: refused: ${refused.message}`);
  } finally {
    await close();
  }
}
