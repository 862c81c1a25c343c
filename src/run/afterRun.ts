import { isPlainObject } from "../util/isPlainObject";
import { isThenable } from "../util/isThenable";
import type { AfterRunContext, Middleware, RunResultLike } from "./middleware";
import type { RunContext } from "./runContext";
import { hookContext, hookThrew, notAnAction } from "./features/middlewareFeature";

/** Hands the run's result to each middleware's `afterRun`, in order; each may return another. */
export async function applyAfterRun<R extends RunResultLike>(run: RunContext, middleware: readonly Middleware[], result: R): Promise<R> {
  let current = result;
  for (const m of middleware) {
    if (!m.afterRun) continue;
    const { step: _step, callModel: _callModel, ...context } = hookContext(run, { middleware: m.name, hook: "afterRun", step: run.cursor.stepCount });
    const called = callAfterRun(m, { ...context, result: current });
    const action = isThenable(called) ? await run.abort.race(Promise.resolve(called), () => run.abort.abortError()) : called;
    if (action === undefined || action === null) continue;
    if (!isPlainObject(action) || !isPlainObject(action.result) || typeof action.result.exitReason !== "string" || !Array.isArray(action.result.messages)) {
      throw notAnAction({ middleware: m.name, hook: "afterRun", action, expected: "nothing or { result } with a run result (exitReason, messages, …)" });
    }
    current = action.result as R;
  }
  return current;
}

// Calls one afterRun hook; a throw (or a rejection) becomes a MiddlewareError naming it.
function callAfterRun(m: Middleware, context: AfterRunContext<RunResultLike>): unknown {
  let called: unknown;
  try {
    called = m.afterRun!(context);
  } catch (error) {
    throw hookThrew(m.name, "afterRun", error);
  }
  if (!isThenable(called)) return called;
  return Promise.resolve(called).catch((error: unknown) => {
    throw hookThrew(m.name, "afterRun", error);
  });
}
