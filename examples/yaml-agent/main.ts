import "./tools.generated";
import { join, sep } from "node:path";
import type { AgentRegistry } from "toolwright";
import { loadAgent } from "toolwright/yaml";
import { demoStore } from "../support/ticketStore";
import { DeskTools, latestTickets } from "./deskTools";
import { scriptedDeskModel } from "./scriptedDesk";

/** What agent.yaml may name: the class that makes DeskTools (with its store) and the merge handler. */
export function deskRegistry(): AgentRegistry {
  const store = demoStore();
  return { classes: { DeskTools: () => new DeskTools(store) }, handlers: { latestTickets } };
}

/** Loads agent.yaml and runs it for customer c-42: on OpenAI when OPENAI_API_KEY or OPENAI_BASE_URL is set, else on the scripted model. */
export async function runYamlExample(file = join(exampleDirectory(), "agent.yaml"), offline = !(process.env.OPENAI_API_KEY || process.env.OPENAI_BASE_URL)) {
  const agent = await loadAgent(file, { registry: deskRegistry(), ...(offline && { chatGenerator: scriptedDeskModel() }) });
  const result = await agent.run({
    customer_id: "c-42",
    customer_name: "Ada",
    promptVariables: { company: "Acme Printers", request: "My printer works again, please close that ticket. The invoice still shows my old address." },
  });
  return { agent, result };
}

// agent.yaml sits next to this file's source; the compiled file runs from dist/examples/yaml-agent.
function exampleDirectory(): string {
  return __dirname.includes(`${sep}dist${sep}`) ? join(__dirname, "..", "..", "..", "examples", "yaml-agent") : __dirname;
}

if (require.main === module) {
  const offline = !(process.env.OPENAI_API_KEY || process.env.OPENAI_BASE_URL);
  console.log(`model: ${offline ? "the scripted model (set OPENAI_API_KEY or OPENAI_BASE_URL for the one agent.yaml names)" : "the one agent.yaml names"}`);
  runYamlExample(undefined, offline).then(
    ({ result }) => {
      console.log(`system prompt: ${result.messages[0]!.text}`);
      console.log(`user prompt: ${result.messages[1]!.text}`);
      console.log(`exit reason: ${result.exitReason} after ${result.stepCount} model calls`);
      console.log(`state: ${JSON.stringify({ tickets: result.tickets, closed: result.closed, escalation: result.escalation }, null, 2)}`);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
