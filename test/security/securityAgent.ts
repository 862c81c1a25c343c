import { z } from "zod";
import {
  Agent,
  type AgentOptions,
  ChatMessage,
  type ConfirmationDecision,
  type ConfirmationRequest,
  BlockingConfirmationStrategy,
  type JsonSchema,
  type StateSchema,
  Tool,
  type ToolCall,
} from "toolwright";
import { ScriptedChatGenerator, type ScriptEntry } from "toolwright/testing";

export { rejectionOf } from "../helpers/notesAgent";

/** State of the guarded agent: a secret account owner injected into `transfer`, and the transfers it made. */
export const guardedState = {
  owner: { type: z.string() },
  transfers: { type: z.array(z.object({ to: z.string(), amount: z.number() })) },
  profile: { type: z.unknown() },
} satisfies StateSchema;

/** One execution of a tool: which call (by the model's id) and with which arguments. */
export interface Execution {
  readonly tool: string;
  readonly callId: string | undefined;
  readonly args: Record<string, unknown>;
}

/** The parameters of `transfer` as the model sees them (plus the injected `owner`). */
export const transferParameters = {
  type: "object",
  properties: {
    to: { type: "string", minLength: 1 },
    amount: { type: "number", minimum: 0 },
    memo: { type: "string" },
    owner: { type: "string" },
  },
  required: ["to", "amount", "owner"],
  additionalProperties: false,
} satisfies JsonSchema;

/**
 * `transfer` (guarded, reads the secret `owner`, appends to `transfers`), `lookup` (free, nested
 * filter argument) and `save_profile` (stores whatever it is given in `profile`). Each logs its
 * executions.
 */
export function guardedTools(log: Execution[]): Tool[] {
  return [
    new Tool({
      name: "transfer",
      description: "Send money.",
      parameters: transferParameters,
      inputsFromState: { owner: "owner" },
      outputsToState: { transfers: {} },
      function: (args, { toolCall }) => {
        log.push({ tool: "transfer", callId: toolCall.id, args });
        return { to: args.to, amount: args.amount };
      },
    }),
    new Tool({
      name: "lookup",
      description: "Look something up.",
      parameters: {
        type: "object",
        properties: { query: { type: "string" }, filter: { type: "object", properties: { tag: { type: "string" }, limit: { type: "integer" } }, additionalProperties: false } },
        required: ["query"],
        additionalProperties: false,
      },
      function: (args, { toolCall }) => {
        log.push({ tool: "lookup", callId: toolCall.id, args });
        return `found ${String(args.query)}`;
      },
    }),
    new Tool({
      name: "save_profile",
      description: "Save a profile.",
      parameters: { type: "object", properties: { json: { type: "string" } }, required: ["json"], additionalProperties: false },
      outputsToState: { profile: { source: "profile" } },
      function: (args, { toolCall }) => {
        log.push({ tool: "save_profile", callId: toolCall.id, args });
        return { profile: JSON.parse(String(args.json)) as unknown };
      },
    }),
  ];
}

/** A guarded agent answering `script`, with its tool log. */
export function guardedAgent(options: { script: readonly ScriptEntry[] } & Partial<AgentOptions<typeof guardedState>>) {
  const { script, ...rest } = options;
  const log: Execution[] = [];
  const chatGenerator = new ScriptedChatGenerator(script);
  const agent = new Agent({ chatGenerator, tools: guardedTools(log), stateSchema: guardedState, ...rest });
  return { agent, chatGenerator, log };
}

/** The input of a guarded run: one user message and the secret owner. */
export const guardedInput = (owner = "owner-secret-7731") => ({ messages: [ChatMessage.fromUser("Pay my bills.")], owner });

/** An assistant reply making the given calls. */
export function callsReply(...toolCalls: ToolCall[]): ChatMessage {
  return ChatMessage.fromAssistant(undefined, { toolCalls });
}

/** A Blocking strategy answering with `decide`, recording what it was asked. */
export function recordingStrategy(decide: (request: ConfirmationRequest) => ConfirmationDecision | Promise<ConfirmationDecision> = () => ({ action: "confirm" })) {
  const requests: ConfirmationRequest[] = [];
  const strategy = new BlockingConfirmationStrategy({ ask: (request) => (requests.push(request), decide(request)) });
  return { strategy, requests };
}


/** True when every object inside `value` is a plain object or array of this realm (or null-prototype). */
export function hasOnlyPlainPrototypes(value: unknown): boolean {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== "object" || seen.has(item)) continue;
    seen.add(item);
    const proto = Object.getPrototypeOf(item);
    if (proto !== Object.prototype && proto !== Array.prototype && proto !== null && !(item instanceof Date) && !(item instanceof ChatMessage)) return false;
    for (const key of Object.keys(item)) stack.push((item as Record<string, unknown>)[key]);
  }
  return true;
}
