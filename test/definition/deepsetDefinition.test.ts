import { Agent, type Tool as ToolType, Tool } from "toolwright";
import { parseAgent } from "toolwright/yaml";
import { jsonReply } from "../helpers/mockOpenAIServer";
import { useMockServer } from "../chat/openai/openaiTestKit";

// The Agent of the seed's deepset pipeline (shared/seeds, "In YAML"), adapted to toolwright's
// format: the same generator, prompts, exit conditions and step limit; the ChatPromptBuilder's
// template becomes the userPrompt, unchanged; the SerperDev component is a registered tool.
const deepsetYaml = `
version: 1
chatGenerator:
  type: OpenAIChatGenerator
  options:
    model: gpt-5.4-nano
    apiKey: { env: DEEPSET_TEST_OPENAI_KEY }
    baseURL: BASE_URL
    generationKwargs: {}
    toolsStrict: false
exitConditions:
  - text
maxAgentSteps: 5
raiseOnToolInvocationFailure: false
stateSchema: {}
systemPrompt: You are a helpful assistant. Use the web search tool to find
  information when needed.
userPrompt: 'Based on the following content:

  {% for doc in docs %}

  {{ doc.content }}

  {% endfor %}

  Answer this question: {{ query }}'
tools:
  - tool: web_search
    description: Search the web for current information on any topic
`;

const server = useMockServer();

function webSearch(log: string[]): ToolType {
  return new Tool({
    name: "web_search",
    description: "Search the web.",
    parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    function: ({ query }) => {
      log.push(String(query));
      return [{ content: `Lyon is the capital of gastronomy (${String(query)}).` }];
    },
  });
}

describe("a deepset-style definition", () => {
  beforeEach(() => {
    process.env.DEEPSET_TEST_OPENAI_KEY = "sk-deepset-test";
  });
  afterEach(() => {
    delete process.env.DEEPSET_TEST_OPENAI_KEY;
  });

  test("loads and runs over real HTTP: Haystack's prompt template renders as Jinja does, secrets come from the named variable", async () => {
    const log: string[] = [];
    const agent = parseAgent(deepsetYaml.replace("BASE_URL", server.baseURL), {
      file: "pipeline.yaml",
      registry: { tools: { web_search: webSearch(log) } },
      allowedEnv: ["DEEPSET_TEST_OPENAI_KEY"],
      allowedBaseURLs: [server.baseURL],
    });
    server.enqueue(jsonReply({ toolCalls: [{ id: "call_1", name: "web_search", arguments: JSON.stringify({ query: "Lyon food" }) }] }), jsonReply({ text: "Lyon, for its bouchons." }));
    const result = await agent.run({ promptVariables: { docs: [{ content: "Paris has many restaurants." }, { content: "Lyon has bouchons." }], query: "Which city is best for food?" } });
    expect(result.lastMessage.text).toBe("Lyon, for its bouchons.");
    expect(log).toEqual(["Lyon food"]);
    const [first] = server.requests;
    expect(first!.headers.authorization).toBe("Bearer sk-deepset-test");
    const body = first!.body as { model: string; messages: Array<{ role: string; content: string }>; tools: Array<{ function: { name: string; description: string; strict?: boolean } }> };
    expect(body.model).toBe("gpt-5.4-nano");
    expect(body.messages).toEqual([
      { role: "system", content: "You are a helpful assistant. Use the web search tool to find information when needed." },
      // Jinja (trim_blocks off): each block tag leaves its line's newline.
      { role: "user", content: "Based on the following content:\n\nParis has many restaurants.\n\nLyon has bouchons.\n\nAnswer this question: Which city is best for food?" },
    ]);
    expect(body.tools.map((t) => [t.function.name, t.function.description])).toEqual([["web_search", "Search the web for current information on any topic"]]);
    // The definition reads back as it was written.
    expect(Agent.fromJSON(agent.toJSON(), { registry: { tools: { web_search: webSearch(log) } }, allowedEnv: ["DEEPSET_TEST_OPENAI_KEY"], allowedBaseURLs: [server.baseURL] }).toJSON()).toEqual(agent.toJSON());
  });
});
