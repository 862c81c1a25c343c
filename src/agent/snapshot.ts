import { ChatMessage, type ChatMessageJSON } from "../chat/chatMessage";
import { defineFact, ToolwrightError } from "../../decorators/errors";
import { describeError, SnapshotError } from "../errors";
import type { ConfirmationDecision, PendingConfirmation } from "../hitl/confirmationTypes";
import { parseDecision } from "../hitl/parseDecision";
import type { StateJSON } from "../state/state";
import { describeKind } from "../util/describeValue";
import { nestingDepthExceeds } from "../util/jsonShape";
import { limits } from "../util/limits";
import { truncateForEcho } from "../util/truncate";
import { isPlainObject } from "../util/isPlainObject";
import { setOwn } from "../util/ownProperty";
import { jsonCopy } from "../util/jsonCopy";
import type { TraceContext } from "../observe/agentTracing";
import { noUsage, type RunUsage } from "../observe/runUsage";

/**
 * Everything a run needs to go on, as plain JSON: the state (messages included), the step count,
 * how often each point was passed, and where to continue. Breakpoints, deferred confirmations and
 * failures produce one; `agent.run({ snapshot })` continues from it, in this process or another.
 * Objects keyed by text from outside (`visits.tools`, `toolStep.decisions`) may hold keys such as
 * `__proto__` as data: read them with `Object.entries`, never by indexing.
 */
export interface AgentSnapshot {
  readonly version: 1;
  readonly state: StateJSON;
  /** Model calls made so far. */
  readonly stepCount: number;
  /** How many times each point was passed: model calls, and steps that ran each tool (`"*"`: any tool). */
  readonly visits: { readonly chatGenerator: number; readonly tools: Readonly<Record<string, number>> };
  /** What the run does next: call the model, or run the tool calls of the last model replies. */
  readonly next: "chat_generator" | "tool";
  /** With `next: "tool"`: how many trailing messages are the step's replies, the decisions so far, and the calls waiting for one. */
  readonly toolStep?: {
    readonly replies: number;
    readonly decisions: Readonly<Record<string, ConfirmationDecision>>;
    readonly pending: readonly PendingConfirmation[];
    /** Calls of the step that finished before an agent tool's sub-run paused it, by call key: not run again. */
    readonly done?: Readonly<Record<string, { readonly message: ChatMessageJSON; readonly failed: boolean }>>;
    /** Agent tool calls whose sub-run paused, by call key: the sub-run's snapshot and its pending calls. */
    readonly nested?: Readonly<Record<string, NestedSnapshot>>;
  };
  /** The run's usage so far; a resumed run adds to it. Absent in snapshots of toolwright before 0.2 (read as zeros). */
  readonly usage?: RunUsage;
  /** The W3C trace context of the run's trace, when it was traced: a resumed run continues that trace. */
  readonly trace?: TraceContext;
  /** The thread the run belongs to, when it ran with `conversation`: resuming appends to it. */
  readonly conversation?: SnapshotConversation;
  /** `hmac-sha256:<base64url>` over the rest, when the Agent that made it has a `snapshotKey`. */
  readonly signature?: string;
}

/**
 * Where a run in a thread stands against its thread: the thread and run ids, the thread version it
 * loaded (or last appended), how many of its conversation's messages (system messages aside) came
 * from the thread, and how many of the run's own it has appended (a stopped run's, before it continues).
 */
export interface SnapshotConversation {
  readonly threadId: string;
  readonly runId: string;
  readonly version: number;
  readonly from: number;
  readonly appended?: number;
}

/** A sub-run paused inside a tool step, to be continued: its snapshot and the decisions for it. */
export interface NestedResume {
  readonly snapshot: AgentSnapshot;
  readonly decisions: ReadonlyMap<string, ConfirmationDecision>;
}

/** A paused sub-run of an agent tool call, inside its caller's snapshot. */
export interface NestedSnapshot {
  readonly snapshot: AgentSnapshot;
  /** The sub-run's calls waiting for a decision, with its own keys. */
  readonly pending: readonly PendingConfirmation[];
}

/** A finished call of a step that paused, as the loop keeps it. */
export interface DoneCall {
  readonly message: ChatMessage;
  readonly failed: boolean;
}

/** Where a run stands, as the loop keeps it: Maps for everything keyed by text from outside. */
export interface RunPosition {
  readonly stepCount: number;
  readonly visits: { readonly chatGenerator: number; readonly tools: ReadonlyMap<string, number> };
  readonly next: "chat_generator" | "tool";
  readonly toolStep?: {
    readonly replies: number;
    readonly decisions: ReadonlyMap<string, ConfirmationDecision>;
    readonly pending: readonly PendingConfirmation[];
    readonly done?: ReadonlyMap<string, DoneCall>;
    readonly nested?: ReadonlyMap<string, NestedSnapshot>;
    /** On a resumed run only (never in a snapshot): the sub-runs to continue, with their decisions, by call key. */
    readonly resumes?: ReadonlyMap<string, NestedResume>;
  };
  readonly usage: RunUsage;
  readonly trace?: TraceContext;
}

/** The JSON snapshot of a position and its state's JSON; nothing in it is shared with the caller's objects. */
export function snapshotFromPosition(state: StateJSON, position: RunPosition): AgentSnapshot {
  const { toolStep } = position;
  return {
    version: 1,
    state,
    stepCount: position.stepCount,
    visits: { chatGenerator: position.visits.chatGenerator, tools: Object.fromEntries(position.visits.tools) },
    next: position.next,
    ...(toolStep && {
      toolStep: {
        replies: toolStep.replies,
        decisions: Object.fromEntries([...toolStep.decisions].map(([key, decision]) => [key, jsonCopy(decision)])),
        pending: toolStep.pending.map((p) => jsonCopy(p)),
        ...(toolStep.done?.size && { done: Object.fromEntries([...toolStep.done].map(([key, call]) => [key, { message: call.message.toJSON(), failed: call.failed }])) }),
        ...(toolStep.nested?.size && { nested: Object.fromEntries([...toolStep.nested].map(([key, nested]) => [key, { snapshot: nested.snapshot, pending: nested.pending.map((p) => jsonCopy(p)) }])) }),
      },
    }),
    usage: position.usage,
    ...(position.trace && { trace: position.trace }),
  };
}

/**
 * Reads a snapshot given to `agent.run` (for example one read back from JSON), checking every field
 * without trusting any: the result is the state's JSON (checked against the schema later) and the
 * run's position. Throws `SnapshotError` naming the field at fault.
 */
export function parseSnapshot(value: unknown): { readonly state: StateJSON; readonly position: RunPosition; readonly signature: string | undefined; readonly conversation: SnapshotConversation | undefined } {
  if (!isPlainObject(value)) throw snapshotProblem("(root)", `is ${describeKind(value)}, not a snapshot object`);
  if (nestingDepthExceeds(value, limits.maxSnapshotDepth)) throw snapshotProblem("(root)", `nests deeper than ${limits.maxSnapshotDepth} levels, the limit`);
  const known = ["version", "state", "stepCount", "visits", "next", "toolStep", "usage", "trace", "conversation", "signature"];
  const unknown = Object.keys(value).find((key) => !known.includes(key));
  if (unknown !== undefined) throw snapshotProblem(truncateForEcho(unknown), "is not a snapshot field");
  if (value.version !== 1) throw snapshotProblem("version", `is ${describeKind(value.version)}; this toolwright reads version 1`);
  if (!isPlainObject(value.state)) throw snapshotProblem("state", `is ${describeKind(value.state)}, not an object of state values`);
  const stepCount = count(value.stepCount, "stepCount");
  if (!isPlainObject(value.visits)) throw snapshotProblem("visits", `is ${describeKind(value.visits)}, not { chatGenerator, tools }`);
  const chatGenerator = count(value.visits.chatGenerator, "visits.chatGenerator");
  if (!isPlainObject(value.visits.tools)) throw snapshotProblem("visits.tools", `is ${describeKind(value.visits.tools)}, not an object of counts`);
  const tools = new Map(Object.entries(value.visits.tools).map(([name, n]) => [name, count(n, `visits.tools.${truncateForEcho(name)}`)] as const));
  const next = value.next;
  if (next !== "chat_generator" && next !== "tool") throw snapshotProblem("next", `is ${describeKind(next)}; it is "chat_generator" or "tool"`);
  if (value.signature !== undefined && typeof value.signature !== "string") throw snapshotProblem("signature", `is ${describeKind(value.signature)}, not a string`);
  const usage = value.usage === undefined ? noUsage : parseUsage(value.usage);
  const trace = value.trace === undefined ? undefined : parseTrace(value.trace);
  const position: RunPosition = { stepCount, visits: { chatGenerator, tools }, next, ...(next === "tool" && { toolStep: parseToolStep(value.toolStep) }), usage, ...(trace && { trace }) };
  if (next === "chat_generator" && value.toolStep !== undefined) throw snapshotProblem("toolStep", 'is only allowed with next: "tool"');
  return { state: value.state as StateJSON, position, signature: value.signature, conversation: value.conversation === undefined ? undefined : parseConversation(value.conversation) };
}

/** Reads a snapshot's `conversation` (its thread binding), checking every field; exported for the thread run, which reads it before the run verifies the signature. */
export function parseConversation(value: unknown): SnapshotConversation {
  const shape = "is not { threadId, runId, version, from, appended? }";
  if (!isPlainObject(value) || Object.keys(value).some((key) => !["threadId", "runId", "version", "from", "appended"].includes(key))) throw snapshotProblem("conversation", shape);
  for (const id of ["threadId", "runId"] as const) {
    const text = value[id];
    if (typeof text !== "string" || text.length === 0 || text.length > 256) throw snapshotProblem(`conversation.${id}`, `is ${describeKind(text)}, not a string of 1 to 256 characters`);
  }
  const version = count(value.version, "conversation.version");
  const from = count(value.from, "conversation.from");
  const appended = value.appended === undefined ? undefined : count(value.appended, "conversation.appended");
  return { threadId: value.threadId as string, runId: value.runId as string, version, from, ...(appended !== undefined && { appended }) };
}

function parseToolStep(value: unknown): NonNullable<RunPosition["toolStep"]> {
  if (!isPlainObject(value)) throw snapshotProblem("toolStep", `is ${describeKind(value)}; next is "tool", so it is { replies, decisions, pending }`);
  const replies = count(value.replies, "toolStep.replies");
  if (replies < 1) throw snapshotProblem("toolStep.replies", "is 0; a tool step has at least one reply");
  if (!isPlainObject(value.decisions)) throw snapshotProblem("toolStep.decisions", `is ${describeKind(value.decisions)}, not an object of decisions`);
  const decisions = new Map<string, ConfirmationDecision>();
  for (const [key, raw] of Object.entries(value.decisions)) {
    const parsed = parseDecision(raw);
    if ("problem" in parsed) throw snapshotProblem(`toolStep.decisions.${truncateForEcho(key)}`, `is not a decision: ${parsed.problem}`);
    decisions.set(key, parsed.decision);
  }
  if (!Array.isArray(value.pending)) throw snapshotProblem("toolStep.pending", `is ${describeKind(value.pending)}, not an array`);
  // Array.from visits holes too (map skips them): a sparse array from a JavaScript caller is refused like any other bad entry.
  const pending = Array.from(value.pending as unknown[], (p, i): PendingConfirmation => parsePending(p, `toolStep.pending[${i}]`, false));
  const known = ["replies", "decisions", "pending", "done", "nested"];
  const unknown = Object.keys(value).find((key) => !known.includes(key));
  if (unknown !== undefined) throw snapshotProblem(`toolStep.${truncateForEcho(unknown)}`, "is not a tool step field");
  const done = value.done === undefined ? undefined : parseDone(value.done);
  const nested = value.nested === undefined ? undefined : parseNested(value.nested);
  return { replies, decisions, pending, ...(done && { done }), ...(nested && { nested }) };
}

// A pending call; one a sub-run reported may name the agent tools it is nested in.
function parsePending(p: unknown, field: string, nested: boolean): PendingConfirmation {
  const keys = isPlainObject(p) ? Object.keys(p).length : 0;
  const agent = isPlainObject(p) ? p.agent : undefined;
  if (
    !isPlainObject(p) ||
    typeof p.toolCallId !== "string" ||
    typeof p.toolName !== "string" ||
    !isPlainObject(p.arguments) ||
    (agent === undefined ? keys !== 3 : !nested || typeof agent !== "string" || keys !== 4)
  ) {
    throw snapshotProblem(field, nested ? "is not { toolCallId, toolName, arguments, agent? }" : "is not { toolCallId, toolName, arguments }");
  }
  return agent === undefined ? { toolCallId: p.toolCallId, toolName: p.toolName, arguments: p.arguments } : { toolCallId: p.toolCallId, toolName: p.toolName, arguments: p.arguments, agent: agent as string };
}

function parseDone(value: unknown): Map<string, DoneCall> {
  if (!isPlainObject(value)) throw snapshotProblem("toolStep.done", `is ${describeKind(value)}, not an object of finished calls`);
  const done = new Map<string, DoneCall>();
  for (const [key, raw] of Object.entries(value)) {
    const field = `toolStep.done.${truncateForEcho(key)}`;
    if (!isPlainObject(raw) || typeof raw.failed !== "boolean" || Object.keys(raw).length !== 2) throw snapshotProblem(field, "is not { message, failed }");
    let message: ChatMessage;
    try {
      message = ChatMessage.fromJSON(raw.message);
    } catch (error) {
      throw snapshotProblem(`${field}.message`, `is not a message (${describeError(error).replace(/\.$/, "")})`, error);
    }
    if (message.role !== "tool" || message.content.length !== 1 || !message.toolCallResult) throw snapshotProblem(`${field}.message`, "is not a tool message with one result");
    done.set(key, { message, failed: raw.failed });
  }
  return done;
}

function parseNested(value: unknown): Map<string, NestedSnapshot> {
  if (!isPlainObject(value)) throw snapshotProblem("toolStep.nested", `is ${describeKind(value)}, not an object of paused sub-runs`);
  const nested = new Map<string, NestedSnapshot>();
  for (const [key, raw] of Object.entries(value)) {
    const field = `toolStep.nested.${truncateForEcho(key)}`;
    if (!isPlainObject(raw) || !isPlainObject(raw.snapshot) || !Array.isArray(raw.pending) || raw.pending.length === 0 || Object.keys(raw).length !== 2) {
      throw snapshotProblem(field, "is not { snapshot, pending } with at least one pending call");
    }
    const pending = Array.from(raw.pending as unknown[], (p, i) => parsePending(p, `${field}.pending[${i}]`, true));
    nested.set(key, { snapshot: raw.snapshot as unknown as AgentSnapshot, pending });
  }
  return nested;
}

const usageKeys = ["inputTokens", "outputTokens", "totalTokens", "modelCalls", "toolCalls", "failedToolCalls"] as const;

// Snapshots written before per-tool counts have no toolCallsByName; they read as no calls by name.
function parseUsage(value: unknown): RunUsage {
  const byName = isPlainObject(value) && Object.hasOwn(value, "toolCallsByName");
  if (!isPlainObject(value) || Object.keys(value).length !== usageKeys.length + (byName ? 1 : 0) || usageKeys.some((key) => !Object.hasOwn(value, key))) {
    throw snapshotProblem("usage", `is not { ${usageKeys.join(", ")}, toolCallsByName }`);
  }
  const usage = {} as Record<(typeof usageKeys)[number], number>;
  for (const key of usageKeys) usage[key] = count(value[key], `usage.${key}`);
  const names = byName ? value.toolCallsByName : {};
  if (!isPlainObject(names)) throw snapshotProblem("usage.toolCallsByName", "is not an object of counts by tool name");
  const toolCallsByName: Record<string, number> = {};
  for (const [name, calls] of Object.entries(names)) setOwn(toolCallsByName, name, count(calls, `usage.toolCallsByName.${name}`));
  return Object.freeze({ ...usage, toolCallsByName: Object.freeze(toolCallsByName) });
}

// W3C trace context: version 00 (the only one defined) in lower-case hex, and a tracestate of
// printable ASCII within the 512 characters the specification allows.
const traceparentForm = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;
const tracestateForm = /^[\x20-\x7e]{0,512}$/;

function parseTrace(value: unknown): TraceContext {
  if (!isPlainObject(value) || Object.keys(value).some((key) => key !== "traceparent" && key !== "tracestate")) throw snapshotProblem("trace", "is not { traceparent, tracestate? }");
  if (typeof value.traceparent !== "string" || !traceparentForm.test(value.traceparent)) throw snapshotProblem("trace.traceparent", "is not a W3C traceparent (00-<32 hex>-<16 hex>-<2 hex>, lower case)");
  if (value.tracestate !== undefined && (typeof value.tracestate !== "string" || !tracestateForm.test(value.tracestate))) throw snapshotProblem("trace.tracestate", "is not a W3C tracestate (printable ASCII, at most 512 characters)");
  return Object.freeze(value.tracestate === undefined ? { traceparent: value.traceparent } : { traceparent: value.traceparent, tracestate: value.tracestate });
}

/** The SnapshotError for a field that is missing, ill-typed or inconsistent. */
export function snapshotProblem(field: string, problem: string, cause?: unknown): SnapshotError {
  return new SnapshotError(field, `Agent.run was given a snapshot whose ${field} ${problem}; resume only with a snapshot a stopped run produced, unchanged.`, cause === undefined ? undefined : { cause });
}

// The snapshot is a typed fact of every ToolwrightError. It is declared here, beside its type,
// because the error base sits in decorators/, below the runtime: naming AgentSnapshot there would
// make an import cycle through every file that throws.
declare module "../../decorators/errors" {
  interface ToolwrightError {
    /** What continues the run this error stopped (`agent.run({ snapshot })`), when the run made one. */
    readonly snapshot?: AgentSnapshot;
  }
  interface ToolwrightErrorOptions {
    /** What continues the run the error stops. */
    readonly snapshot?: AgentSnapshot;
  }
}

/**
 * Attaches the snapshot `build` makes to a thrown error: a ToolwrightError's `snapshot` field, or on
 * any other thrown object (a tool's own error, raised with `raiseOnToolInvocationFailure`) a
 * property of that name; both non-enumerable, like `cause`. When building it fails (a state value
 * with no JSON form), the original error is kept and the failure is attached as `snapshotError`
 * instead: it never replaces the error that stopped the run.
 */
export function attachSnapshot(error: unknown, build: () => AgentSnapshot): void {
  if ((typeof error !== "object" || error === null) && typeof error !== "function") return;
  if (snapshotOf(error) !== undefined || Object.hasOwn(error, "snapshotError")) return;
  try {
    defineFact(error, "snapshot", build());
  } catch (snapshotError) {
    defineFact(error, "snapshotError", snapshotError);
  }
}

/** The snapshot a failed or stopped run attached to its error: retry with `agent.run({ snapshot })`. */
export function snapshotOf(error: unknown): AgentSnapshot | undefined {
  if (error instanceof ToolwrightError) return error.snapshot;
  if ((typeof error !== "object" || error === null) && typeof error !== "function") return undefined;
  return Object.hasOwn(error, "snapshot") ? (error as { snapshot?: AgentSnapshot }).snapshot : undefined;
}

function count(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw snapshotProblem(field, `is ${describeKind(value)}, not a whole number ≥ 0`);
  return value;
}
