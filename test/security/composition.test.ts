import fc from "fast-check";
import { z } from "zod";
import { Agent, ChatMessage, DecisionError, DeferredConfirmationStrategy, OutputValidationError, SnapshotError, Tool, type ToolCall } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { fuzzParameters, fuzzRuns, fuzzTimeout } from "./fuzzSettings";
import { rejectionOf } from "./securityAgent";

const calls = (...list: ToolCall[]) => ChatMessage.fromAssistant(undefined, { toolCalls: list });
const secret = "acct-7f3a-SECRET";

/** A coordinator whose `payments` agent tool gets the account from state and defers `transfer` to a person. */
function team(options: { snapshotKey?: string } = {}) {
  const transfers: string[] = [];
  const transfer = new Tool({
    name: "transfer",
    description: "Send money.",
    parameters: { type: "object", properties: { amount: { type: "number" }, account: { type: "string" } }, required: ["amount", "account"] },
    inputsFromState: { account: "account" },
    function: (args) => {
      transfers.push(`${String(args.amount)} from ${String(args.account)}`);
      return "sent";
    },
  });
  const payments = new Agent({
    chatGenerator: new ScriptedChatGenerator(Array.from({ length: 6 }, () => (request: { messages: readonly ChatMessage[] }) => (request.messages.at(-1)!.role === "tool" ? ChatMessage.fromAssistant("done") : calls({ id: "p1", toolName: "transfer", arguments: { amount: 5 } })))),
    tools: [transfer],
    stateSchema: { account: { type: z.string() } },
    confirmationStrategies: { transfer: new DeferredConfirmationStrategy() },
  });
  const coordinator = new Agent({
    chatGenerator: new ScriptedChatGenerator(Array.from({ length: 6 }, () => (request: { messages: readonly ChatMessage[] }) => (request.messages.at(-1)!.role === "tool" ? ChatMessage.fromAssistant("ok") : calls({ id: "c1", toolName: "payments", arguments: { input: "pay 5" } })))),
    tools: [payments.asTool({ name: "payments", description: "Makes payments.", inputsFromState: { account: "account" } })],
    stateSchema: { account: { type: z.string() } },
    ...(options.snapshotKey && { snapshotKey: options.snapshotKey }),
  });
  return { coordinator, transfers };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// Every path to a value in a JSON tree (objects and arrays), for edits anywhere in a snapshot.
function paths(value: Json, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== "object") return [prefix];
  const entries: Array<[string | number, Json]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  return [prefix, ...entries.flatMap(([key, child]) => paths(child, [...prefix, key]))];
}

function edit(root: Json, path: Array<string | number>, value: Json | undefined): Json {
  if (path.length === 0) return value ?? null;
  const copy = JSON.parse(JSON.stringify(root)) as Json;
  let node = copy as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  if (value === undefined) delete node[path.at(-1)!];
  else node[path.at(-1)!] = value;
  return copy;
}

const hostileValue: fc.Arbitrary<Json | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue() as fc.Arbitrary<Json>,
  fc.constantFrom<Json>("__proto__", "constructor", "c1/p1", "p1", { action: "confirm" }, { c1: { action: "confirm" } }, [], {}, -1, 1e308),
);

describe("composition under hostile input", () => {
  const runs = fuzzRuns(60);

  test(`a signed team snapshot edited anywhere (nested runs included) is refused, and the nested transfer never runs (${runs} cases)`, async () => {
    const { coordinator, transfers } = team({ snapshotKey: "k".repeat(32) });
    const paused = await coordinator.run({ messages: [ChatMessage.fromUser("pay")], account: secret });
    const snapshot = JSON.parse(JSON.stringify(paused.snapshot)) as Json;
    const targets = paths(snapshot).filter((p) => p[0] !== "signature" && p.length > 0);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), hostileValue, async (path, value) => {
        const edited = edit(snapshot, path, value);
        if (JSON.stringify(edited) === JSON.stringify(snapshot)) return;
        const error = await rejectionOf(coordinator.run({ snapshot: edited as never, decisions: { "c1/p1": { action: "reject" } } }));
        expect(error).toBeInstanceOf(SnapshotError);
        expect(transfers).toEqual([]);
      }),
      fuzzParameters(runs),
    );
  }, fuzzTimeout(runs, 50));

  test(`an unsigned team snapshot edited anywhere resumes or is refused with SnapshotError/DecisionError, never a TypeError; a rejected transfer never runs (${runs} cases)`, async () => {
    const paused = await team().coordinator.run({ messages: [ChatMessage.fromUser("pay")], account: secret });
    const snapshot = JSON.parse(JSON.stringify(paused.snapshot)) as Json;
    const nestedPaths = paths(snapshot).filter((p) => p[0] === "toolStep");
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...nestedPaths), hostileValue, async (path, value) => {
        // A fresh team (and scripted models) per case, as another process resuming would have.
        const { coordinator, transfers } = team();
        const edited = edit(snapshot, path, value);
        try {
          const result = await coordinator.run({ snapshot: edited as never, decisions: { "c1/p1": { action: "reject" } } });
          expect(["text", "confirmation_required"]).toContain(result.exitReason);
        } catch (error) {
          if (![SnapshotError, DecisionError].some((type) => error instanceof type)) throw new Error(`unexpected ${String(error)} ${(error as Error).stack}`);
        }
        // Only a forged decision inside the nested snapshot could confirm it; the one given rejects it, and pending calls need one.
        const forgedConfirm = JSON.stringify(edited).includes('"action":"confirm"');
        if (!forgedConfirm) expect(transfers).toEqual([]);
      }),
      fuzzParameters(runs),
    );
  }, fuzzTimeout(runs, 50));

  test(`the calling model cannot fill or override the sub-agent's injected state (${runs} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue(), { maxKeys: 4 }), async (extra) => {
        const { coordinator, transfers } = team();
        const args = { input: "pay", account: "attacker", ...extra };
        const coordinatorModel = new ScriptedChatGenerator([calls({ id: "c1", toolName: "payments", arguments: args }), ChatMessage.fromAssistant("ok")]);
        const probe = new Agent({ chatGenerator: coordinatorModel, tools: coordinator.tools, stateSchema: { account: { type: z.string() } } });
        const result = await probe.run({ messages: [ChatMessage.fromUser("pay")], account: secret });
        const answer = result.messages.find((m) => m.role === "tool")!.toolCallResult!;
        expect(answer.error).toBe(true);
        expect(answer.result).toContain("Tool 'payments' was called with invalid arguments");
        expect(answer.result).not.toContain(secret);
        expect(transfers).toEqual([]);
      }),
      fuzzParameters(runs),
    );
  }, fuzzTimeout(runs, 30));

  test(`a typed output is always valid against its schema: hostile answers give output that parses, or OutputValidationError (${runs * 3} cases)`, async () => {
    const schema = z.object({ title: z.string().min(1), count: z.number().int().nonnegative(), tags: z.array(z.string()).max(3).optional() });
    const answer = fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.record({ title: fc.oneof(fc.string(), fc.jsonValue()), count: fc.oneof(fc.integer(), fc.double(), fc.jsonValue()), tags: fc.oneof(fc.constant(null), fc.array(fc.string(), { maxLength: 5 }), fc.jsonValue()) }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
      fc.string().map((s) => "```json\n" + s + "\n```"),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(answer, { minLength: 1, maxLength: 3 }), async (answers) => {
        const agent = new Agent({ chatGenerator: new ScriptedChatGenerator(answers.map((a) => ChatMessage.fromAssistant(a.trim() === "" ? "empty" : a))), outputSchema: schema, maxOutputRetries: answers.length - 1 });
        try {
          const result = await agent.run({ messages: [ChatMessage.fromUser("go")] });
          if (result.exitReason !== "text") throw new Error(`unexpected ${result.exitReason}`);
          expect(schema.safeParse(result.output).success).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(OutputValidationError);
          expect((error as OutputValidationError).problems.length).toBeGreaterThan(0);
        }
      }),
      fuzzParameters(runs * 3),
    );
  }, fuzzTimeout(runs * 3, 20));
});
