import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, ChatMessage, ConfigurationError, State, Tool, type ToolEndEvent, type ToolOptions } from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { z } from "zod";
import { capResultText } from "../../src/tools/toolResultText";
import { type InvokeToolsOptions, invokeTools } from "../../src/tools/invokeTools";
import { reportToolFault } from "../../src/tools/reportToolFault";
import { retryDelay } from "../../src/tools/toolRetry";
import { AbortScope } from "../../src/util/abortScope";
import { redactValues } from "../../src/util/redact";

const stateSchema = { page: { type: z.string() } };

function makeTool(extra: Partial<ToolOptions>): Tool {
  return new Tool({ name: "fetch_page", description: "Fetch a page.", parameters: { type: "object", properties: {} }, function: () => "ok", ...extra });
}

function options(tools: Tool[], overrides: Partial<InvokeToolsOptions> = {}): InvokeToolsOptions {
  return {
    tools: new Map(tools.map((t) => [t.name, t])),
    state: new State(stateSchema) as unknown as State,
    abort: new AbortScope(),
    redact: redactValues,
    reportFault: () => undefined,
    concurrency: 4,
    raiseOnFailure: false,
    ...overrides,
  };
}

const call = { id: "call_1", toolName: "fetch_page", arguments: {} };

function configurationMessage(make: () => unknown): string {
  try {
    make();
  } catch (error) {
    if (error instanceof ConfigurationError) return error.message;
    throw error;
  }
  throw new Error("no ConfigurationError");
}

/** A server on 127.0.0.1 that answers 503 to its first `failures` requests, then 200 with "page body". */
async function flakyServer(failures: number): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server: Server = createServer((_request, response) => {
    count += 1;
    if (count <= failures) response.writeHead(503).end("unavailable");
    else response.writeHead(200, { "content-type": "text/plain" }).end("page body");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, requests: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A tool that fetches `url` with the call's signal; a 503 throws (marked retryable when `retryable`). */
function fetchTool(url: string, extra: Partial<ToolOptions> & { retryable?: boolean }): Tool {
  const { retryable, ...rest } = extra;
  return makeTool({
    function: async (_args, context) => {
      const response = await fetch(url, { signal: context.signal });
      const body = await response.text();
      if (response.status === 503) throw Object.assign(new Error(`HTTP 503 for key ${context.idempotencyKey}`), retryable ? { retryable: true } : {});
      return body;
    },
    ...rest,
  });
}

describe("Tool", () => {
  it("rejects limits that break their rules with exact messages", () => {
    expect(configurationMessage(() => makeTool({ timeoutMs: 0 }))).toBe("Tool 'fetch_page' has timeoutMs number 0: it must be a whole number of milliseconds from 1 to 2147483647, or left out for the Agent's toolTimeoutMs.");
    expect(configurationMessage(() => makeTool({ maxResultChars: 1.5 }))).toBe("Tool 'fetch_page' has maxResultChars number 1.5: it must be a whole number of at least 1, or left out for the Agent's maxToolResultChars.");
    expect(configurationMessage(() => makeTool({ idempotent: "yes" as never }))).toBe("Tool 'fetch_page' has idempotent string \"yes\": it must be true or false.");
    expect(configurationMessage(() => makeTool({ retries: 3 as never }))).toBe("Tool 'fetch_page' has retries that are not { attempts, backoffMs?, maxBackoffMs? }, got number 3.");
    expect(configurationMessage(() => makeTool({ retries: { attempts: 2, delay: 5 } as never }))).toBe("Tool 'fetch_page' has retries with unknown option 'delay'; the options are attempts, backoffMs and maxBackoffMs.");
    expect(configurationMessage(() => makeTool({ retries: { attempts: 11 } }))).toBe("Tool 'fetch_page' has retries.attempts number 11: it must be a whole number from 1 to 10 (the first call included).");
    expect(configurationMessage(() => makeTool({ retries: { attempts: 2, backoffMs: -1 } }))).toBe("Tool 'fetch_page' has retries.backoffMs number -1: it must be a whole number of milliseconds from 0 to 2147483647.");
    expect(configurationMessage(() => makeTool({ retries: { attempts: 2, backoffMs: 500, maxBackoffMs: 100 } }))).toBe("Tool 'fetch_page' has retries.maxBackoffMs 100 below retries.backoffMs 500: raise maxBackoffMs or lower backoffMs.");
    expect(configurationMessage(() => new Agent({ chatGenerator: new ScriptedChatGenerator([]), maxToolResultChars: 0 }))).toBe(
      "Agent has maxToolResultChars number 0: it must be a whole number of at least 1 (the most characters of one tool result the model is sent). Default 100000.",
    );
  });

  it("fills retry defaults and exposes the limits on the Tool", () => {
    const tool = makeTool({ timeoutMs: 50, maxResultChars: 10, retries: { attempts: 3 } });
    expect([tool.timeoutMs, tool.maxResultChars, tool.retries]).toEqual([50, 10, { attempts: 3, backoffMs: 200, maxBackoffMs: 10_000 }]);
  });
});

describe("capResultText", () => {
  it("cuts text over the limit with a notice naming the tool and both sizes", () => {
    expect(capResultText("abcdef", "x", 6)).toBe("abcdef");
    expect(capResultText("a".repeat(1_234_567), "x", 1000)).toBe(`${"a".repeat(1000)}\n[Tool 'x' returned 1,234,567 characters; the first 1,000 are shown]`);
  });

  it("never splits a surrogate pair", () => {
    expect(capResultText("ab😀cd", "x", 3)).toBe("ab\n[Tool 'x' returned 6 characters; the first 2 are shown]");
  });
});

describe("invokeTools", () => {
  it("sends the model at most 100,000 characters of a 50 MiB result while state gets all of it", async () => {
    const big = "x".repeat(50 * 1024 * 1024);
    const tool = makeTool({ function: () => ({ body: big }), outputsToState: { page: { source: "body" } }, outputsToString: { source: "body" } });
    const run = options([tool]);
    const [outcome] = await invokeTools([call], run);
    expect(outcome!.failed).toBe(false);
    expect(outcome!.message.toolCallResult!.result).toBe(`${"x".repeat(100_000)}\n[Tool 'fetch_page' returned 52,428,800 characters; the first 100,000 are shown]`);
    expect((run.state.get("page") as string).length).toBe(52_428_800);
    expect((outcome!.value as { body: string }).body.length).toBe(52_428_800);
  });

  it("lets a tool's maxResultChars override the run's", async () => {
    const generous = makeTool({ function: () => "y".repeat(30), maxResultChars: 25 });
    const [outcome] = await invokeTools([call], options([generous], { maxResultChars: 5 }));
    expect(outcome!.message.toolCallResult!.result).toBe(`${"y".repeat(25)}\n[Tool 'fetch_page' returned 30 characters; the first 25 are shown]`);
    const [capped] = await invokeTools([call], options([makeTool({ function: () => "y".repeat(30) })], { maxResultChars: 5 }));
    expect(capped!.message.toolCallResult!.result).toBe("yyyyy\n[Tool 'fetch_page' returned 30 characters; the first 5 are shown]");
  });

  it("times a call out by the tool's timeoutMs, overriding the run's", async () => {
    let signal: AbortSignal | undefined;
    const tool = makeTool({ timeoutMs: 20, function: (_args, context) => ((signal = context.signal), new Promise(() => undefined)) });
    const [outcome] = await invokeTools([call], options([tool], { timeoutMs: 600_000 }));
    expect(outcome!.failed).toBe(true);
    expect(outcome!.message.toolCallResult!.result).toBe("Tool 'fetch_page' failed: it did not finish within 20 ms.");
    expect(signal!.aborted).toBe(true);
  });

  it("retries an idempotent tool against a server that fails twice", async () => {
    const server = await flakyServer(2);
    try {
      const tool = fetchTool(server.url, { idempotent: true, retries: { attempts: 3, backoffMs: 1 } });
      const [outcome] = await invokeTools([call], options([tool]), { runId: () => "run_1", step: 1, keys: ["call_1"] });
      expect(outcome!.failed).toBe(false);
      expect(outcome!.message.toolCallResult!.result).toBe("page body");
      expect(server.requests()).toBe(3);
    } finally {
      await server.close();
    }
  });

  it("keeps the idempotency key across attempts and counts them in onToolEnd", async () => {
    const server = await flakyServer(2);
    const keys: string[] = [];
    try {
      const tool = makeTool({
        annotations: { idempotentHint: true },
        retries: { attempts: 5, backoffMs: 1 },
        function: async (_args, context) => {
          keys.push(context.idempotencyKey);
          const response = await fetch(server.url, { signal: context.signal });
          if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
          return response.text();
        },
      });
      const ends: ToolEndEvent[] = [];
      const agent = new Agent({
        chatGenerator: new ScriptedChatGenerator([toolCallReply(["fetch_page", {}, "call_1"]), ChatMessage.fromAssistant("done")]),
        tools: [tool],
        hooks: { onToolEnd: (event) => void ends.push(event) },
      });
      const result = await agent.run({ messages: [ChatMessage.fromUser("go")], runId: "run_7" });
      expect(result.messages.find((m) => m.toolCallResult)?.toolCallResult?.result).toBe("page body");
      expect(server.requests()).toBe(3);
      expect(keys).toEqual(["run_7:1:call_1", "run_7:1:call_1", "run_7:1:call_1"]);
      expect(ends.map((e) => [e.toolName, e.attempts, e.error])).toEqual([["fetch_page", 3, undefined]]);
    } finally {
      await server.close();
    }
  });

  it("does not retry a tool that is not idempotent", async () => {
    const server = await flakyServer(2);
    try {
      const tool = fetchTool(server.url, { retries: { attempts: 3, backoffMs: 1 } });
      const [outcome] = await invokeTools([call], options([tool]));
      expect(outcome!.failed).toBe(true);
      expect(outcome!.message.toolCallResult!.result).toBe("Tool 'fetch_page' failed: HTTP 503 for key none:0:call_1.");
      expect(server.requests()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it("retries a tool that is not idempotent when the error says it is retryable, up to its attempts", async () => {
    const server = await flakyServer(5);
    try {
      const tool = fetchTool(server.url, { retryable: true, retries: { attempts: 2, backoffMs: 1 } });
      const [outcome] = await invokeTools([call], options([tool]));
      expect(outcome!.message.toolCallResult!.result).toBe("Tool 'fetch_page' failed: HTTP 503 for key none:0:call_1.");
      expect(server.requests()).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("ends at once when the run aborts during a backoff", async () => {
    const server = await flakyServer(10);
    try {
      const tool = fetchTool(server.url, { idempotent: true, retries: { attempts: 3, backoffMs: 600_000, maxBackoffMs: 600_000 } });
      const run = options([tool]);
      const pending = invokeTools([call], run);
      while (server.requests() < 1) await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => setTimeout(resolve, 20));
      run.abort.abort();
      await expect(pending).rejects.toThrow("The agent run was aborted.");
      expect(server.requests()).toBe(1);
    } finally {
      await server.close();
    }
  });
});

describe("retryDelay", () => {
  it("doubles the backoff per retry up to maxBackoffMs, jittered between half and all of it", () => {
    const tool = makeTool({ retries: { attempts: 5, backoffMs: 100, maxBackoffMs: 300 } });
    expect([1, 2, 3].map((attempt) => retryDelay(tool, attempt, () => 0))).toEqual([50, 100, 150]);
    expect([1, 2, 3].map((attempt) => retryDelay(tool, attempt, () => 1))).toEqual([100, 200, 300]);
  });
});
