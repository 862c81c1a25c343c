import { Agent, ChatMessage, type Middleware, type StateSchema, Tool } from "toolwright";
import { ScriptedChatGenerator, type ScriptEntry, toolCallReply } from "toolwright/testing";

/** The text `fetch_page` returns for page `n`: 4,000 characters, different for every page. */
export function pageText(n: number): string {
  return `page ${n}: ${`${n} lorem ipsum `.repeat(400)}`.slice(0, 4_000);
}

/** A tool that returns a large result: page `n`'s text. */
export const fetchPage = new Tool({
  name: "fetch_page",
  description: "Fetch one page of the archive.",
  parameters: { type: "object", properties: { page: { type: "integer" } }, required: ["page"] },
  function: ({ page }) => pageText(page as number),
});

/**
 * An Agent on a scripted model that calls `fetch_page` once a step for `steps` steps (call ids
 * `call_1` … ), then answers with `then` (more entries, ending in a text reply).
 */
export function longToolRun(options: { steps: number; middleware: Middleware[]; tools?: Tool[]; then?: ScriptEntry[]; stateSchema?: StateSchema }) {
  const script: ScriptEntry[] = [];
  for (let i = 1; i <= options.steps; i++) script.push(toolCallReply(["fetch_page", { page: i }, `call_${i}`]));
  script.push(...(options.then ?? [ChatMessage.fromAssistant("All pages read.")]));
  const model = new ScriptedChatGenerator(script);
  const agent = new Agent({
    chatGenerator: model,
    tools: [fetchPage, ...(options.tools ?? [])],
    systemPrompt: "You read the archive page by page.",
    middleware: options.middleware,
    maxAgentSteps: script.length,
    ...(options.stateSchema ? { stateSchema: options.stateSchema } : {}),
  });
  return { agent, model };
}
