import { Agent, type ChatGenerator, ChatMessage, type StreamingCallback, type StreamingChunk, Tool } from "toolwright";
import { AISdkChatGenerator } from "toolwright/ai-sdk";
import { ScriptedChatGenerator } from "toolwright/testing";
import { generated, scriptedModel, toolCallPart } from "../aisdk/aiSdkTestKit";
import { generatorOn, responsesGeneratorOn, useMockServer } from "./openai/openaiTestKit";
import { sseReply } from "../helpers/mockOpenAIServer";
import { responsesStream } from "../helpers/mockResponses";

// A streaming callback's return value is awaited only when it is a thenable: `chunks.push(c)`
// returns a number, `res.write(...)` a boolean, and neither may end the run (issue #25, item 1).
const server = useMockServer();

function searchTool(ran: string[]): Tool {
  return new Tool({
    name: "search",
    description: "Search documents.",
    parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    function: ({ query }) => (ran.push(String(query)), `results for ${String(query)}`),
  });
}

const generators: Array<[string, () => ChatGenerator]> = [
  ["ScriptedChatGenerator", () => new ScriptedChatGenerator([ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c1", toolName: "search", arguments: { query: "lamps" } }] }), ChatMessage.fromAssistant("Lamps are in stock.")])],
  [
    "OpenAIChatGenerator",
    () => {
      server.enqueue(sseReply({ toolCalls: [{ id: "c1", name: "search", arguments: '{"query":"lamps"}' }] }), sseReply({ text: "Lamps are in stock." }));
      return generatorOn(server);
    },
  ],
  [
    "OpenAIResponsesChatGenerator",
    () => {
      server.enqueue(responsesStream({ toolCalls: [{ id: "c1", name: "search", arguments: '{"query":"lamps"}' }] }), responsesStream({ text: "Lamps are in stock." }));
      return responsesGeneratorOn(server);
    },
  ],
  ["AISdkChatGenerator", () => new AISdkChatGenerator({ model: scriptedModel([generated([toolCallPart("c1", "search", { query: "lamps" })]), generated([{ type: "text", text: "Lamps are in stock." }])]) })],
];

// Callbacks as people write them, each returning something other than a promise.
const everydayCallbacks: Array<[string, (chunks: StreamingChunk[]) => StreamingCallback]> = [
  ["returns a number (chunks.push)", (chunks) => (chunk) => chunks.push(chunk)],
  ["returns a boolean (like res.write)", (chunks) => (chunk) => (chunks.push(chunk), true)],
  ["returns an object whose then is not a function", (chunks) => (chunk) => (chunks.push(chunk), { then: "not a function" })],
  ["returns null", (chunks) => (chunk) => (chunks.push(chunk), null)],
];

describe("StreamingCallback", () => {
  describe.each(generators)("with %s", (_, makeGenerator) => {
    it.each(everydayCallbacks)("finishes the run when the callback %s, and sends every chunk", async (__, makeCallback) => {
      const chunks: StreamingChunk[] = [];
      const ran: string[] = [];
      const agent = new Agent({ chatGenerator: makeGenerator(), tools: [searchTool(ran)], streamingCallback: makeCallback(chunks) });

      const result = await agent.run({ messages: [ChatMessage.fromUser("Lamps?")] });

      expect(result.lastMessage.text).toBe("Lamps are in stock.");
      expect(ran).toEqual(["lamps"]);
      expect(chunks.filter((chunk) => chunk.type === "toolResult").map((chunk) => chunk.type === "toolResult" && chunk.result.result)).toEqual(["results for lamps"]);
      expect(chunks.filter((chunk) => chunk.type === "text").map((chunk) => (chunk.type === "text" ? chunk.delta : "")).join("")).toBe("Lamps are in stock.");
      expect(chunks.at(-1)).toEqual({ type: "finish", finishReason: "stop" });
    });

    it("waits for a thenable that is not a Promise before the next chunk", async () => {
      const order: string[] = [];
      let open = 0;
      const callback: StreamingCallback = (chunk) => ({
        then(resolve: (value: unknown) => void) {
          open++;
          setTimeout(() => {
            order.push(`${chunk.type}:${open}`);
            open--;
            resolve(undefined);
          }, 1);
        },
      });
      const agent = new Agent({ chatGenerator: makeGenerator(), tools: [searchTool([])], streamingCallback: callback });

      await agent.run({ messages: [ChatMessage.fromUser("Lamps?")] });

      expect(order.length).toBeGreaterThan(3);
      expect(order.every((entry) => entry.endsWith(":1"))).toBe(true);
      expect(order.at(-1)).toBe("finish:1");
    });
  });
});
