// The code of docs/haystack.md; test/docs/guideExamples.test.ts runs it.
import assert from "node:assert/strict";
// #region imports
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { Agent, ChatMessage, mergeLists, promptTemplate, State } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { importHaystackAgent } from "toolwright/yaml";
// #endregion

/** Converts the Agent YAML Haystack main wrote, reads messages and a State that Haystack wrote, and runs an Agent whose prompt is a {% message %} block. */
export async function run(): Promise<void> {
  // #region json
  // Any form Haystack's ChatMessage.from_dict reads: the current one, pre-2.9's content string,
  // 2.9–2.12's _role/_content, pydantic's model_dump.
  const history = [
    { role: "user", content: "Which rivers cross Vienna?", meta: {} },
    { _role: "assistant", _content: [{ text: "The Danube and the Wien." }], _meta: {} },
  ].map((dict) => ChatMessage.fromJSON(dict));

  // Haystack's State.to_dict(): the values are read against this schema; handlers come from it too.
  const schema = { topics: { type: z.array(z.string()), handler: mergeLists } };
  const state = State.fromJSON(schema, {
    schema: { topics: { type: "list[str]", handler: "haystack.components.agents.state.state_utils.merge_lists" } },
    data: { serialization_schema: { type: "object", properties: { topics: { type: "array", items: { type: "string" } } } }, serialized_data: { topics: ["rivers"] } },
  });
  // #endregion

  // #region prompt
  const agent = new Agent({
    chatGenerator: new ScriptedChatGenerator([ChatMessage.fromAssistant("The Danube is longer.")]),
    systemPrompt: promptTemplate("You answer questions about {{ topic }}."), // a plain string stays literal
    userPrompt: promptTemplate(`{% message role="user" name="ada" %}
      Which of them is longer, {{ name }} asks?
    {% endmessage %}`),
  });
  const result = await agent.run({ messages: history, promptVariables: { topic: "rivers", name: "Ada" } });
  // #endregion

  // #region import
  const yaml = readFileSync(join(__dirname, "haystack-agent.yaml"), "utf8");
  const { definition, toolsModule, handWork } = importHaystackAgent(yaml, { file: "haystack-agent.yaml" });
  // definition: the toolwright definition (write it as YAML or JSON for loadAgent);
  // toolsModule: tools.ts, the @tool stubs; handWork: what to port, each with its line and column.
  const report = handWork.map((item) => `haystack-agent.yaml:${item.line}:${item.column} [${item.kind}] ${item.message}`);
  // #endregion

  assert.deepEqual(definition.exitConditions, ["text", "finish"]);
  assert.deepEqual(definition.budget, { maxTotalTokens: 5000 });
  assert.match(toolsModule, /async searchDocs\(query: string, top_k: Integer = 3, user_id\?: string\): Promise<unknown> \{/);
  assert.equal(report[3], "haystack-agent.yaml:56:17 [function] Port the Python function recorder_tools.get_weather of tool 'get_weather' to the body of its @tool method.");
  assert.deepEqual(handWork.map((item) => item.kind), ["generator", "confirmation", "setting", "function", "function", "function", "handler", "function"]);
  assert.deepEqual(history.map((message) => [message.role, message.text]), [["user", "Which rivers cross Vienna?"], ["assistant", "The Danube and the Wien."]]);
  assert.deepEqual(state.get("topics"), ["rivers"]);
  state.set("topics", ["bridges"]);
  assert.deepEqual(state.get("topics"), ["rivers", "bridges"]);
  assert.deepEqual(result.messages.map((message) => [message.role, message.text, message.name]), [
    ["system", "You answer questions about rivers.", undefined],
    ["user", "Which rivers cross Vienna?", undefined],
    ["assistant", "The Danube and the Wien.", undefined],
    ["user", "Which of them is longer, Ada asks?", "ada"],
    ["assistant", "The Danube is longer.", undefined],
  ]);
}
