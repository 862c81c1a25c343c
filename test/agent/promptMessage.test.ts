import { Agent, ChatMessage, ConfigurationError, promptTemplate } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { png } from "../helpers/mediaSamples";
import { thrownError } from "../helpers/thrownError";

const reply = ChatMessage.fromAssistant("Done.");
const agentWith = (options: { systemPrompt?: unknown; userPrompt?: unknown }) => {
  const chatGenerator = new ScriptedChatGenerator([reply]);
  return { chatGenerator, agent: new Agent({ chatGenerator, ...(options as object) }) };
};
const configurationError = (make: () => unknown): ConfigurationError => thrownError(make, ConfigurationError);

// Haystack main: haystack/components/agents/agent.py (Agent.__init__ builds a ChatPromptBuilder
// for user_prompt and system_prompt from _template_for_role; _initialize_fresh_execution renders
// each with _render_prompt_messages) and haystack/components/agents/utils.py (the prompt helpers).
describe("Agent prompts with {% message %} blocks", () => {
  it("sends a userPrompt block's message, name, meta and images included, after the run's messages (Haystack main: test_user_prompt_appended_after_initial_messages)", async () => {
    const userPrompt = promptTemplate(`{% message role="user" name="ada" meta={"source": "form"} %}
      Describe {{ what }}:
      {{ image | templatize_part }}
    {% endmessage %}`, { name: "userPrompt" });
    const { agent, chatGenerator } = agentWith({ systemPrompt: "You describe images.", userPrompt });
    const image = png();

    await agent.run({ messages: [ChatMessage.fromUser("Earlier question.")], promptVariables: { what: "this picture", image } });

    expect(chatGenerator.requests[0]!.messages).toEqual([
      ChatMessage.fromSystem("You describe images."),
      ChatMessage.fromUser("Earlier question."),
      ChatMessage.fromUser(["Describe this picture:", image], { name: "ada", meta: { source: "form" } }),
    ]);
  });

  it("sends a systemPrompt block's message first, stripped (Haystack main: test_system_prompt_and_user_prompt)", async () => {
    const systemPrompt = promptTemplate(`
      {% message role="system" %}
        You help {{ customer }}.
      {% endmessage %}
    `, { name: "systemPrompt" });
    const { agent, chatGenerator } = agentWith({ systemPrompt, userPrompt: "Hi." });

    await agent.run({ promptVariables: { customer: "Ada" } });

    expect(chatGenerator.requests[0]!.messages).toEqual([ChatMessage.fromSystem("You help Ada."), ChatMessage.fromUser("Hi.")]);
  });

  it("refuses a userPrompt with two blocks when the Agent is made (Haystack main: _validate_prompt_message_blocks, 'user_prompt must define exactly one message block, found 2.')", () => {
    const userPrompt = promptTemplate(`{% message role="user" %}A{% endmessage %}\n{% message role="user" %}B{% endmessage %}`, { name: "userPrompt" });
    const error = configurationError(() => agentWith({ userPrompt }));
    expect(error.message).toBe(
      "Agent was given a userPrompt template with 2 {% message %} blocks (lines 1, 2); a userPrompt is one user message: keep one block, and pass other messages in the run's messages.",
    );
    expect(error.optionPath).toEqual(["userPrompt"]);
  });

  it("refuses a block whose literal role is not the prompt's when the Agent is made (Haystack main: test_prompt_wrong_role_raises_at_init)", () => {
    const userPrompt = promptTemplate(`{% message role="system" %}A{% endmessage %}`, { name: "userPrompt" });
    expect(configurationError(() => agentWith({ userPrompt })).message).toBe(
      "Agent was given a userPrompt template whose {% message %} block (line 1) has role 'system'; a userPrompt is a user message: write {% message role=\"user\" %}.",
    );
    const systemPrompt = promptTemplate(`\n{% message role="assistant" %}A{% endmessage %}`, { name: "systemPrompt" });
    expect(configurationError(() => agentWith({ systemPrompt })).message).toBe(
      "Agent was given a systemPrompt template whose {% message %} block (line 2) has role 'assistant'; a systemPrompt is a system message: write {% message role=\"system\" %}.",
    );
  });

  it("refuses a render that makes other than one message of the prompt's role (Haystack main: _render_prompt_messages; test_dynamic_prompt_role_raises_at_runtime)", async () => {
    const looped = promptTemplate(`{% for q in questions %}{% message role="user" %}{{ q }}{% endmessage %}{% endfor %}`, { name: "userPrompt" });
    await expect(agentWith({ userPrompt: looped }).agent.run({ promptVariables: { questions: ["a", "b"] } })).rejects.toThrow(
      "Agent has a userPrompt template that rendered 2 messages; it must render exactly one user message: make its {% message %} block run once.",
    );
    const roleFromVariable = promptTemplate(`{% message role=who %}hello{% endmessage %}`, { name: "userPrompt" });
    await expect(agentWith({ userPrompt: roleFromVariable }).agent.run({ promptVariables: { who: "assistant" } })).rejects.toThrow(
      'Agent has a userPrompt template that rendered an assistant message; it must render a user message: give its {% message %} block role="user".',
    );
  });

  it("checks a run's own systemPrompt template the same way", async () => {
    const systemPrompt = promptTemplate(`{% message role="user" %}A{% endmessage %}`, { name: "systemPrompt" });
    await expect(agentWith({ userPrompt: "Hi." }).agent.run({ systemPrompt })).rejects.toThrow(
      "Agent.run was given a systemPrompt template whose {% message %} block (line 1) has role 'user'; a systemPrompt is a system message: write {% message role=\"system\" %}.",
    );
  });

  it("reads a definition whose userPrompt is a message template (Haystack's agent YAML form), and names the prompt in its errors", async () => {
    const chatGenerator = new ScriptedChatGenerator([reply]);
    const definition = { version: 1, chatGenerator: { type: "ScriptedChatGenerator", options: { script: [] } }, userPrompt: '{% message role="user" %}\nTranslate to {{ language }}: {{ document }}\n{% endmessage %}' };
    const agent = Agent.fromJSON(definition, { chatGenerator });
    await agent.run({ promptVariables: { language: "German", document: "Hello" } });
    expect(chatGenerator.requests[0]!.messages).toEqual([ChatMessage.fromUser("Translate to German: Hello")]);
    expect(agent.toJSON().userPrompt).toBe(definition.userPrompt);

    expect(() => Agent.fromJSON({ ...definition, userPrompt: '{% message role="user" %}\nunclosed' }, { chatGenerator })).toThrow(
      "userPrompt template opens a {% message %} block on line 1 that is never closed: end it with {% endmessage %}.",
    );
  });
});

describe("Agent prompts with {% insert %}", () => {
  it("sends the one message a userPrompt's insert makes, and refuses more (Haystack main checks the rendered count the same way)", async () => {
    const userPrompt = promptTemplate("{% insert history[-1] %}", { name: "userPrompt" });
    const { agent, chatGenerator } = agentWith({ userPrompt });
    await agent.run({ promptVariables: { history: [ChatMessage.fromUser("old"), ChatMessage.fromUser("latest")] } });
    expect(chatGenerator.requests[0]!.messages).toEqual([ChatMessage.fromUser("latest")]);

    const all = promptTemplate("{% insert history %}", { name: "userPrompt" });
    await expect(agentWith({ userPrompt: all }).agent.run({ promptVariables: { history: [ChatMessage.fromUser("a"), ChatMessage.fromUser("b")] } })).rejects.toThrow(
      "Agent has a userPrompt template that rendered 2 messages; it must render exactly one user message: make its {% message %} block run once.",
    );
  });
});
