import type { ChatGeneratorResponse } from "../chat/chatGenerator";
import type { AbortScope } from "../util/abortScope";
import type { AlongsideCheck } from "./runContext";
import type { RunStop } from "./middleware";

/** How a model call with checks beside it came out: its response (unless it was cancelled), and a check's stop or request to call again. */
export type BesideOutcome =
  | { readonly response: ChatGeneratorResponse; readonly verdict?: undefined }
  | { readonly response?: ChatGeneratorResponse; readonly verdict: { readonly stop: RunStop } | { readonly callAgain: true; readonly by: string } };

/**
 * Runs a model call and the checks a feature asked for beside it, at the same time. The first check
 * to stop or ask for another call cancels the call (its signal aborts) and the other checks; a call
 * that answered first waits for the checks, whose verdict still applies (the answer's tokens were
 * spent and are counted, its replies dropped). A call that fails cancels the checks and throws; a
 * check that throws cancels the call and throws. The run's abort ends everything.
 */
export async function callBeside(abort: AbortScope, checks: readonly AlongsideCheck[], call: (signal: AbortSignal) => Promise<ChatGeneratorResponse>): Promise<BesideOutcome> {
  const turn = new AbortController();
  const onAbort = () => turn.abort(abort.signal.reason);
  abort.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const answered = call(turn.signal).then(
      (response) => ({ response }),
      (error: unknown) => ({ error }),
    );
    const concluded = firstVerdict(checks.map((check) => check(turn.signal)));
    // Read whichever way it settles, so a rejection after the turn ended is never unhandled.
    concluded.catch(() => undefined);
    const first = await abort.race(
      Promise.race([answered.then((outcome) => ({ outcome })), concluded.then((verdict) => ({ verdict }))]),
      () => abort.abortError(),
    );
    if ("verdict" in first) {
      if (first.verdict) return { verdict: first.verdict };
      const outcome = await abort.race(answered, () => abort.abortError());
      if ("error" in outcome) throw outcome.error;
      return { response: outcome.response };
    }
    if ("error" in first.outcome) throw first.outcome.error;
    const verdict = await abort.race(concluded, () => abort.abortError());
    return verdict ? { response: first.outcome.response, verdict } : { response: first.outcome.response };
  } finally {
    abort.signal.removeEventListener("abort", onAbort);
    // Ends what is still running: the call after a check's verdict, the checks after the call's failure.
    turn.abort(new Error("The model call's turn ended."));
  }
}

// The first verdict that stops or asks again, in the order they come; undefined when every check passed.
function firstVerdict<V>(checks: readonly Promise<V | void>[]): Promise<V | undefined> {
  return new Promise((resolve, reject) => {
    let pending = checks.length;
    if (pending === 0) resolve(undefined);
    for (const check of checks) {
      check.then((verdict) => {
        if (verdict) resolve(verdict);
        else if (--pending === 0) resolve(undefined);
      }, reject);
    }
  });
}
