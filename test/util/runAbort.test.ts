import { getEventListeners } from "node:events";
import { RunAbort } from "../../src/util/runAbort";

const never = () => new Promise<never>(() => undefined);

describe("RunAbort", () => {
  it("follows the caller's signal with one listener, whatever the number of races, and removes it on dispose", async () => {
    const caller = new AbortController();
    const run = new RunAbort(caller.signal);

    const races = Array.from({ length: 100 }, (_, i) => run.race(Promise.resolve(i), () => new Error("aborted")));

    expect(getEventListeners(caller.signal, "abort")).toHaveLength(1);
    await expect(Promise.all(races)).resolves.toHaveLength(100);
    run.dispose();
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
  });

  it("rejects every pending race with its own error when the caller aborts, and aborts its signal with the caller's reason", async () => {
    const caller = new AbortController();
    const run = new RunAbort(caller.signal);
    const first = run.race(never(), () => new Error("model call aborted"));
    const second = run.race(never(), () => new Error("tool call aborted"));

    caller.abort("shutting down");

    await expect(first).rejects.toThrow("model call aborted");
    await expect(second).rejects.toThrow("tool call aborted");
    expect(run.signal.aborted).toBe(true);
    expect(run.signal.reason).toBe("shutting down");
  });

  it("settles a race with its promise's outcome when the run does not abort", async () => {
    const run = new RunAbort();

    await expect(run.race(Promise.resolve("value"), () => new Error("aborted"))).resolves.toBe("value");
    await expect(run.race(Promise.reject(new Error("failed")), () => new Error("aborted"))).rejects.toThrow("failed");
  });

  it("rejects at once when already aborted, and ignores the losing promise's rejection", async () => {
    const run = new RunAbort(AbortSignal.abort("gone"));
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
    const run = new RunAbort();
    const pending = run.race(never(), () => run.signal.reason as Error);

    run.abort(new Error("step failed"));
    run.abort(new Error("second"));

    await expect(pending).rejects.toThrow("step failed");
    expect((run.signal.reason as Error).message).toBe("step failed");
  });
});
