import { z } from "zod";
import { Agent, ChatMessage, type StreamingChunk } from "toolwright";
import { jsonReply, type MockReply, type MockResponse, sseReply } from "../../helpers/mockOpenAIServer";
import { responsesJson, responsesStream } from "../../helpers/mockResponses";
import { openaiStrictViolations } from "../../helpers/openaiStrictRules";
import { useMockServer } from "./openaiTestKit";
import { generatorsOn, sdkMajors } from "./sdkMajors";

const server = useMockServer();
afterEach(() => {
  expect(server.refusals).toEqual([]);
  expect(server.pending).toBe(0);
});

// Optional keys at every depth: the root, a nested object, an array of objects, a nullable array
// of objects and a recursive definition.
const category: z.ZodType<{ name: string; note?: string; children?: Array<{ name: string; note?: string }> }> = z.object({
  name: z.string(),
  note: z.string().optional(),
  get children() {
    return z.array(category).optional();
  },
});
const report = z.object({
  title: z.string().min(1).describe("A short title."),
  priority: z.enum(["low", "high"]).optional(),
  owner: z.object({ name: z.string(), email: z.string().optional() }).optional(),
  items: z.array(z.object({ sku: z.string(), qty: z.number().int().optional() })),
  related: z.array(z.object({ id: z.string(), why: z.string().optional() })).nullable(),
  category,
});

/** What a model in strict mode answers: every key present, `null` for what it leaves out. */
const strictAnswer = {
  title: "Stock",
  priority: null,
  owner: { name: "Ana", email: null },
  items: [
    { sku: "lamp", qty: null },
    { sku: "chair", qty: 2 },
  ],
  related: [{ id: "t-1", why: null }],
  category: { name: "home", note: null, children: [{ name: "lights", note: null, children: null }] },
};
const expectedOutput = {
  title: "Stock",
  owner: { name: "Ana" },
  items: [{ sku: "lamp" }, { sku: "chair", qty: 2 }],
  related: [{ id: "t-1" }],
  category: { name: "home", children: [{ name: "lights" }] },
};

const labels = z.object({ labels: z.record(z.string(), z.string()) });

const question = () => ({ messages: [ChatMessage.fromUser("Summarize the stock.")] });

/** The answer format a request carried, whichever API it went to. */
function sentFormat(body: any): { name: string; schema: Record<string, unknown>; strict: boolean } {
  return body.response_format ? body.response_format.json_schema : body.text.format;
}

describe.each(sdkMajors)("Agent with an outputSchema, through %s", (_major, Sdk) => {
  describe.each(generatorsOn(Sdk, server))("%s", (name, generator) => {
    const answer = (reply: MockReply, stream: boolean): MockResponse =>
      name === "OpenAIChatGenerator" ? (stream ? sseReply(reply) : jsonReply(reply)) : stream ? responsesStream(reply) : responsesJson(reply);

    it.each([false, true])("sends the strict form that OpenAI accepts and returns the output without the nulls (streaming: %s)", async (stream) => {
      server.enqueue(answer({ text: JSON.stringify(strictAnswer) }, stream));
      const chunks: StreamingChunk[] = [];

      const result = await new Agent({ chatGenerator: generator(), outputSchema: report }).run({ ...question(), ...(stream && { streamingCallback: (chunk: StreamingChunk) => void chunks.push(chunk) }) });

      expect(result.exitReason).toBe("text");
      expect(result.output).toEqual(expectedOutput);
      expect(report.parse(result.output)).toEqual(expectedOutput);
      const format = sentFormat(server.requests[0]!.body);
      expect(format.strict).toBe(true);
      expect(openaiStrictViolations(format.schema)).toEqual([]);
      expect(format.schema).toMatchObject({
        required: ["title", "priority", "owner", "items", "related", "category"],
        additionalProperties: false,
        properties: {
          priority: { type: ["string", "null"], enum: ["low", "high", null] },
          owner: { anyOf: [{ type: "object", properties: { name: { type: "string" }, email: { type: ["string", "null"] } }, required: ["name", "email"], additionalProperties: false }, { type: "null" }] },
        },
      });
      if (stream) expect(chunks.filter((c) => c.type === "text").map((c) => (c as { delta: string }).delta).join("")).toBe(JSON.stringify(strictAnswer));
    });

    it("sends a schema that cannot be made strict as it is, with strict: false, and validates the answer itself", async () => {
      server.enqueue(answer({ text: '{"labels":{"a":"b"}}' }, false));

      const result = await new Agent({ chatGenerator: generator(), outputSchema: labels }).run(question());

      expect(result.output).toEqual({ labels: { a: "b" } });
      const format = sentFormat(server.requests[0]!.body);
      expect(format).toMatchObject({ name: "final_output", strict: false });
      expect(format.schema).toEqual({ type: "object", properties: { labels: { type: "object", propertyNames: { type: "string" }, additionalProperties: { type: "string" } } }, required: ["labels"] });
    });

    it("sends a null that the schema itself allows through to the output", async () => {
      server.enqueue(answer({ text: '{"title":"T","items":[],"related":null,"category":{"name":"c","note":null,"children":null}}' }, false));
      const withoutOptional = report.omit({ priority: true, owner: true });

      const result = await new Agent({ chatGenerator: generator(), outputSchema: withoutOptional }).run(question());

      expect(result.output).toEqual({ title: "T", items: [], related: null, category: { name: "c" } });
    });
  });
});
