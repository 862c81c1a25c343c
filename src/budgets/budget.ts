import { performance } from "node:perf_hooks";
import { ConfigurationError } from "../errors";
import type { RunUsage } from "../observe/runUsage";
import type { HookContext, Middleware, StopAction } from "../run/middleware";
import type { State } from "../state/state";
import { type BudgetKind, type BudgetLimits, checkLimits, type CheckedLimits } from "./budgetLimits";

/** A budget's limits, and how it names itself and keeps time. */
export interface BudgetOptions extends BudgetLimits {
  /** Names the middleware in stops and errors; default `"budget"`. */
  readonly name?: string;
  /**
   * A state key (declared by the Agent's stateSchema as a number) where the budget keeps the run's
   * active time in ms, so that `maxWallClockMs` carries across pause and resume and across
   * `toolwright/bullmq` steps. Without it, wall-clock time counts from the start of each `run` call.
   */
  readonly elapsedStateKey?: string;
  /**
   * A state key (declared by the Agent's stateSchema as an object) whose value, when set, raises or
   * replaces limits for the run: its limits override the budget's own, one by one, and are checked
   * as `budget()` checks them. State crosses processes, so this is how a `toolwright/bullmq` run gets
   * a raised budget (`queue.continue(runId, { state: { [key]: { maxModelCalls: 8 } } })`);
   * `setLimits` changes only this process's budget.
   */
  readonly limitsStateKey?: string;
  /** The clock, in ms (default `performance.now`); tests pass their own. */
  readonly now?: () => number;
}

/** A budget as middleware: stops the run with `exitReason: "budget_exhausted"` once a limit is used up. */
export interface BudgetMiddleware extends Middleware {
  /** The limits in force. */
  readonly limits: BudgetLimits;
  /** Replaces the limits (checked as `budget()` checks them): raise a budget, then resume the run it stopped. */
  setLimits(limits: BudgetLimits): void;
}

/** What a stop by a budget carries in `result.stopped.details`. */
export interface BudgetStopDetails {
  readonly budget: BudgetKind;
  readonly limit: number;
  readonly used: number;
}

// One run's clock and the tool calls its current step has ended (usage counts a step's calls once they all ended).
interface RunTally {
  readonly startedAt: number;
  readonly before: number;
  step: number;
  stepToolCalls: number;
}

/**
 * A middleware that stops a run when one of its limits runs out: before each model call once the
 * run has used as much as the limit allows (used ≥ limit), and after each tool call once it has used
 * more (the run stops once the step's results are in). The stop's `details` are `{ budget, limit,
 * used }`; the snapshot resumes (raise the limit first: `setLimits`, or a new budget).
 *
 * @example
 * const spend = budget({ maxModelCalls: 10, maxCost: { amount: 0.5, model: chatGenerator, prices: { "gpt-4o-mini": { input: 0.15, output: 0.6 } } } });
 * const agent = new Agent({ chatGenerator, tools, middleware: [spend] });
 */
export function budget(options: BudgetOptions): BudgetMiddleware {
  const { name = "budget", elapsedStateKey, limitsStateKey, now = () => performance.now(), ...limits } = options ?? ({} as BudgetOptions);
  if (typeof name !== "string" || name === "") throw new ConfigurationError("budget", "budget option name must be a non-empty string.", { optionPath: ["name"] });
  let current = limits;
  let checked = checkLimits(name, limits);
  const runs = new WeakMap<State, RunTally>();
  // The limits a state value gave last, by its JSON: checked once per change (or setLimits), not at every hook.
  let fromState: { json: string; limits: CheckedLimits } | undefined;
  const limitsFor = (state: State): CheckedLimits => {
    if (limitsStateKey === undefined) return checked;
    const raised = recordedLimits(name, state, limitsStateKey);
    if (raised === undefined) return checked;
    const json = JSON.stringify(raised);
    if (fromState?.json !== json) fromState = { json, limits: checkLimits(name, { ...current, ...raised }) };
    return fromState.limits;
  };

  const tally = (context: HookContext): RunTally => {
    let run = runs.get(context.state);
    if (!run) {
      run = { startedAt: now(), before: elapsedStateKey === undefined ? 0 : recordedElapsed(name, context.state, elapsedStateKey), step: context.step, stepToolCalls: 0 };
      runs.set(context.state, run);
    }
    if (run.step !== context.step) {
      run.step = context.step;
      run.stepToolCalls = 0;
    }
    return run;
  };
  const elapsed = (context: HookContext): number => {
    const run = tally(context);
    const ms = Math.round(run.before + now() - run.startedAt);
    if (elapsedStateKey !== undefined) context.state.set(elapsedStateKey, ms as never);
    return ms;
  };

  return {
    name,
    get limits() {
      return current;
    },
    setLimits(next) {
      checked = checkLimits(name, next);
      current = next;
      fromState = undefined;
    },
    beforeModel(context) {
      return exhausted(limitsFor(context.state), context.usage, { stepToolCalls: 0, elapsedMs: elapsed(context), overspentOnly: false });
    },
    // With a state key the time is recorded at every point: a pause for confirmation snapshots the
    // state before the step's calls, after the model call. Without one there is nothing to record.
    ...(elapsedStateKey !== undefined && {
      afterModel(context: HookContext) {
        elapsed(context);
      },
      beforeTool(context: HookContext) {
        elapsed(context);
      },
    }),
    afterTool(context) {
      const ms = elapsed(context);
      const run = tally(context);
      run.stepToolCalls += 1;
      return exhausted(limitsFor(context.state), context.usage, { stepToolCalls: run.stepToolCalls, elapsedMs: ms, overspentOnly: true });
    },
  };
}

// Before a model call a budget used up (used ≥ limit) stops the run: nothing is left for the call.
// After a tool call only an overspent one (used > limit) does, so that a step landing exactly on the
// limit still lets an exit-condition tool end the run (an afterTool stop would take its place).
function exhausted(limits: CheckedLimits, usage: RunUsage, at: { stepToolCalls: number; elapsedMs: number; overspentOnly: boolean }): StopAction | undefined {
  const over = (used: number, limit: number) => (at.overspentOnly ? used > limit : used >= limit);
  for (const { kind, limit } of limits.counts) {
    const used = kind === "toolCalls" ? usage.toolCalls + at.stepToolCalls : usage[kind];
    if (over(used, limit)) return stop(kind, limit, used);
  }
  if (limits.cost) {
    const { limit, price } = limits.cost;
    // One division, so that round prices give round costs (0.6, not 0.6000000000000001).
    const used = (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
    if (over(used, limit)) return stop("cost", limit, used);
  }
  if (limits.wallClockMs !== undefined && over(at.elapsedMs, limits.wallClockMs)) return stop("wallClockMs", limits.wallClockMs, at.elapsedMs);
  return undefined;
}

function stop(kind: BudgetKind, limit: number, used: number): StopAction {
  const details: BudgetStopDetails = { budget: kind, limit, used };
  return { stop: { exitReason: "budget_exhausted", reason: `${kind} budget exhausted`, details: { ...details } } };
}

function recordedElapsed(name: string, state: State, key: string): number {
  if (!state.keys.includes(key)) {
    throw new ConfigurationError(`Budget '${name}'`, `Budget '${name}' option elapsedStateKey names '${key}', which the Agent's stateSchema does not declare; declare it as a number (${key}: { type: z.number() }).`, { optionPath: ["elapsedStateKey"] });
  }
  const value = state.get(key);
  if (value === undefined) return 0;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new ConfigurationError(`Budget '${name}'`, `Budget '${name}' found ${String(value)} in state key '${key}', which must hold the run's elapsed ms (a finite number ≥ 0).`, { optionPath: ["elapsedStateKey"] });
  }
  return value;
}

function recordedLimits(name: string, state: State, key: string): BudgetLimits | undefined {
  if (!state.keys.includes(key)) {
    throw new ConfigurationError(`Budget '${name}'`, `Budget '${name}' option limitsStateKey names '${key}', which the Agent's stateSchema does not declare; declare it as an object of limits (${key}: { type: z.record(z.string(), z.unknown()) }).`, { optionPath: ["limitsStateKey"] });
  }
  const value = state.get(key);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new ConfigurationError(`Budget '${name}'`, `Budget '${name}' found ${Array.isArray(value) ? "an array" : typeof value} in state key '${key}', which must hold an object of limits (maxModelCalls, maxTotalTokens, maxCost, …).`, { optionPath: ["limitsStateKey"] });
  }
  return value as BudgetLimits;
}
