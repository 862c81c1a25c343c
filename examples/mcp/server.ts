// The support desk's tools served over MCP, for any MCP client (an IDE, a desktop assistant, another
// agent framework): the same @tool methods, with the schemas `toolwright codegen` generated. The
// customer is the session's, never the client's: over stdio it comes from the environment the host
// launched the server with (SUPPORT_CUSTOMER_ID); over HTTP from the bearer token, checked on every
// request. The client can no more set it than a model can.
//
// Run: node dist/examples/mcp/server.js            (stdio: what an MCP host launches)
//      node dist/examples/mcp/server.js --http     (Streamable HTTP on a free port; prints the URL)
import "../support/tools.generated";
import { serveMcp } from "toolwright/mcp";
import { supportState, SupportTools } from "../support/supportTools";
import { demoStore } from "../support/ticketStore";

// A stand-in for your token check: which customer a bearer token belongs to.
const customersByToken: Readonly<Record<string, string>> = { "token-c42": "c-42", "token-c7": "c-7" };

export const supportServer = serveMcp({
  name: "support-desk",
  version: "1.0.0",
  instructions: "Look up and close the signed-in customer's support tickets.",
  tools: [new SupportTools(demoStore())],
  stateSchema: supportState,
  // Over HTTP, every request names its customer: a session id alone is not enough, and a request
  // with another customer's token cannot use this customer's session.
  authenticate: (request) => {
    const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? "")?.[1];
    const customer = token !== undefined && Object.hasOwn(customersByToken, token) ? customersByToken[token] : undefined;
    if (customer === undefined) throw new Error("send Authorization: Bearer <token> of a customer");
    return customer;
  },
  session: ({ transport, principal }) => {
    if (transport === "streamable-http") return { customer_id: principal! };
    const customer = process.env.SUPPORT_CUSTOMER_ID;
    if (!customer) throw new Error("set SUPPORT_CUSTOMER_ID to the customer this server acts for");
    return { customer_id: customer };
  },
});

if (require.main === module) {
  if (process.argv.includes("--http")) {
    void supportServer.listen({ port: Number(process.env.PORT ?? 0) }).then(({ url, close }) => {
      console.log(`MCP over Streamable HTTP at ${url}`);
      process.once("SIGTERM", () => void close().then(() => process.exit(0)));
    });
  } else {
    // stdout carries the protocol: nothing else may be printed there.
    supportServer.connectStdio().catch((error: unknown) => {
      console.error(`support-desk MCP server: ${(error as Error).message}`);
      process.exit(1);
    });
  }
}
