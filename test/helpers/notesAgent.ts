import { z } from "zod";
import { Agent, type AgentOptions, type AgentResult, ChatMessage, type ChatMessageJSON, type StateSchema, Tool, type ToolCall } from "toolwright";
import { ScriptedChatGenerator, type ScriptEntry } from "toolwright/testing";

/** The state of the notes agent: a customer id injected into `search`, and notes `add_note` appends to. */
export const notesState = {
  customer_id: { type: z.string() },
  notes: { type: z.array(z.string()) },
} satisfies StateSchema;

/** What the tools of one notes agent were called with, in order. */
export type ToolLog = Array<{ tool: string; args: Record<string, unknown> }>;

/** `search` (reads `customer_id` from state) and `add_note` (appends its note to `notes`); both log their calls. */
export function notesTools(log: ToolLog, searchImpl?: (args: Record<string, unknown>) => unknown): Tool[] {
  return [
    new Tool({
      name: "search",
      description: "Search the customer's documents.",
      parameters: { type: "object", properties: { query: { type: "string" }, customerId: { type: "string" } }, required: ["query", "customerId"] },
      inputsFromState: { customer_id: "customerId" },
      function: (args) => {
        log.push({ tool: "search", args });
        return searchImpl ? searchImpl(args) : `results for ${String(args.query)}`;
      },
    }),
    new Tool({
      name: "add_note",
      description: "Write down a note.",
      parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      outputsToState: { notes: { source: "note" } },
      function: (args) => {
        log.push({ tool: "add_note", args });
        return { note: args.text };
      },
    }),
  ];
}

const call = (id: string, toolName: string, args: Record<string, unknown>): ToolCall => ({ id, toolName, arguments: args });

/** Four model calls: search, add a note, search again, answer. */
export const notesScript: readonly ScriptEntry[] = [
  ChatMessage.fromAssistant(undefined, { toolCalls: [call("c1", "search", { query: "lamps" })] }),
  ChatMessage.fromAssistant("Noting it.", { toolCalls: [call("c2", "add_note", { text: "lamps found" })] }),
  ChatMessage.fromAssistant(undefined, { toolCalls: [call("c3", "search", { query: "chairs" })] }),
  ChatMessage.fromAssistant("Lamps and chairs are both in stock."),
];

/** A notes agent with its own model (answering `script`) and tool log. */
export function notesAgent(options: { script?: readonly ScriptEntry[]; log?: ToolLog; searchImpl?: (args: Record<string, unknown>) => unknown } & Partial<AgentOptions<typeof notesState>> = {}) {
  const { script = notesScript, log = [], searchImpl, ...rest } = options;
  const chatGenerator = new ScriptedChatGenerator(script);
  const agent = new Agent({ chatGenerator, tools: notesTools(log, searchImpl), stateSchema: notesState, systemPrompt: "You keep notes.", ...rest });
  return { agent, chatGenerator, log };
}

/** The run input of the notes scenario. */
export function notesInput() {
  return { messages: [ChatMessage.fromUser("What is in stock?")], customer_id: "c-42" };
}

/** What two runs must agree on: the messages as JSON, the state values, why and after how many steps they ended. */
export function runSummary(result: AgentResult<typeof notesState>): {
  messages: ChatMessageJSON[];
  customer_id: string | undefined;
  notes: string[] | undefined;
  exitReason: string;
  stepCount: number;
} {
  return { messages: result.messages.map((m) => m.toJSON()), customer_id: result.customer_id, notes: result.notes, exitReason: result.exitReason, stepCount: result.stepCount };
}

/** The rejection of a promise that must reject. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the promise to reject");
}
