// An MCP client is as hostile as a model: the guarded tools served with serveMcp over Streamable HTTP,
// called by the MCP SDK's own Client with generated arguments. The session's injected owner must
// reach `transfer` from the session's State only, never leak into a result, and no call may crash
// the session.
import fc from "fast-check";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type McpToolServer, serveMcp } from "toolwright/mcp";
import { fuzzParameters, fuzzRuns, fuzzTimeout } from "./fuzzSettings";
import { accepted, argumentsObject, secret } from "./hostileInput";
import { type Execution, guardedState, guardedTools, hasOnlyPlainPrototypes } from "./securityAgent";

const { Client: McpClient } = require("@modelcontextprotocol/sdk/client/index.js") as typeof import("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js") as typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js");

const log: Execution[] = [];
let server: McpToolServer<typeof guardedState>;
let client: Client;

beforeAll(async () => {
  server = serveMcp({ tools: guardedTools(log), stateSchema: guardedState, session: () => ({ owner: secret }) });
  const { url } = await server.listen();
  client = new McpClient({ name: "hostile", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

const hostileCall = fc.oneof(
  fc.record({
    name: fc.constantFrom("transfer", "lookup", "save_profile", "toString", "__proto__", "constructor", "nope"),
    arguments: argumentsObject,
  }),
  // Well-formed transfers, some of which try to name the owner themselves.
  fc.record({
    name: fc.constant("transfer"),
    arguments: fc.record({ to: fc.string({ minLength: 1, maxLength: 8 }), amount: fc.nat(), owner: fc.constantFrom("eve", secret) }, { requiredKeys: ["to", "amount"] }),
  }),
);
let executed = 0;

describe("hostile MCP client", () => {
  const runs = fuzzRuns(100);

  it(
    `never reaches a tool with arguments its schema rejects, never sets the injected owner, never leaks it, never breaks the session (${runs} cases)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(hostileCall, { minLength: 1, maxLength: 4 }), async (calls) => {
          log.length = 0;
          for (const call of calls) {
            const result = await client.callTool({ name: call.name, arguments: call.arguments as Record<string, unknown> });
            expect(JSON.stringify(result)).not.toContain(secret.slice(0, 12));
          }
          executed += log.length;
          for (const execution of log) {
            expect(accepted(execution)).toBe(true);
            expect(hasOnlyPlainPrototypes(execution.args)).toBe(true);
          }
          expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["transfer", "lookup", "save_profile"]);
        }),
        fuzzParameters(runs),
      );
      // The property is not vacuous: transfers did run, each with the session's owner.
      expect(executed).toBeGreaterThan(0);
    },
    fuzzTimeout(runs, 60),
  );

  it("shows the client the schemas without the injected owner", async () => {
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === "transfer")!.inputSchema).toEqual({
      type: "object",
      properties: { to: { type: "string", minLength: 1 }, amount: { type: "number", minimum: 0 }, memo: { type: "string" } },
      required: ["to", "amount"],
      additionalProperties: false,
    });
  });
});
