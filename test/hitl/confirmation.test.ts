import { z } from "zod";
import {
  Agent,
  type AgentOptions,
  type AgentSnapshot,
  AlwaysAskPolicy,
  AskOncePolicy,
  BlockingConfirmationStrategy,
  ChatMessage,
  type ConfirmationDecision,
  type ConfirmationRequest,
  ConfigurationError,
  DecisionError,
  DeferredConfirmationStrategy,
  NeverAskPolicy,
  SnapshotError,
  snapshotOf,
  type StateSchema,
  Tool,
  type ToolCall,
} from "toolwright";
import { ScriptedChatGenerator, type ScriptEntry } from "toolwright/testing";

const refundState = {
  customer_id: { type: z.string() },
  refunds: { type: z.array(z.object({ orderId: z.string(), amount: z.number() })) },
} satisfies StateSchema;

type Log = Array<{ tool: string; args: Record<string, unknown> }>;

function refundTools(log: Log): Tool[] {
  return [
    new Tool({
      name: "lookup_order",
      description: "Look up an order.",
      parameters: { type: "object", properties: { orderId: { type: "string" }, customerId: { type: "string" } }, required: ["orderId", "customerId"] },
      inputsFromState: { customer_id: "customerId" },
      function: (args) => {
        log.push({ tool: "lookup_order", args });
        return { orderId: args.orderId, paid: 49 };
      },
    }),
    new Tool({
      name: "issue_refund",
      description: "Refund an order.",
      parameters: {
        type: "object",
        properties: { orderId: { type: "string" }, amount: { type: "number" }, note: { type: "string" }, customerId: { type: "string" } },
        required: ["orderId", "amount", "customerId"],
      },
      inputsFromState: { customer_id: "customerId" },
      outputsToState: { refunds: {} },
      function: (args) => {
        log.push({ tool: "issue_refund", args });
        return { orderId: args.orderId, amount: args.amount };
      },
    }),
    new Tool({
      name: "close_case",
      description: "Close the case.",
      parameters: { type: "object", properties: { summary: { type: "string" } }, required: ["summary"] },
      function: (args) => {
        log.push({ tool: "close_case", args });
        return "closed";
      },
    }),
  ];
}

const refundCall: ToolCall = { id: "r1", toolName: "issue_refund", arguments: { orderId: "A-100", amount: 49 } };
const lookupCall: ToolCall = { id: "l1", toolName: "lookup_order", arguments: { orderId: "A-100" } };

function calls(...toolCalls: ToolCall[]): ChatMessage {
  return ChatMessage.fromAssistant(undefined, { toolCalls });
}

function refundAgent(options: { script: readonly ScriptEntry[] } & Partial<AgentOptions<typeof refundState>>) {
  const { script, ...rest } = options;
  const log: Log = [];
  const chatGenerator = new ScriptedChatGenerator(script);
  const agent = new Agent({ chatGenerator, tools: refundTools(log), stateSchema: refundState, ...rest });
  return { agent, chatGenerator, log };
}

const input = () => ({ messages: [ChatMessage.fromUser("Refund A-100 please")], customer_id: "c-42" });

function asking(decide: (request: ConfirmationRequest) => ConfirmationDecision = () => ({ action: "confirm" }), policy?: AlwaysAskPolicy | NeverAskPolicy | AskOncePolicy) {
  const requests: ConfirmationRequest[] = [];
  const strategy = new BlockingConfirmationStrategy({ ask: (request) => (requests.push(request), decide(request)), ...(policy && { policy }) });
  return { strategy, requests };
}

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the promise to reject");
}

function thrownBy(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the function to throw");
}

const toJson = (messages: readonly ChatMessage[]) => messages.map((m) => m.toJSON());

describe("confirmationStrategies", () => {
  describe("strategy lookup", () => {
    it("asks the strategy of the tool's name, and the \"*\" strategy for the other tools", async () => {
      const exact = asking();
      const star = asking();
      const { agent, log } = refundAgent({
        script: [calls(lookupCall, refundCall), ChatMessage.fromAssistant("Refunded.")],
        confirmationStrategies: { issue_refund: exact.strategy, "*": star.strategy },
      });

      await agent.run(input());

      expect(exact.requests.map((r) => r.toolName)).toEqual(["issue_refund"]);
      expect(star.requests.map((r) => r.toolName)).toEqual(["lookup_order"]);
      expect(log.map((entry) => entry.tool)).toEqual(["lookup_order", "issue_refund"]);
    });

    it("uses the exact-name strategy over \"*\" whatever their order in the object", async () => {
      const exact = asking(() => ({ action: "reject" }));
      const star = asking();
      const { agent, log } = refundAgent({
        script: [calls(refundCall), ChatMessage.fromAssistant("Not refunded.")],
        confirmationStrategies: { "*": star.strategy, issue_refund: exact.strategy },
      });

      await agent.run(input());

      expect(exact.requests).toHaveLength(1);
      expect(star.requests).toHaveLength(0);
      expect(log).toEqual([]);
    });

    it("runs calls to tools without a strategy, when there is no \"*\", without asking", async () => {
      const exact = asking();
      const { agent, log } = refundAgent({ script: [calls(lookupCall), ChatMessage.fromAssistant("Found it.")], confirmationStrategies: { issue_refund: exact.strategy } });

      const result = await agent.run(input());

      expect(exact.requests).toEqual([]);
      expect(log.map((entry) => entry.tool)).toEqual(["lookup_order"]);
      expect(result.messages[2]!.meta).toEqual({});
    });

    it("does not ask about calls to unknown tools or with invalid arguments, which fail as usual", async () => {
      const star = asking();
      const { agent, log } = refundAgent({
        script: [calls({ id: "x", toolName: "wire_money", arguments: {} }, { id: "y", toolName: "issue_refund", arguments: { orderId: "A-100", amount: "lots" } }), ChatMessage.fromAssistant("Oops.")],
        confirmationStrategies: { "*": star.strategy },
      });

      const result = await agent.run(input());

      expect(star.requests).toEqual([]);
      expect(log).toEqual([]);
      expect(result.messages.slice(2, 4).map((m) => m.toolCallResult!.result)).toEqual([
        "Tool 'wire_money' not found. Available tools: lookup_order, issue_refund, close_case.",
        "Tool 'issue_refund' was called with invalid arguments: amount must be number (got string \"lots\"). Call the tool again with corrected arguments.",
      ]);
    });
  });

  describe("confirmation request", () => {
    it("carries the tool's name and description, the call id and only the model's validated arguments: no injected value, no null for an optional parameter", async () => {
      const context = { socket: Symbol("socket"), userId: "agent-7" };
      const star = asking();
      const { agent } = refundAgent({
        script: [calls({ id: "r1", toolName: "issue_refund", arguments: { orderId: "A-100", amount: 49, note: null } }), ChatMessage.fromAssistant("Refunded.")],
        confirmationStrategies: { "*": star.strategy },
      });

      await agent.run({ ...input(), confirmationContext: context });

      expect(star.requests).toHaveLength(1);
      const { signal, ...request } = star.requests[0]!;
      expect(request).toEqual({ toolName: "issue_refund", description: "Refund an order.", arguments: { orderId: "A-100", amount: 49 }, toolCallId: "r1", context });
      expect(signal).toBeInstanceOf(AbortSignal);
      expect(Object.keys(request!.arguments)).toEqual(["orderId", "amount"]);
      expect(request!.context).toBe(context);
    });

    it("passes the confirmationContext unchanged to every strategy of the run, and undefined without one", async () => {
      const context = new Map([["user", "u-1"]]);
      const exact = asking();
      const star = asking();
      const { agent } = refundAgent({
        script: [calls(lookupCall, refundCall), ChatMessage.fromAssistant("Refunded."), calls({ ...lookupCall, id: "l2" }), ChatMessage.fromAssistant("Again.")],
        confirmationStrategies: { issue_refund: exact.strategy, "*": star.strategy },
      });

      await agent.run({ ...input(), confirmationContext: context });
      await agent.run(input());

      expect(exact.requests[0]!.context).toBe(context);
      expect(star.requests[0]!.context).toBe(context);
      expect(star.requests[1]!.context).toBeUndefined();
    });

    it("does not let a strategy change what runs by mutating the request's arguments", async () => {
      const { strategy } = asking((request) => {
        (request.arguments as Record<string, unknown>).amount = 1000;
        return { action: "confirm" };
      });
      const { agent, log } = refundAgent({ script: [calls(refundCall), ChatMessage.fromAssistant("Refunded.")], confirmationStrategies: { issue_refund: strategy } });

      const result = await agent.run(input());

      expect(log).toEqual([{ tool: "issue_refund", args: { orderId: "A-100", amount: 49, customerId: "c-42" } }]);
      expect(result.refunds).toEqual([{ orderId: "A-100", amount: 49 }]);
    });
  });

  describe("confirm", () => {
    it("runs the call with the model's arguments and the injected values, and records the decision in the tool message's meta", async () => {
      const { strategy } = asking(() => ({ action: "confirm", feedback: "ok by me" }));
      const { agent, log } = refundAgent({ script: [calls(refundCall), ChatMessage.fromAssistant("Refunded.")], confirmationStrategies: { issue_refund: strategy } });

      const result = await agent.run(input());

      expect(log).toEqual([{ tool: "issue_refund", args: { orderId: "A-100", amount: 49, customerId: "c-42" } }]);
      expect(result.refunds).toEqual([{ orderId: "A-100", amount: 49 }]);
      expect(result.messages[2]!.toJSON()).toEqual({
        role: "tool",
        meta: { confirmation: { action: "confirm", feedback: "ok by me" } },
        name: null,
        content: [{ tool_call_result: { result: '{"orderId":"A-100","amount":49}', origin: { tool_name: "issue_refund", arguments: { orderId: "A-100", amount: 49 }, id: "r1" }, error: false } }],
      });
    });
  });

  describe("reject", () => {
    it("does not run the call and answers the model with an error tool message carrying the feedback", async () => {
      const { strategy } = asking(() => ({ action: "reject", feedback: "Refunds over 40 need a manager." }));
      const { agent, chatGenerator, log } = refundAgent({ script: [calls(refundCall), ChatMessage.fromAssistant("I could not refund it.")], confirmationStrategies: { issue_refund: strategy } });

      const result = await agent.run(input());

      expect(log).toEqual([]);
      expect(result.refunds).toBeUndefined();
      expect(result.messages[2]!.toJSON()).toEqual({
        role: "tool",
        meta: { confirmation: { action: "reject", feedback: "Refunds over 40 need a manager." } },
        name: null,
        content: [{ tool_call_result: { result: "Refunds over 40 need a manager.", origin: { tool_name: "issue_refund", arguments: { orderId: "A-100", amount: 49 }, id: "r1" }, error: true } }],
      });
      expect(chatGenerator.requests[1]!.messages.at(-1)!.toolCallResult!.result).toBe("Refunds over 40 need a manager.");
      expect(result.lastMessage.text).toBe("I could not refund it.");
    });

    it("answers with the default text when the person gave no feedback", async () => {
      const { strategy } = asking(() => ({ action: "reject" }));
      const { agent } = refundAgent({ script: [calls(refundCall), ChatMessage.fromAssistant("Not refunded.")], confirmationStrategies: { issue_refund: strategy } });

      const result = await agent.run(input());

      expect(result.messages[2]!.toolCallResult).toEqual({ result: "Tool 'issue_refund' was rejected by the user.", origin: refundCall, error: true });
      expect(result.messages[2]!.meta).toEqual({ confirmation: { action: "reject" } });
    });

    it("does not end the run on a rejected exit-condition tool: the model is called again", async () => {
      const closeCall: ToolCall = { id: "c1", toolName: "close_case", arguments: { summary: "refunded" } };
      const { strategy } = asking(() => ({ action: "reject", feedback: "Not yet." }));
      const { agent, chatGenerator, log } = refundAgent({
        script: [calls(closeCall), ChatMessage.fromAssistant("Keeping the case open.")],
        exitConditions: ["close_case"],
        confirmationStrategies: { close_case: strategy },
      });

      const result = await agent.run(input());

      expect(log).toEqual([]);
      expect(chatGenerator.requests).toHaveLength(2);
      expect(result.exitReason).toBe("text");
      expect(result.lastMessage.text).toBe("Keeping the case open.");
    });

    it("ends the run on a confirmed exit-condition tool", async () => {
      const closeCall: ToolCall = { id: "c1", toolName: "close_case", arguments: { summary: "refunded" } };
      const { strategy } = asking();
      const { agent, chatGenerator } = refundAgent({ script: [calls(closeCall)], exitConditions: ["close_case"], confirmationStrategies: { close_case: strategy } });

      const result = await agent.run(input());

      expect(result.exitReason).toBe("close_case");
      expect(chatGenerator.requests).toHaveLength(1);
    });

    it("never makes the run throw, even with raiseOnToolInvocationFailure", async () => {
      const { strategy } = asking(() => ({ action: "reject" }));
      const { agent, log } = refundAgent({
        script: [calls(refundCall), ChatMessage.fromAssistant("Not refunded.")],
        raiseOnToolInvocationFailure: true,
        confirmationStrategies: { issue_refund: strategy },
      });

      const result = await agent.run(input());

      expect(result.exitReason).toBe("text");
      expect(result.messages[2]!.toolCallResult!.error).toBe(true);
      expect(log).toEqual([]);
    });

    it("rejects only the decided call: the other calls of the step run", async () => {
      const { strategy } = asking(() => ({ action: "reject" }));
      const { agent, log } = refundAgent({ script: [calls(lookupCall, refundCall), ChatMessage.fromAssistant("Looked it up only.")], confirmationStrategies: { issue_refund: strategy } });

      const result = await agent.run(input());

      expect(log.map((entry) => entry.tool)).toEqual(["lookup_order"]);
      expect(result.messages.slice(2, 4).map((m) => m.toolCallResult!.error)).toEqual([false, true]);
    });
  });

  describe("modify", () => {
    it("runs the call with the new arguments and records the change in the history", async () => {
      const { strategy } = asking(() => ({ action: "modify", arguments: { orderId: "A-100", amount: 20 }, feedback: "partial refund" }));
      const { agent, chatGenerator, log } = refundAgent({ script: [calls(refundCall), ChatMessage.fromAssistant("Refunded 20.")], confirmationStrategies: { issue_refund: strategy } });

      const result = await agent.run(input());

      expect(log).toEqual([{ tool: "issue_refund", args: { orderId: "A-100", amount: 20, customerId: "c-42" } }]);
      expect(result.refunds).toEqual([{ orderId: "A-100", amount: 20 }]);
      expect(result.messages[1]!.toolCall).toEqual(refundCall);
      expect(result.messages[2]!.toJSON()).toEqual({
        role: "tool",
        meta: { confirmation: { action: "modify", feedback: "partial refund", modelArguments: { orderId: "A-100", amount: 49 } } },
        name: null,
        content: [
          {
            tool_call_result: {
              result: 'The user changed the arguments to {"orderId":"A-100","amount":20} (partial refund). Result: {"orderId":"A-100","amount":20}',
              origin: { tool_name: "issue_refund", arguments: { orderId: "A-100", amount: 20 }, id: "r1" },
              error: false,
            },
          },
        ],
      });
      expect(chatGenerator.requests[1]!.messages.at(-1)).toBe(result.messages[2]);
    });

    it("writes the note without feedback when the person gave none", async () => {
      const { strategy } = asking(() => ({ action: "modify", arguments: { orderId: "A-100", amount: 20 } }));
      const { agent } = refundAgent({ script: [calls(refundCall), ChatMessage.fromAssistant("Refunded 20.")], confirmationStrategies: { issue_refund: strategy } });

      const result = await agent.run(input());

      expect(result.messages[2]!.toolCallResult!.result).toBe('The user changed the arguments to {"orderId":"A-100","amount":20}. Result: {"orderId":"A-100","amount":20}');
      expect(result.messages[2]!.meta).toEqual({ confirmation: { action: "modify", modelArguments: { orderId: "A-100", amount: 49 } } });
    });

    it("does not run the call when the new arguments are invalid, and says why in full, without throwing under raiseOnToolInvocationFailure", async () => {
      const { strategy } = asking(() => ({ action: "modify", arguments: { orderId: "A-100", amount: "twenty", extra: true } }));
      const { agent, log } = refundAgent({
        script: [calls(refundCall), ChatMessage.fromAssistant("The change was invalid.")],
        raiseOnToolInvocationFailure: true,
        confirmationStrategies: { issue_refund: strategy },
      });

      const result = await agent.run(input());

      expect(log).toEqual([]);
      expect(result.messages[2]!.toolCallResult).toEqual({
        result: "Tool 'issue_refund' was given invalid arguments by the user: extra is not a parameter of this tool (parameters: orderId, amount, note); amount must be number (got string \"twenty\"). The call did not run.",
        origin: { id: "r1", toolName: "issue_refund", arguments: { orderId: "A-100", amount: "twenty", extra: true } },
        error: true,
      });
    });

    it("refuses new arguments that try to set an injected parameter", async () => {
      const { strategy } = asking(() => ({ action: "modify", arguments: { orderId: "A-100", amount: 20, customerId: "c-99" } }));
      const { agent, log } = refundAgent({ script: [calls(refundCall), ChatMessage.fromAssistant("No.")], confirmationStrategies: { issue_refund: strategy } });

      const result = await agent.run(input());

      expect(log).toEqual([]);
      expect(result.messages[2]!.toolCallResult!.result).toBe(
        "Tool 'issue_refund' was given invalid arguments by the user: customerId is not a parameter of this tool (parameters: orderId, amount, note). The call did not run.",
      );
    });
  });

  describe("invalid strategy decisions", () => {
    it("rejects the run with a ConfigurationError, without running the call, when a strategy returns a decision that is not valid", async () => {
      const { strategy } = asking(() => ({ action: "deny" }) as unknown as ConfirmationDecision);
      const { agent, log } = refundAgent({ script: [calls(refundCall), ChatMessage.fromAssistant("Refunded.")], confirmationStrategies: { issue_refund: strategy } });

      const error = await rejectionOf(agent.run(input()));

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe(
        'The confirmation strategy for tool \'issue_refund\' decided {"action":"deny"}, which is not a decision: a decision is { action: "confirm" | "reject", feedback? } or { action: "modify", arguments: {...}, feedback? }, or "defer" from a strategy that pauses the run.',
      );
      expect(log).toEqual([]);
    });
  });

  describe("failure snapshots", () => {
    it("keeps a blocking decision in the snapshot of a failed step, so the retry does not ask again", async () => {
      let failures = 1;
      const star = asking();
      const log: Log = [];
      const flaky = new Tool({
        name: "issue_refund",
        description: "Refund an order.",
        parameters: { type: "object", properties: { orderId: { type: "string" }, amount: { type: "number" } }, required: ["orderId", "amount"] },
        function: (args) => {
          log.push({ tool: "issue_refund", args });
          if (failures-- > 0) throw new Error("payment gateway down");
          return "refunded";
        },
      });
      const agent = new Agent({
        chatGenerator: new ScriptedChatGenerator([calls(refundCall), ChatMessage.fromAssistant("Refunded.")]),
        tools: [flaky],
        raiseOnToolInvocationFailure: true,
        confirmationStrategies: { "*": star.strategy },
      });

      const error = await rejectionOf(agent.run({ messages: [ChatMessage.fromUser("Refund A-100")] }));
      const retried = await agent.run({ snapshot: snapshotOf(error)! });

      expect(error.message).toBe("Tool 'issue_refund' failed: payment gateway down.");
      expect(snapshotOf(error)!.toolStep).toEqual({ replies: 1, decisions: { r1: { action: "confirm" } }, pending: [] });
      expect(star.requests).toHaveLength(1);
      expect(log).toHaveLength(2);
      expect(retried.exitReason).toBe("text");
    });
  });

  describe("construction", () => {
    function constructionError(confirmationStrategies: unknown): Error {
      return thrownBy(() => new Agent({ chatGenerator: new ScriptedChatGenerator([]), tools: refundTools([]), stateSchema: refundState, confirmationStrategies: confirmationStrategies as never }));
    }

    it("throws a ConfigurationError for a key that is neither a tool name nor \"*\"", () => {
      const error = constructionError({ issue_refnud: new DeferredConfirmationStrategy() });

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe('Agent has a confirmation strategy for \'issue_refnud\', which is not one of its tools; use a tool name or "*". Tools: lookup_order, issue_refund, close_case.');
    });

    it("throws a ConfigurationError for a strategy without a decide method", () => {
      const error = constructionError({ issue_refund: { ask: () => ({ action: "confirm" }) } });

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe("Agent has a confirmation strategy for 'issue_refund' without a decide method, got an object; use BlockingConfirmationStrategy or DeferredConfirmationStrategy.");
    });

    it("throws a ConfigurationError for strategies that are not an object", () => {
      const error = constructionError([new DeferredConfirmationStrategy()]);

      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe('Agent has confirmationStrategies that are not an object of { toolName or "*": strategy }, got an array.');
    });
  });
});

describe("AlwaysAskPolicy", () => {
  it("asks about every call, equal ones included (the default policy)", async () => {
    const always = asking();
    const byDefault = asking(undefined, new AlwaysAskPolicy());
    const script = () => [calls(refundCall), ChatMessage.fromAssistant("One."), calls({ ...refundCall, id: "r2" }), ChatMessage.fromAssistant("Two.")];
    const first = refundAgent({ script: script(), confirmationStrategies: { issue_refund: always.strategy } });
    const second = refundAgent({ script: script(), confirmationStrategies: { issue_refund: byDefault.strategy } });

    await first.agent.run(input());
    await first.agent.run(input());
    await second.agent.run(input());
    await second.agent.run(input());

    expect(always.requests.map((r) => r.toolCallId)).toEqual(["r1", "r2"]);
    expect(byDefault.requests.map((r) => r.toolCallId)).toEqual(["r1", "r2"]);
  });
});

describe("NeverAskPolicy", () => {
  it("never asks: the call runs as the model made it", async () => {
    const never = asking(() => ({ action: "reject" }), new NeverAskPolicy());
    const { agent, log } = refundAgent({ script: [calls(refundCall), ChatMessage.fromAssistant("Refunded.")], confirmationStrategies: { issue_refund: never.strategy } });

    await agent.run(input());

    expect(never.requests).toEqual([]);
    expect(log.map((entry) => entry.tool)).toEqual(["issue_refund"]);
  });

  it("runs a deferred strategy's calls without pausing", async () => {
    const { agent } = refundAgent({
      script: [calls(refundCall), ChatMessage.fromAssistant("Refunded.")],
      confirmationStrategies: { issue_refund: new DeferredConfirmationStrategy({ policy: new NeverAskPolicy() }) },
    });

    const result = await agent.run(input());

    expect(result.exitReason).toBe("text");
    expect(result.refunds).toEqual([{ orderId: "A-100", amount: 49 }]);
  });
});

describe("AskOncePolicy", () => {
  it("skips asking about a call equal to one already confirmed, ignoring key order, and asks for different arguments", async () => {
    const once = asking(undefined, new AskOncePolicy());
    const { agent, log } = refundAgent({
      script: [
        calls(refundCall),
        calls({ id: "r2", toolName: "issue_refund", arguments: { amount: 49, orderId: "A-100" } }),
        calls({ id: "r3", toolName: "issue_refund", arguments: { orderId: "A-100", amount: 10 } }),
        ChatMessage.fromAssistant("Done."),
      ],
      confirmationStrategies: { issue_refund: once.strategy },
    });

    await agent.run(input());

    expect(once.requests.map((r) => r.toolCallId)).toEqual(["r1", "r3"]);
    expect(log.map((entry) => entry.args.amount)).toEqual([49, 49, 10]);
  });

  it("asks again after a rejection or a modification", async () => {
    const answers: ConfirmationDecision[] = [{ action: "reject" }, { action: "modify", arguments: { orderId: "A-100", amount: 49 } }, { action: "confirm" }];
    const once = asking(() => answers.shift()!, new AskOncePolicy());
    const same = (id: string) => calls({ ...refundCall, id });
    const { agent } = refundAgent({ script: [same("r1"), same("r2"), same("r3"), same("r4"), ChatMessage.fromAssistant("Done.")], confirmationStrategies: { issue_refund: once.strategy } });

    await agent.run(input());

    expect(once.requests.map((r) => r.toolCallId)).toEqual(["r1", "r2", "r3"]);
  });

  it("treats the same arguments for another tool as a different call", () => {
    const policy = new AskOncePolicy();
    const request = (toolName: string, args: Record<string, unknown>): ConfirmationRequest => ({ toolName, description: "", arguments: args, toolCallId: "#0", context: undefined, signal: new AbortController().signal });

    policy.recordDecision(request("issue_refund", { orderId: "A-1", items: [{ b: 1, a: 2 }] }), { action: "confirm" });

    expect(policy.shouldAsk(request("issue_refund", { items: [{ a: 2, b: 1 }], orderId: "A-1" }))).toBe(false);
    expect(policy.shouldAsk(request("close_case", { orderId: "A-1", items: [{ b: 1, a: 2 }] }))).toBe(true);
    expect(policy.shouldAsk(request("issue_refund", { orderId: "A-1", items: [{ a: 1, b: 2 }] }))).toBe(true);
  });

  it("remembers a call confirmed on resuming a deferred run, and does not pause for an equal one", async () => {
    const { agent, log } = refundAgent({
      script: [calls(refundCall), calls({ ...refundCall, id: "r2" }), ChatMessage.fromAssistant("Done.")],
      confirmationStrategies: { issue_refund: new DeferredConfirmationStrategy({ policy: new AskOncePolicy() }) },
    });

    const paused = await agent.run(input());
    const resumed = await agent.run({ snapshot: paused.snapshot!, decisions: { r1: { action: "confirm" } } });

    expect(resumed.exitReason).toBe("text");
    expect(log.map((entry) => entry.tool)).toEqual(["issue_refund", "issue_refund"]);
  });
});

describe("BlockingConfirmationStrategy", () => {
  it("throws a ConfigurationError without an ask function", () => {
    const error = thrownBy(() => new BlockingConfirmationStrategy({} as never));

    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toBe('BlockingConfirmationStrategy needs an ask function: new BlockingConfirmationStrategy({ ask: async (request) => ({ action: "confirm" }) }).');
  });

  it("waits for an async ask before running the call", async () => {
    let answered = false;
    const strategy = new BlockingConfirmationStrategy({
      ask: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        answered = true;
        return { action: "confirm" };
      },
    });
    const seenAnswered: boolean[] = [];
    const log: Log = [];
    const tools = refundTools(log);
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator([calls(refundCall), ChatMessage.fromAssistant("Refunded.")]),
      tools,
      stateSchema: refundState,
      confirmationStrategies: { issue_refund: strategy },
      streamingCallback: (chunk) => void (chunk.type === "toolResult" && seenAnswered.push(answered)),
    });

    await agent.run(input());

    expect(seenAnswered).toEqual([true]);
    expect(log).toHaveLength(1);
  });
});

describe("DeferredConfirmationStrategy", () => {
  const deferredStrategies = () => ({ issue_refund: new DeferredConfirmationStrategy() });

  it("pauses the run before any call of the step runs, with the pending calls and a plain JSON snapshot", async () => {
    const { agent, chatGenerator, log } = refundAgent({ script: [calls(lookupCall, { ...refundCall, arguments: { orderId: "A-100", amount: 49, note: null } })], confirmationStrategies: deferredStrategies() });

    const result = await agent.run(input());

    expect(result.exitReason).toBe("confirmation_required");
    expect(result.pendingConfirmations).toEqual([{ toolCallId: "r1", toolName: "issue_refund", arguments: { orderId: "A-100", amount: 49 } }]);
    expect(log).toEqual([]);
    expect(result.stepCount).toBe(1);
    expect(chatGenerator.requests).toHaveLength(1);
    expect(result.lastMessage.toolCalls.map((c) => c.id)).toEqual(["l1", "r1"]);
    expect(result.messages).toHaveLength(2);
    expect(JSON.parse(JSON.stringify(result.snapshot))).toEqual(result.snapshot);
    expect(result.snapshot!.next).toBe("tool");
    expect(result.snapshot!.toolStep).toEqual({ replies: 1, decisions: {}, pending: result.pendingConfirmations });
  });

  describe("resumed with decisions", () => {
    const decisions: Array<[string, ConfirmationDecision]> = [
      ["confirm", { action: "confirm" }],
      ["reject", { action: "reject", feedback: "No refunds today." }],
      ["modify", { action: "modify", arguments: { orderId: "A-100", amount: 20 }, feedback: "half" }],
    ];

    it.each(decisions)("ends, after a %s decision, with the messages and state of a run that decided in place", async (_name, decision) => {
      const script = () => [calls(lookupCall, refundCall), ChatMessage.fromAssistant("All done.")];
      const inPlace = refundAgent({ script: script(), confirmationStrategies: { issue_refund: new BlockingConfirmationStrategy({ ask: () => decision }) } });
      const expected = await inPlace.agent.run(input());

      const paused = await refundAgent({ script: script(), confirmationStrategies: deferredStrategies() }).agent.run(input());
      const snapshot = JSON.parse(JSON.stringify(paused.snapshot)) as AgentSnapshot;
      const other = refundAgent({ script: script().slice(snapshot.stepCount), confirmationStrategies: deferredStrategies() });
      const resumed = await other.agent.run({ snapshot, decisions: { r1: JSON.parse(JSON.stringify(decision)) } });

      expect(toJson(resumed.messages)).toEqual(toJson(expected.messages));
      expect(resumed.refunds).toEqual(expected.refunds);
      expect(resumed.customer_id).toBe("c-42");
      expect(resumed.exitReason).toBe(expected.exitReason);
      expect(resumed.stepCount).toBe(expected.stepCount);
      expect(other.log).toEqual(inPlace.log);
    });

    it("keeps the decisions a blocking strategy made in the paused step, without asking again", async () => {
      const star = asking();
      const { agent, log } = refundAgent({
        script: [calls(lookupCall, refundCall), ChatMessage.fromAssistant("All done.")],
        confirmationStrategies: { issue_refund: new DeferredConfirmationStrategy(), "*": star.strategy },
      });

      const paused = await agent.run(input());
      expect(paused.snapshot!.toolStep!.decisions).toEqual({ l1: { action: "confirm" } });
      const resumed = await agent.run({ snapshot: paused.snapshot!, decisions: { r1: { action: "confirm" } } });

      expect(star.requests.map((r) => r.toolCallId)).toEqual(["l1"]);
      expect(log.map((entry) => entry.tool)).toEqual(["lookup_order", "issue_refund"]);
      expect(resumed.messages[2]!.meta).toEqual({ confirmation: { action: "confirm" } });
    });

    it("keys a call without an id by its position in the step", async () => {
      const { agent, log } = refundAgent({
        script: [calls(lookupCall, { toolName: "issue_refund", arguments: { orderId: "A-100", amount: 49 } }), ChatMessage.fromAssistant("All done.")],
        confirmationStrategies: deferredStrategies(),
      });

      const paused = await agent.run(input());
      const resumed = await agent.run({ snapshot: paused.snapshot!, decisions: { "#1": { action: "confirm" } } });

      expect(paused.pendingConfirmations).toEqual([{ toolCallId: "#1", toolName: "issue_refund", arguments: { orderId: "A-100", amount: 49 } }]);
      expect(resumed.exitReason).toBe("text");
      expect(log.map((entry) => entry.tool)).toEqual(["lookup_order", "issue_refund"]);
    });

    it("pauses after resuming from a breakpoint before the step, and the decision then runs the call", async () => {
      const { agent, log } = refundAgent({ script: [calls(refundCall), ChatMessage.fromAssistant("Refunded.")], confirmationStrategies: deferredStrategies() });

      const stopped = await rejectionOf(agent.run({ ...input(), breakpoint: { at: "tool", toolName: "issue_refund" } }));
      const paused = await agent.run({ snapshot: snapshotOf(stopped)! });
      const done = await agent.run({ snapshot: paused.snapshot!, decisions: { r1: { action: "confirm" } } });

      expect(paused.exitReason).toBe("confirmation_required");
      expect(paused.snapshot!.visits).toEqual({ chatGenerator: 1, tools: {} });
      expect(done.refunds).toEqual([{ orderId: "A-100", amount: 49 }]);
      expect(log).toHaveLength(1);
    });

    it("pauses again when a later step needs a decision", async () => {
      const { agent } = refundAgent({
        script: [calls(refundCall), calls({ ...refundCall, id: "r2", arguments: { orderId: "A-101", amount: 5 } }), ChatMessage.fromAssistant("Both refunded.")],
        confirmationStrategies: deferredStrategies(),
      });

      const first = await agent.run(input());
      const second = await agent.run({ snapshot: first.snapshot!, decisions: { r1: { action: "confirm" } } });
      const done = await agent.run({ snapshot: second.snapshot!, decisions: { r2: { action: "confirm" } } });

      expect(second.exitReason).toBe("confirmation_required");
      expect(second.pendingConfirmations).toEqual([{ toolCallId: "r2", toolName: "issue_refund", arguments: { orderId: "A-101", amount: 5 } }]);
      expect(second.refunds).toEqual([{ orderId: "A-100", amount: 49 }]);
      expect(done.refunds).toEqual([
        { orderId: "A-100", amount: 49 },
        { orderId: "A-101", amount: 5 },
      ]);
    });
  });

  describe("resume errors", () => {
    async function paused() {
      const setup = refundAgent({ script: [calls(lookupCall, refundCall), ChatMessage.fromAssistant("All done.")], confirmationStrategies: deferredStrategies() });
      const result = await setup.agent.run(input());
      return { ...setup, snapshot: result.snapshot! };
    }

    it("rejects with a DecisionError when a pending call has no decision, and runs nothing", async () => {
      const { agent, snapshot, log } = await paused();

      const error = await rejectionOf(agent.run({ snapshot }));

      expect(error).toBeInstanceOf(DecisionError);
      expect(error.message).toBe(
        'Agent.run resumes a run waiting for confirmation of r1 (issue_refund); pass decisions: { "r1": { action: "confirm" } } (or "reject", or "modify" with arguments).',
      );
      expect(log).toEqual([]);
    });

    it("rejects with a DecisionError for a decision on a call that is not pending", async () => {
      const { agent, snapshot } = await paused();

      const error = await rejectionOf(agent.run({ snapshot, decisions: { r1: { action: "confirm" }, l1: { action: "confirm" } } }));

      expect(error).toBeInstanceOf(DecisionError);
      expect(error.message).toBe("Agent.run was given a decision for 'l1', which is not a call waiting for confirmation; pending calls: r1.");
    });

    it("rejects with a DecisionError for decisions given with a snapshot that waits for none", async () => {
      const { agent } = refundAgent({ script: [calls(refundCall)], confirmationStrategies: deferredStrategies() });
      const error = await rejectionOf(agent.run({ ...input(), breakpoint: { at: "chat_generator" } }));
      const snapshot = snapshotOf(error)!;

      const resumeError = await rejectionOf(agent.run({ snapshot, decisions: { r1: { action: "confirm" } } }));

      expect(resumeError.message).toBe("Agent.run was given a decision for 'r1', which is not a call waiting for confirmation; pending calls: none.");
    });

    it("rejects with a DecisionError for a decision that is not valid", async () => {
      const { agent, snapshot } = await paused();
      const shape = 'a decision is { action: "confirm" | "reject", feedback? } or { action: "modify", arguments: {...}, feedback? }';
      const invalid: Array<[unknown, string]> = [
        [{ action: "approve" }, shape],
        [{ action: "modify" }, "a modify decision needs arguments: an object of the tool's parameters"],
        [{ action: "reject", feedback: 3 }, "feedback must be a string"],
        [{ action: "confirm", arguments: {} }, `a confirm decision has no 'arguments' field; ${shape}`],
        [{ action: "modify", arguments: JSON.parse('{"__proto__":{"amount":1}}') }, 'its arguments are refused: __proto__ is an unknown property ("__proto__" is never accepted as a property name)'],
        ["confirm", shape],
      ];

      for (const [decision, problem] of invalid) {
        const error = await rejectionOf(agent.run({ snapshot, decisions: { r1: decision as ConfirmationDecision } }));
        expect(error).toBeInstanceOf(DecisionError);
        expect(error.message).toBe(`Agent.run has a decision for 'r1' that is not valid: ${problem}.`);
      }
    });

    it("rejects with a DecisionError for decisions that are not an object", async () => {
      const { agent, snapshot } = await paused();

      const error = await rejectionOf(agent.run({ snapshot, decisions: [{ action: "confirm" }] as never }));

      expect(error.message).toBe("Agent.run has decisions that are not an object (or Map) of { toolCallId: decision }, got an array.");
    });

    it("rejects with a SnapshotError for a snapshot that was tampered with", async () => {
      const { agent, snapshot } = await paused();
      const tampered = JSON.parse(JSON.stringify(snapshot)) as { toolStep: { pending: Array<{ arguments: unknown }> } };
      tampered.toolStep.pending[0]!.arguments = "everything";

      const error = await rejectionOf(agent.run({ snapshot: tampered as unknown as AgentSnapshot, decisions: { r1: { action: "confirm" } } }));

      expect(error).toBeInstanceOf(SnapshotError);
      expect(error.message).toBe("Agent.run was given a snapshot whose toolStep.pending[0] is not { toolCallId, toolName, arguments }; resume only with a snapshot a stopped run produced, unchanged.");
    });
  });
});

describe("Agent.run decisions without a snapshot", () => {
  it("is a DecisionError, not a silently fresh run", async () => {
    const { Agent, ChatMessage, DecisionError } = await import("toolwright");
    const { ScriptedChatGenerator } = await import("toolwright/testing");
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([ChatMessage.fromAssistant("hi")]) });
    const error = await agent.run({ messages: [ChatMessage.fromUser("x")], decisions: { c1: { action: "confirm" } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DecisionError);
    expect((error as Error).message).toBe(
      "Agent.run was given decisions without a snapshot; decisions continue a paused run, so pass them with its snapshot: agent.run({ snapshot, decisions }).",
    );
  });
});
