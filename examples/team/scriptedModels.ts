import { ChatMessage, type ChatGeneratorRequest, type ToolCall } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";

const calls = (...toolCalls: ToolCall[]) => ChatMessage.fromAssistant(undefined, { toolCalls });
const json = (value: unknown) => ChatMessage.fromAssistant(JSON.stringify(value));

/**
 * A scripted model that answers from the conversation, not from a position in a script: a run
 * resumed in another process (with a fresh model) gets the same answers.
 */
function ruleModel(answer: (request: ChatGeneratorRequest, lastTool: string | undefined) => ChatMessage): ScriptedChatGenerator {
  const rule = (request: ChatGeneratorRequest) => answer(request, request.messages.at(-1)?.toolCallResult?.origin.toolName);
  return new ScriptedChatGenerator(Array.from({ length: 10 }, () => rule));
}

/** The coordinator: asks research, then the writer, then answers with the typed report. */
export function scriptedCoordinator(): ScriptedChatGenerator {
  return ruleModel((request, lastTool) => {
    if (lastTool === undefined) return calls({ id: "co1", toolName: "research", arguments: { input: "Find how efficient heat pumps are, also in cold weather, compared with gas boilers." } });
    const result = request.messages.at(-1)!.toolCallResult!.result;
    if (lastTool === "research") return calls({ id: "co2", toolName: "write", arguments: { input: `Write a short article for homeowners from these findings: ${result}` } });
    const article = JSON.parse(result) as { title: string };
    return json({ title: article.title, summary: "Heat pumps deliver 2-3 units of heat per unit of electricity, even in cold weather; gas boilers about 0.9.", published: true });
  });
}

/** The research agent: one search, then its findings as JSON. */
export function scriptedResearcher(): ScriptedChatGenerator {
  return ruleModel((_request, lastTool) =>
    lastTool === undefined
      ? calls({ id: "re1", toolName: "search", arguments: { query: "heat pumps cold boilers" } })
      : json({
          findings: ["A heat pump delivers about three units of heat per unit of electricity.", "Cold-climate models keep a COP above 2 down to -15 °C.", "A gas boiler turns about 90% of its fuel into heat."],
          sourceCount: 3,
        }),
  );
}

/** The writer: publishes (a person confirms), then returns the article as JSON. */
export function scriptedWriter(): ScriptedChatGenerator {
  const article = { title: "Is a heat pump worth it?", body: "A heat pump moves heat instead of burning fuel: about three units of heat for each unit of electricity, and above two even at -15 °C. A gas boiler gets 0.9." };
  return ruleModel((_request, lastTool) => (lastTool === undefined ? calls({ id: "wr1", toolName: "publish", arguments: article }) : json(article)));
}
