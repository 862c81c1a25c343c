import { Agent, ChatGeneratorError, ChatMessage, FallbackChatGenerator, type ChatGenerator } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { lookup, lookupOrder, question } from "./desk";

// A primary provider that is rate limited: every call fails with a 429, as a real one would answer.
class RateLimited implements ChatGenerator {
  readonly model = "primary-model";
  calls = 0;
  async run(): Promise<never> {
    this.calls++;
    throw new ChatGeneratorError("OpenAI request for model 'primary-model' failed with status 429: Rate limit reached.", { status: 429 });
  }
}

/** A fallback after a 429: the backup generator answers every call the primary cannot. */
export async function runFallbackExample(print: (line: string) => void): Promise<void> {
  print("== fallback: the primary answers 429, the backup completes the run ==");
  const primary = new RateLimited();
  const backup = new ScriptedChatGenerator([lookup("A-100", "c1"), ChatMessage.fromAssistant("Order A-100 was delivered.")]);
  const answered: string[] = [];
  const agent = new Agent({
    chatGenerator: new FallbackChatGenerator({ generators: [primary, backup] }),
    tools: [lookupOrder()],
    hooks: { onModelEnd: (event) => void answered.push(event.responseModel ?? "?") },
  });
  const result = await agent.run(question("Where is order A-100?"));
  print(`primary tried ${primary.calls} times (429 each); answered by: ${answered.join(", ")}`);
  print(`${result.exitReason}: ${result.lastMessage.text}`);
}
