import { ChatMessage } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";

/** Stands in for a real model offline: searches twice (overlapping hits), notes two findings, answers. */
export function scriptedResearchModel(): ScriptedChatGenerator {
  return new ScriptedChatGenerator([
    ChatMessage.fromAssistant(undefined, {
      toolCalls: [
        { id: "s1", toolName: "search", arguments: { query: "heat pump efficiency" } },
        { id: "s2", toolName: "search", arguments: { query: "heat pumps cold climate", limit: 2 } },
      ],
    }),
    ChatMessage.fromAssistant(undefined, {
      toolCalls: [
        { id: "n1", toolName: "take_note", arguments: { finding: "Heat pumps deliver about three units of heat per unit of electricity.", citations: ["https://example.org/heat-pumps"] } },
        { id: "n2", toolName: "take_note", arguments: { finding: "Cold-climate models keep a COP above 2 down to -15 °C.", citations: ["https://example.org/cold-climates"] } },
      ],
    }),
    ChatMessage.fromAssistant(
      "A heat pump delivers 2–3 units of heat per unit of electricity even in cold weather, against about 0.9 for a gas boiler (sources: example.org/heat-pumps, example.org/cold-climates).",
    ),
  ]);
}
