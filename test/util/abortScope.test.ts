import { getEventListeners, setMaxListeners } from "node:events";
import { AbortError } from "../../src/errors";
import { AbortScope } from "../../src/util/abortScope";

const never = () => new Promise<never>(() => undefined);

describe("AbortScope", () => {
  it("follows the parent signal with one listener, whatever the number of races, and removes it on dispose", async () => {
    const caller = new AbortController();
    const run = new AbortScope(caller.signal);

    const races = Array.from({ length: 100 }, (_, i) => run.race(Promise.resolve(i), () => new Error("aborted")));

    expect(getEventListeners(caller.signal, "abort")).toHaveLength(1);
    await expect(Promise.all(races)).resolves.toHaveLength(100);
    run.dispose();
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
  });

  it("leaves no listener on a parent signal shared by 10,000 scopes, one after another, and so never warns of a leak", async () => {
    const parent = new AbortController().signal;
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    let most = 0;
    try {
      for (let i = 0; i < 10_000; i++) {
        const scope = new AbortScope(parent, { timeoutMs: 60_000 });
        await scope.race(Promise.resolve(i));
        most = Math.max(most, getEventListeners(parent, "abort").length);
        scope.dispose();
      }
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }

    expect(most).toBe(1);
    expect(getEventListeners(parent, "abort")).toHaveLength(0);
    expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
  });

  it("removes its listener on dispose from a parent that 10,000 live scopes share", () => {
    const parent = new AbortController().signal;
    // 10,000 scopes alive at once on one signal are the point here, not a leak.
    setMaxListeners(10_000, parent);
    const scopes = Array.from({ length: 10_000 }, () => new AbortScope(parent));
    expect(getEventListeners(parent, "abort")).toHaveLength(10_000);

    for (const scope of scopes) scope.dispose();

    expect(getEventListeners(parent, "abort")).toHaveLength(0);
  });

  it("rejects every pending race with its own error when the parent aborts, and aborts its signal with the parent's reason", async () => {
    const caller = new AbortController();
    const run = new AbortScope(caller.signal);
    const first = run.race(never(), () => new Error("model call aborted"));
    const second = run.race(never(), () => new Error("tool call aborted"));

    caller.abort("shutting down");

    await expect(first).rejects.toThrow("model call aborted");
    await expect(second).rejects.toThrow("tool call aborted");
    expect(run.signal.aborted).toBe(true);
    expect(run.signal.reason).toBe("shutting down");
    expect(run.reason).toBe("shutting down");
  });

  it("settles a race with its promise's outcome when the scope does not abort", async () => {
    const run = new AbortScope();

    await expect(run.race(Promise.resolve("value"), () => new Error("aborted"))).resolves.toBe("value");
    await expect(run.race(Promise.reject(new Error("failed")), () => new Error("aborted"))).rejects.toThrow("failed");
  });

  it("rejects at once when already aborted, and ignores the losing promise's rejection", async () => {
    const run = new AbortScope(AbortSignal.abort("gone"));
    const unhandled = jest.fn();
    process.on("unhandledRejection", unhandled);
    try {
      await expect(run.race(Promise.reject(new Error("late failure")), () => new Error("aborted"))).rejects.toThrow("aborted");
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off("unhandledRejection", unhandled);
    }
    expect(run.signal.reason).toBe("gone");
  });

  it("aborts with a reason of its own (a throwing step stops the step's other calls), once", async () => {
    const run = new AbortScope();
    const pending = run.race(never(), () => run.signal.reason as Error);

    run.abort(new Error("step failed"));
    run.abort(new Error("second"));

    await expect(pending).rejects.toThrow("step failed");
    expect((run.signal.reason as Error).message).toBe("step failed");
  });

  it("rejects a race with the abort's reason when no onAbort is given, and throws it from throwIfAborted", async () => {
    const scope = new AbortScope();
    const pending = scope.race(never());
    expect(() => scope.throwIfAborted()).not.toThrow();

    scope.abort(new Error("stopped"));

    await expect(pending).rejects.toThrow("stopped");
    expect(() => scope.throwIfAborted()).toThrow("stopped");
  });

  it("aborts without a reason as AbortController does: with a DOMException named AbortError", () => {
    const scope = new AbortScope();
    const controller = new AbortController();

    scope.abort();
    controller.abort();

    expect(scope.reason).toBeInstanceOf(DOMException);
    expect((scope.reason as DOMException).name).toBe("AbortError");
    expect((scope.reason as DOMException).message).toBe((controller.signal.reason as DOMException).message);
    expect(scope.signal.reason).toBe(scope.reason);
  });

  it("maps the parent's reason with parentReason", async () => {
    const caller = new AbortController();
    const scope = new AbortScope(caller.signal, { parentReason: (reason) => new AbortError("The model request was aborted.", { cause: reason }) });
    const pending = scope.race(never());

    caller.abort("user left");

    const error = (await pending.catch((e: unknown) => e)) as AbortError;
    expect(error).toBeInstanceOf(AbortError);
    expect(error.message).toBe("The model request was aborted.");
    expect(error.cause).toBe("user left");
    expect(new AbortScope(AbortSignal.abort("before"), { parentReason: (reason) => `mapped ${String(reason)}` }).reason).toBe("mapped before");
  });

  it("gives an AbortError for abortError(): the reason itself when it is one, else one whose cause is the reason", () => {
    const own = new AbortError("The agent stream was closed by its consumer.");
    const closed = new AbortScope();
    closed.abort(own);
    const plain = new AbortScope(AbortSignal.abort("shutting down"));

    expect(closed.abortError()).toBe(own);
    expect(plain.abortError()).toBeInstanceOf(AbortError);
    expect(plain.abortError().message).toBe("The agent run was aborted.");
    expect(plain.abortError().cause).toBe("shutting down");
  });

  it("aborts with onTimeout() when its time limit passes, and counts remainingMs down to it", async () => {
    const scope = new AbortScope(undefined, { timeoutMs: 30, onTimeout: () => new Error("too slow") });
    expect(scope.remainingMs).toBeLessThanOrEqual(30);
    expect(new AbortScope().remainingMs).toBe(Infinity);

    await expect(scope.race(never())).rejects.toThrow("too slow");
    expect(scope.remainingMs).toBeLessThanOrEqual(0);
  });

  it("does not call onTimeout once disposed, nor once aborted otherwise", async () => {
    const onTimeout = jest.fn(() => new Error("too slow"));
    const disposed = new AbortScope(undefined, { timeoutMs: 10, onTimeout });
    disposed.dispose();
    const abortedFirst = new AbortScope(undefined, { timeoutMs: 10, onTimeout });
    abortedFirst.abort(new Error("stopped"));
    const alreadyAborted = new AbortScope(AbortSignal.abort("gone"), { timeoutMs: 10, onTimeout });

    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(onTimeout).not.toHaveBeenCalled();
    expect(disposed.aborted).toBe(false);
    expect(alreadyAborted.reason).toBe("gone");
  });

  it("aborts with onIdle() when a wait through raceIdle outlasts idleTimeoutMs, and not when each wait ends sooner", async () => {
    const scope = new AbortScope(undefined, { idleTimeoutMs: 40, onIdle: () => new Error("silent") });
    for (let i = 0; i < 3; i++) await expect(scope.raceIdle(Promise.resolve(i))).resolves.toBe(i);
    expect(scope.aborted).toBe(false);

    await expect(scope.raceIdle(never())).rejects.toThrow("silent");
    expect((scope.reason as Error).message).toBe("silent");
  });

  it("ends a sleep at once with the abort's reason", async () => {
    const scope = new AbortScope();
    const sleeping = scope.sleep(3_600_000);

    scope.abort(new Error("stopped"));

    await expect(sleeping).rejects.toThrow("stopped");
  });

  it("gives each childSignal a controller of its own, aborted with the scope's reason and without a listener", () => {
    const scope = new AbortScope();
    const first = scope.childSignal();
    const second = scope.childSignal();
    expect(first).not.toBe(second);
    expect(first).not.toBe(scope.signal);
    expect(getEventListeners(scope.signal, "abort")).toHaveLength(0);

    scope.abort(new Error("stopped"));

    expect((first.reason as Error).message).toBe("stopped");
    expect(first.reason).toBe(scope.reason);
    expect(second.reason).toBe(scope.reason);
    expect(scope.childSignal().reason).toBe(scope.reason);
  });

  it("leaves its child signals alone on dispose", () => {
    const scope = new AbortScope();
    const child = scope.childSignal();

    scope.dispose();
    scope.abort(new Error("after the end"));

    expect(child.aborted).toBe(false);
  });
});
