import { ChatMessage } from "../../chat/chatMessage";
import { describeError } from "../../errors";
import { decisionShape, parseDecision } from "../../hitl/parseDecision";
import { describeKind } from "../../util/describeValue";
import { isPlainObject } from "../../util/isPlainObject";
import { isThenable } from "../../util/isThenable";
import { truncateForEcho } from "../../util/truncate";
import type { HookContext, HookPoint, Middleware, RunStop } from "../middleware";
import { MiddlewareError } from "../middlewareError";
import type { RunContext } from "../runContext";
import { type MiddlewareCaller, middlewareModelCall } from "../middlewareModelCall";
import type { AlongsideCheck, RunFeature } from "../runContext";

/** A middleware's hooks attached at the run's hook points: each call checked, each throw a MiddlewareError naming it. */
export function middlewareFeature(middleware: Middleware): RunFeature {
  const { name } = middleware;
  const feature: RunFeature = {};
  if (middleware.beforeModel) {
    feature.beforeModel = (run, request) =>
      call(middleware, "beforeModel", { ...hookContext(run, { middleware: name, hook: "beforeModel", step: run.cursor.stepCount + 1 }), messages: request.messages, tools: request.tools }, (action) => {
        if (action === undefined) return undefined;
        if ("stop" in action) return { stop: readStop(name, "beforeModel", action.stop) };
        const { messages, tools, alongside } = action;
        if (
          Object.keys(action).some((key) => key !== "messages" && key !== "tools" && key !== "alongside") ||
          (messages !== undefined && !isMessages(messages)) ||
          (tools !== undefined && !Array.isArray(tools)) ||
          (alongside !== undefined && typeof alongside !== "function")
        ) {
          throw notAnAction({ middleware: name, hook: "beforeModel", action, expected: "nothing, { messages?: ChatMessage[], tools?: ToolSpec[], alongside?: (signal) => verdict } or { stop: { reason } }" });
        }
        return {
          ...(messages !== undefined && { messages: messages as ChatMessage[] }),
          ...(tools !== undefined && { tools: tools as never }),
          ...(alongside !== undefined && { alongside: alongsideCheck(middleware, alongside as (signal: AbortSignal) => unknown) }),
        };
      });
  }
  if (middleware.afterModel) {
    feature.afterModel = (run, replies) =>
      call(middleware, "afterModel", { ...hookContext(run, { middleware: name, hook: "afterModel", step: run.cursor.stepCount + 1 }), replies }, (action) => {
        if (action === undefined) return undefined;
        if ("stop" in action) return { stop: readStop(name, "afterModel", action.stop) };
        if ("replies" in action && isMessages(action.replies)) return { replies: action.replies as ChatMessage[] };
        if ("reject" in action && typeof action.reject === "string" && action.reject.trim() !== "") return { reject: action.reject, by: name };
        throw notAnAction({ middleware: name, hook: "afterModel", action, expected: "nothing, { replies: ChatMessage[] }, { reject: \"what to tell the model\" } or { stop: { reason } }" });
      });
  }
  if (middleware.beforeTool) {
    feature.beforeTool = (run, toolCall) =>
      call(middleware, "beforeTool", { ...hookContext(run, { middleware: name, hook: "beforeTool", step: run.cursor.stepCount }), toolCall: toolCall.toolCall, callKey: toolCall.key, arguments: toolCall.arguments }, (action) => {
        if (action === undefined) return undefined;
        if ("stop" in action) return { stop: readStop(name, "beforeTool", action.stop) };
        if (action.action === "pause" && Object.keys(action).length === 1) return { action: "pause" as const };
        const parsed = parseDecision(action);
        if ("problem" in parsed) throw notAnAction({ middleware: name, hook: "beforeTool", action, expected: `nothing, ${decisionShape}, { action: "pause" } or { stop: { reason } } (${parsed.problem})` });
        return parsed.decision;
      });
  }
  if (middleware.afterTool) {
    feature.afterTool = (run, ended) =>
      call(middleware, "afterTool", { ...hookContext(run, { middleware: name, hook: "afterTool", step: run.cursor.stepCount }), toolCall: ended.toolCall, callKey: ended.key, failed: ended.failed, result: ended.result }, (action) => {
        if (action === undefined) return undefined;
        if ("stop" in action) return { stop: readStop(name, "afterTool", action.stop) };
        if (Object.keys(action).some((key) => key !== "result" && key !== "text") || ("text" in action && typeof action.text !== "string")) {
          throw notAnAction({ middleware: name, hook: "afterTool", action, expected: "nothing, { result?, text?: string } or { stop: { reason } }" });
        }
        if ("result" in action && ended.failed) {
          throw new MiddlewareError({ middleware: name, hook: "afterTool", message: `returned a result for the failed call '${truncateForEcho(ended.key)}' (${truncateForEcho(ended.toolCall.toolName)}); a failed call has none, so return { text } to change what the model gets.` });
        }
        return action;
      });
  }
  return feature;
}

// A middleware's check beside the model call, read like a hook's action: a throw or a verdict of
// another shape is a MiddlewareError naming the middleware at beforeModel.
function alongsideCheck(middleware: Middleware, check: (signal: AbortSignal) => unknown): AlongsideCheck {
  const { name } = middleware;
  return async (signal) => {
    let verdict: unknown;
    try {
      verdict = await check.call(middleware, signal);
    } catch (error) {
      throw hookThrew(name, "beforeModel", error);
    }
    if (verdict === undefined || verdict === null) return undefined;
    if (isPlainObject(verdict) && "stop" in verdict) return { stop: readStop(name, "beforeModel", verdict.stop) };
    if (isPlainObject(verdict) && verdict.callAgain === true && Object.keys(verdict).length === 1) return { callAgain: true, by: name };
    throw new MiddlewareError({ middleware: name, hook: "beforeModel", message: `resolved its check beside the model call with ${describeAction(verdict)}; resolve nothing, { stop: { reason } } or { callAgain: true }.` });
  };
}

/** What every hook of a run is told, at the caller's step. */
export function hookContext(run: RunContext, caller: MiddlewareCaller): HookContext {
  return {
    runId: run.runId(),
    agentName: run.agentName,
    step: caller.step,
    state: run.state,
    usage: run.usage.toJSON(),
    signal: run.abort.signal,
    callModel: (chatGenerator, request) => middlewareModelCall(run, caller, chatGenerator, request),
  };
}

type Hook = Exclude<HookPoint, "afterRun">;

// Calls one hook and reads its action with `read`: synchronously when the hook answers
// synchronously (nothing awaited), else once its promise settles. A throw or a rejection becomes a
// MiddlewareError naming the middleware and the hook; anything but an object (or nothing) is not an action.
function call<R>(middleware: Middleware, hook: Hook, context: object, read: (action: Record<string, unknown> | undefined) => R): R | Promise<R> {
  let returned: unknown;
  try {
    returned = (middleware[hook] as (context: object) => unknown).call(middleware, context);
  } catch (error) {
    throw hookThrew(middleware.name, hook, error);
  }
  if (!isThenable(returned)) return read(checkedAction(middleware, hook, returned));
  return Promise.resolve(returned).then(
    (action) => read(checkedAction(middleware, hook, action)),
    (error: unknown) => {
      throw hookThrew(middleware.name, hook, error);
    },
  );
}

function checkedAction(middleware: Middleware, hook: Hook, action: unknown): Record<string, unknown> | undefined {
  if (action === undefined || action === null) return undefined;
  if (!isPlainObject(action)) throw notAnAction({ middleware: middleware.name, hook, action, expected: "an action object or nothing" });
  return action;
}

/** The MiddlewareError for a hook that threw: one sentence naming the middleware and the hook, the error kept as its cause. */
export function hookThrew(middleware: string, hook: HookPoint, error: unknown): MiddlewareError {
  return new MiddlewareError({ middleware, hook, message: `threw in ${hook}: ${describeError(error).replace(/\.$/, "")}.`, cause: error });
}

/** Reads a `{ stop: { reason, details? } }` a hook returned. */
export function readStop(middleware: string, hook: HookPoint, stop: unknown): RunStop {
  if (!isPlainObject(stop) || typeof stop.reason !== "string" || stop.reason.trim() === "") {
    throw new MiddlewareError({ middleware, hook, message: `returned a stop in ${hook} without a reason: return { stop: { reason: "why", details?: { ... } } }.` });
  }
  if (stop.details !== undefined && !isPlainObject(stop.details)) {
    throw new MiddlewareError({ middleware, hook, message: `returned a stop in ${hook} whose details are ${describeKind(stop.details)}, not an object: return { stop: { reason: "why", details?: { ... } } }.` });
  }
  const exitReason = stop.exitReason ?? "stopped";
  if (exitReason !== "stopped" && exitReason !== "budget_exhausted" && exitReason !== "guardrail_tripped") {
    throw new MiddlewareError({ middleware, hook, message: `returned a stop in ${hook} with exitReason ${describeKind(exitReason)}; a stop ends the run as "stopped" (the default), "budget_exhausted" or "guardrail_tripped".` });
  }
  return { exitReason, middleware, hook, reason: stop.reason, ...(stop.details !== undefined && { details: stop.details as Record<string, unknown> }) };
}

/** A hook's return value that is not one of its hook point's actions. */
export interface NotAnAction {
  /** The middleware's `name`. */
  readonly middleware: string;
  readonly hook: HookPoint;
  /** What the hook returned. */
  readonly action: unknown;
  /** The actions the hook point takes, as the message lists them. */
  readonly expected: string;
}

/** The MiddlewareError for a hook that returned something that is not one of its actions (`expected` lists them). */
export function notAnAction({ middleware, hook, action, expected }: NotAnAction): MiddlewareError {
  return new MiddlewareError({ middleware, hook, message: `returned ${describeAction(action)} from ${hook}, which is not one of its actions; return ${expected}.` });
}

function isMessages(value: unknown): boolean {
  return Array.isArray(value) && value.every((message) => message instanceof ChatMessage);
}

function describeAction(value: unknown): string {
  if (!isPlainObject(value)) return describeKind(value);
  const keys = Object.keys(value);
  return keys.length === 0 ? "an empty object" : `an object with ${keys.slice(0, 5).map((key) => `'${key.slice(0, 32)}'`).join(", ")}`;
}
