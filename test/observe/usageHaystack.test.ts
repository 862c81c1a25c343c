// What Haystack main reports as run metadata (haystack/components/agents/utils.py _record_llm_usage
// and _record_tool_calls at c7cb46c0f2): token usage summed from each reply's meta["usage"] (the
// snake_case names its generators write) and a count of calls per tool name. toolwright reports the
// same in result.usage.
import { Agent, type AgentSnapshot, ChatMessage, Tool, type ToolCall } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";

const call = (id: string, toolName: string): ToolCall => ({ id, toolName, arguments: { city: "Oslo" } });

const weather = new Tool({
  name: "get_weather",
  description: "Current weather of a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  function: (args) => `Sunny in ${String(args.city)}`,
});

describe("usage of a Haystack-style generator", () => {
  it("sums a reply's meta.usage in OpenAI's snake_case names, as Haystack's token_usage does", async () => {
    const chatGenerator = new ScriptedChatGenerator([
      ChatMessage.fromAssistant(undefined, { toolCalls: [call("c1", "get_weather")], meta: { usage: { prompt_tokens: 30, completion_tokens: 7, total_tokens: 37, completion_tokens_details: { reasoning_tokens: 2 } } } }),
      ChatMessage.fromAssistant("Sunny.", { meta: { usage: { input_tokens: 50, output_tokens: 4 } } }),
    ]);
    const result = await new Agent({ chatGenerator, tools: [weather] }).run({ messages: [ChatMessage.fromUser("Weather?")] });
    expect(result.usage).toEqual({ inputTokens: 80, outputTokens: 11, totalTokens: 91, modelCalls: 2, toolCalls: 1, failedToolCalls: 0, toolCallsByName: { get_weather: 1 } });
  });

  it("counts calls by the name the model asked for, unknown names too, cutting one longer than any tool name", async () => {
    const long = "x".repeat(500);
    const chatGenerator = new ScriptedChatGenerator([
      ChatMessage.fromAssistant(undefined, { toolCalls: [call("c1", "get_weather"), call("c2", "get_weather"), call("c3", "nope"), call("c4", long)] }),
      ChatMessage.fromAssistant("Done."),
    ]);
    const result = await new Agent({ chatGenerator, tools: [weather] }).run({ messages: [ChatMessage.fromUser("Weather?")] });
    expect(result.usage.toolCallsByName).toEqual({ get_weather: 2, nope: 1, [`${"x".repeat(64)}…`]: 1 });
    expect(result.usage.failedToolCalls).toBe(2);
  });

  it("reads a snapshot written before per-tool counts as none, and counts on from there", async () => {
    const chatGenerator = new ScriptedChatGenerator([ChatMessage.fromAssistant(undefined, { toolCalls: [call("c1", "get_weather")] }), ChatMessage.fromAssistant("Sunny."), ChatMessage.fromAssistant(undefined, { toolCalls: [call("c2", "get_weather")] }), ChatMessage.fromAssistant("Sunny.")]);
    const agent = new Agent({ chatGenerator, tools: [weather] });
    const stopped = await agent.run({ messages: [ChatMessage.fromUser("Weather?")], breakpoint: { at: "chat_generator", visit: 1 } }).catch((error: { snapshot: AgentSnapshot }) => error.snapshot);
    const { toolCallsByName, ...older } = (stopped as AgentSnapshot).usage!;
    expect(toolCallsByName).toEqual({ get_weather: 1 });
    const resumed = await agent.run({ snapshot: { ...(stopped as AgentSnapshot), usage: older as AgentSnapshot["usage"] } });
    expect(resumed.usage).toMatchObject({ toolCalls: 1, toolCallsByName: {} });
  });
});
