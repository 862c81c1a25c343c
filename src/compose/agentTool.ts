import { createHash } from "node:crypto";
import { ChatMessage } from "../chat/chatMessage";
import type { StreamingCallback, StreamingChunk } from "../chat/streaming";
import { ConfigurationError } from "../errors";
import type { ConfirmationDecision } from "../hitl/confirmationTypes";
import type { MergeHandler } from "../state/mergeHandlers";
import { setSubRun, Tool, type ToolContext } from "../tools/tool";
import type { OutputsToString } from "../tools/toolOutputs";
import type { JsonSchema } from "../tools/jsonSchema";
import { describeKind } from "../util/describeValue";
import { setOwn } from "../util/ownProperty";
import type { AgentResultBase } from "../agent/agentTypes";
import type { AgentSnapshot } from "../agent/snapshot";
import type { PendingConfirmation } from "../hitl/confirmationTypes";
import { maxAgentNesting, nestedDepth } from "./nestedRun";
import type { SubRunCall, SubRunOutcome } from "../tools/subRun";

/** Options of `agent.asTool(...)`. */
export interface AgentToolOptions {
  /** The tool's name for the calling agent's model: 1–64 characters of `[a-zA-Z0-9_-]`. */
  name: string;
  /** What the agent does, for the calling agent's model. */
  description: string;
  /** Describes the one argument the model sends, the task: default "The task for the agent, with everything it needs to know." */
  inputDescription?: string;
  /**
   * Caller's state key → the sub-agent's state key it starts with. The model never sees these
   * values; the sub-run's state is otherwise its own.
   */
  inputsFromState?: Readonly<Record<string, string>>;
  /**
   * Caller's state key → where its value comes from when the sub-run ends: `source` is a state key
   * of the sub-agent, `"output"` (its typed final answer) or `"text"` (its last message's text);
   * merged with `handler` or the caller's key's own.
   */
  outputsToState?: Readonly<Record<string, { readonly source: string; readonly handler?: MergeHandler }>>;
  /**
   * What the calling model reads: default the sub-agent's `output` as JSON when it has an
   * `outputSchema`, else its last message's text. The value given to `source`/`handler` is
   * `{ text, output, exitReason, ...the sub-agent's state }`.
   */
  outputsToString?: OutputsToString;
}

/** The result of an agent tool's call, as `outputsToState` and `outputsToString` read it. */
export interface AgentToolResult {
  /** The sub-run's last message's text ("" without one). */
  readonly text: string;
  /** The sub-run's typed final answer (with an `outputSchema`). */
  readonly output: unknown;
  readonly exitReason: string;
  readonly [stateKey: string]: unknown;
}

type SubRunResult = AgentResultBase<never> & { exitReason: string; output?: unknown; pendingConfirmations?: PendingConfirmation[]; snapshot?: AgentSnapshot };

/** What the tool needs from the Agent it runs. */
export interface SubAgent {
  /** The sub-agent's state keys, `messages` included. */
  readonly stateKeys: readonly string[];
  run(input: Record<string | symbol, unknown>): Promise<SubRunResult>;
  checkResume(snapshot: unknown, decisions: ReadonlyMap<string, ConfirmationDecision>): void;
}

const resultFields = ["output", "text", "exitReason"];

/**
 * Wraps an Agent as a Tool (`agent.asTool()`): the calling model sends the task as `input`; the
 * sub-run starts from it and the mapped state keys, streams into the caller's stream tagged with the
 * tool's name, gets the caller's abort signal, and pauses the caller when it pauses for confirmation.
 */
export function agentTool(agent: SubAgent, options: AgentToolOptions): Tool {
  const subject = `Agent tool '${typeof options?.name === "string" ? options.name : "?"}'`;
  if (typeof options !== "object" || options === null) throw new ConfigurationError("Agent.asTool", `Agent.asTool(options) needs { name, description, ... }, got ${describeKind(options)}.`);
  const inputs = checkInputs(subject, options.inputsFromState, agent.stateKeys);
  checkOutputs(subject, options.outputsToState, agent.stateKeys);
  const { name } = options;
  const properties: Record<string, JsonSchema> = { input: { type: "string", description: options.inputDescription ?? "The task for the agent, with everything it needs to know." } };
  // The mapped keys are parameters the model never sees (inputsFromState hides them), named after the sub-agent's keys.
  for (const subKey of Object.values(inputs)) setOwn(properties, subKey, {});
  const runSubAgent = subAgentRunner(agent, name, Object.values(inputs));
  const tool = new Tool({
    name,
    description: options.description,
    parameters: { type: "object", properties, required: ["input"], additionalProperties: false },
    inputsFromState: inputs,
    outputsToState: options.outputsToState,
    outputsToString: options.outputsToString ?? { handler: (result: AgentToolResult) => result.output ?? (result.text || `The agent '${name}' finished (${result.exitReason}) without an answer.`) },
    function: async (args, context) => (await runSubAgent(args, context, outsideARun)).value,
  });
  setSubRun(tool, {
    run: runSubAgent,
    checkResume: (snapshot, decisions) => agent.checkResume(snapshot, decisions),
  });
  return tool;
}

// A call made outside a run's tool step (a tool's function called directly): top level, cannot pause.
const outsideARun: SubRunCall = { depth: 1, streamingCallback: undefined, canPause: false, resume: undefined, addTokens: () => {} };

/** One call of an agent tool: runs its agent on the call's task, or continues the sub-run it paused. */
type SubAgentRun = (args: Record<string, unknown>, context: ToolContext, channel: SubRunCall) => Promise<SubRunOutcome & { readonly value?: AgentToolResult }>;

// The agent tool's calls of `agent`: `name` tags its stream and its pauses, `subKeys` are the sub-agent's state keys filled from the caller's state.
function subAgentRunner(agent: SubAgent, name: string, subKeys: readonly string[]): SubAgentRun {
  return async (args, context, channel) => {
    const depth = channel.depth;
    if (depth >= maxAgentNesting) {
      throw new Error(`agents would nest ${depth + 1} deep, past the limit of ${maxAgentNesting}; an agent that calls itself (directly or through others) needs an exit`);
    }
    const forward = channel.streamingCallback;
    const streamingCallback: StreamingCallback | undefined = forward && ((chunk: StreamingChunk) => forward({ ...chunk, agent: chunk.agent === undefined ? name : `${name}/${chunk.agent}` }));
    const common: Record<string | symbol, unknown> = { signal: context.signal, runId: subRunId(context.idempotencyKey), [nestedDepth]: depth + 1 };
    if (streamingCallback) common.streamingCallback = streamingCallback;
    let input: Record<string | symbol, unknown>;
    if (channel.resume) {
      input = { ...common, snapshot: channel.resume.snapshot, decisions: channel.resume.decisions };
    } else {
      input = { ...common, messages: [ChatMessage.fromUser(String(args.input))] };
      for (const key of subKeys) if (args[key] !== undefined) setOwn(input, key, args[key]);
    }
    const result = await agent.run(input);
    if (result.exitReason === "confirmation_required") {
      if (!channel.canPause) {
        throw new Error(
          `its agent paused for confirmation of ${result.pendingConfirmations!.map((p) => p.toolName).join(", ")}, and a call outside an Agent run (ToolRunner, MCP) cannot pause; give that agent a BlockingConfirmationStrategy`,
        );
      }
      return { paused: { toolName: name, snapshot: result.snapshot!, pending: result.pendingConfirmations! } };
    }
    // Tokens are added once, when the sub-run ends (a resumed sub-run's usage includes its first part).
    channel.addTokens(result.usage);
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(result)) if (agent.stateKeys.includes(key) && key !== "messages") setOwn(out, key, value);
    out.messages = result.messages;
    out.text = result.lastMessage.text ?? "";
    out.output = result.output;
    out.exitReason = result.exitReason;
    return { value: out as AgentToolResult };
  };
}

// A sub-run's id: stable for its call (so its own tools' idempotency keys are too), within the 200 characters a runId may have.
function subRunId(idempotencyKey: string): string {
  return idempotencyKey.length <= 200 ? idempotencyKey : `sha256:${createHash("sha256").update(idempotencyKey).digest("hex")}`;
}

function checkInputs(subject: string, value: unknown, subKeys: readonly string[]): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigurationError(subject, `${subject} has inputsFromState that is not an object of { callerStateKey: subAgentStateKey }, got ${describeKind(value)}.`);
  }
  const seen = new Set<string>();
  for (const [key, subKey] of Object.entries(value)) {
    if (typeof subKey !== "string" || !subKeys.includes(subKey) || subKey === "messages") {
      throw new ConfigurationError(
        subject,
        `${subject} maps '${key}' in inputsFromState to ${typeof subKey === "string" ? `'${subKey}'` : describeKind(subKey)}, which is not a state key of its agent; map to one of: ${subKeys.filter((k) => k !== "messages").join(", ") || "none (give the agent a stateSchema)"}.`,
      );
    }
    if (subKey === "input" || seen.has(subKey)) {
      throw new ConfigurationError(subject, `${subject} fills its agent's state key '${subKey}' ${subKey === "input" ? "from state, but 'input' is the task the model sends; rename that state key" : "from two keys in inputsFromState; map each of the agent's keys once"}.`);
    }
    seen.add(subKey);
  }
  return { ...(value as Record<string, string>) };
}

function checkOutputs(subject: string, value: unknown, subKeys: readonly string[]): void {
  if (value === undefined) return;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigurationError(subject, `${subject} has outputsToState that is not an object of { callerStateKey: { source, handler? } }, got ${describeKind(value)}.`);
  }
  const sources = [...resultFields, ...subKeys];
  for (const [key, config] of Object.entries(value)) {
    const source: unknown = (config as { source?: unknown } | null)?.source;
    if (typeof source !== "string" || !sources.includes(source)) {
      throw new ConfigurationError(
        subject,
        `${subject} has outputsToState.${key} with source ${typeof source === "string" ? `'${source}'` : describeKind(source)}; the source is one of its agent's state keys or output, text, exitReason: ${sources.join(", ")}.`,
      );
    }
  }
}
