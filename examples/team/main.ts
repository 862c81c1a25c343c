import { readFileSync, writeFileSync } from "node:fs";
import { ChatMessage } from "toolwright";
import { chooseChatGenerator } from "../shared/chooseChatGenerator";
import { scriptedCoordinator, scriptedResearcher, scriptedWriter } from "./scriptedModels";
import { teamAgent, type TeamModels } from "./team";
import { published } from "./teamTools";

/** The three agents' models: real ones when OPENAI_API_KEY or OPENAI_BASE_URL is set, else scripted. */
export function teamModels(): TeamModels & { label: string } {
  const coordinator = chooseChatGenerator(scriptedCoordinator);
  return { coordinator: coordinator.chatGenerator, researcher: chooseChatGenerator(scriptedResearcher).chatGenerator, writer: chooseChatGenerator(scriptedWriter).chatGenerator, label: coordinator.label };
}

/**
 * Runs the team until the writer's `publish` waits for a person, prints what waits, and (with a
 * file) saves the paused run there. Then resumes it, here or (`--resume-from`) in another process.
 */
async function main(argv: readonly string[]): Promise<void> {
  const models = teamModels();
  const agent = teamAgent(models);
  const pauseTo = option(argv, "--pause-to");
  const resumeFrom = option(argv, "--resume-from");
  let paused;
  if (resumeFrom) {
    paused = JSON.parse(readFileSync(resumeFrom, "utf8")) as { snapshot: never; pending: Array<{ toolCallId: string }> };
  } else {
    console.log(`model: ${models.label}`);
    const first = await agent.run({ messages: [ChatMessage.fromUser("Write us a short article on whether a heat pump is worth it.")], audience: "homeowners" });
    if (first.exitReason !== "confirmation_required") throw new Error(`expected the writer to wait for confirmation, got ${first.exitReason}`);
    for (const p of first.pendingConfirmations) console.log(`waiting for a person: ${p.agent} wants ${p.toolName}(${JSON.stringify(p.arguments.title)}) [${p.toolCallId}]`);
    paused = { snapshot: first.snapshot, pending: first.pendingConfirmations };
    if (pauseTo) {
      writeFileSync(pauseTo, JSON.stringify(paused));
      console.log(`paused run saved to ${pauseTo} (${JSON.stringify(paused).length} bytes); resume with --resume-from ${pauseTo}`);
      return;
    }
  }
  const decisions = Object.fromEntries(paused.pending.map((p) => [p.toolCallId, { action: "confirm" as const }]));
  const result = await agent.run({ snapshot: paused.snapshot, decisions });
  if (result.exitReason !== "text") throw new Error(`the team ended with ${result.exitReason}`);
  console.log(`report: ${JSON.stringify(result.output)}`);
  console.log(`sources: ${result.sources?.map((s) => s.url).join(", ")}`);
  console.log(`published in this process: ${published.map((p) => p.title).join(", ") || "nothing"}`);
  console.log(`usage: ${result.usage.modelCalls} coordinator model calls, ${result.usage.toolCalls} tool calls, ${result.usage.totalTokens} tokens (the sub-agents' included)`);
}

function option(argv: readonly string[], name: string): string | undefined {
  const index = argv.indexOf(name);
  return index >= 0 ? argv[index + 1] : undefined;
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
