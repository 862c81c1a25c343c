import fc from "fast-check";
import { type AgentSnapshot, ChatMessage, type ConfirmationDecision, ConfigurationError, DecisionError, DeferredConfirmationStrategy, SnapshotError, type ToolCall } from "toolwright";
import { canonicalJson } from "../../src/util/canonicalJson";
import { fuzzParameters, fuzzRuns, fuzzTimeout } from "./fuzzSettings";
import { callsReply, guardedAgent, guardedInput, recordingStrategy } from "./securityAgent";

const id = fc.option(fc.oneof(fc.constantFrom("__proto__", "constructor", "toString", "#0", "#1", "#2", "dup", "dup"), fc.string({ maxLength: 4 })), { nil: undefined });
const validCall = fc.oneof(
  fc.record({ id, toolName: fc.constant("transfer"), arguments: fc.record({ to: fc.constantFrom("bob", "carol"), amount: fc.integer({ min: 0, max: 1000 }) }) }),
  fc.record({ id, toolName: fc.constant("lookup"), arguments: fc.record({ query: fc.string({ maxLength: 5 }) }) }),
);
const anyCall = fc.oneof({ weight: 4, arbitrary: validCall }, { weight: 1, arbitrary: fc.record({ id, toolName: fc.constantFrom("toString", "nope"), arguments: fc.constant({}) }) });
const action = fc.constantFrom("confirm", "reject", "modify");

function decisionFor(kind: string, toolName: string, n: number): ConfirmationDecision {
  if (kind !== "modify") return { action: kind as "confirm" | "reject" };
  return { action: "modify", arguments: toolName === "transfer" ? { to: `modified-${n}`, amount: n } : { query: `modified-${n}` } };
}

// What must run, in call order: each valid call exactly as its own decision says.
function expectedRuns(calls: readonly ToolCall[], decisions: ReadonlyArray<ConfirmationDecision>): Array<{ tool: string; args: Record<string, unknown> }> {
  const runs: Array<{ tool: string; args: Record<string, unknown> }> = [];
  let asked = 0;
  for (const call of calls) {
    if (call.toolName !== "transfer" && call.toolName !== "lookup") continue;
    const decision = decisions[asked++]!;
    if (decision.action === "reject") continue;
    const args = decision.action === "modify" ? decision.arguments : call.arguments;
    runs.push({ tool: call.toolName, args: { ...(args as Record<string, unknown>), ...(call.toolName === "transfer" && { owner: "owner-secret-7731" }) } });
  }
  return runs;
}

describe("hostile ids and decisions", () => {
  const runs = fuzzRuns(150);

  it(
    `run every call of a Blocking step only with the decision asked for that call (${runs} cases)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(anyCall, { minLength: 1, maxLength: 8 }), fc.array(action, { minLength: 8, maxLength: 8 }), async (calls, actions) => {
          const decisions: ConfirmationDecision[] = [];
          const blocking = recordingStrategy((request) => {
            const decision = decisionFor(actions[decisions.length]!, request.toolName, decisions.length);
            decisions.push(decision);
            return decision;
          });
          const { agent, log } = guardedAgent({ script: [callsReply(...(calls as ToolCall[])), ChatMessage.fromAssistant("Done.")], confirmationStrategies: { "*": blocking.strategy }, toolConcurrency: 1 });

          await agent.run(guardedInput());

          const keys = blocking.requests.map((r) => r.toolCallId);
          expect(new Set(keys).size).toBe(keys.length);
          expect(log.map(({ tool, args }) => ({ tool, args }))).toEqual(expectedRuns(calls as ToolCall[], decisions));
        }),
        fuzzParameters(runs),
      );
    },
    fuzzTimeout(runs, 40),
  );

  it(
    `pause a Deferred step with one unique key per call and run each only with its own decision (${runs} cases)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(anyCall, { minLength: 1, maxLength: 8 }), fc.array(action, { minLength: 8, maxLength: 8 }), fc.boolean(), async (calls, actions, asMap) => {
          const { agent, log } = guardedAgent({
            script: [callsReply(...(calls as ToolCall[])), ChatMessage.fromAssistant("Done.")],
            confirmationStrategies: { "*": new DeferredConfirmationStrategy() },
            toolConcurrency: 1,
          });

          const paused = await agent.run(guardedInput());
          const pending = paused.pendingConfirmations ?? [];
          const valid = calls.filter((c) => c.toolName === "transfer" || c.toolName === "lookup");
          expect(pending).toHaveLength(valid.length);
          expect(new Set(pending.map((p) => p.toolCallId)).size).toBe(pending.length);
          expect(log).toEqual([]);
          if (pending.length === 0) return;

          const decisions = pending.map((p, n) => decisionFor(actions[n]!, p.toolName, n));
          const entries = pending.map((p, n) => [p.toolCallId, decisions[n]!] as const);
          const snapshot = JSON.parse(JSON.stringify(paused.snapshot)) as AgentSnapshot;
          await agent.run({ snapshot, decisions: asMap ? new Map(entries) : Object.fromEntries(entries) });

          expect(log.map(({ tool, args }) => ({ tool, args }))).toEqual(expectedRuns(calls as ToolCall[], decisions));
        }),
        fuzzParameters(runs),
      );
    },
    fuzzTimeout(runs, 40),
  );
});

// Every place in a JSON value, as a path.
function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const out = [prefix];
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) out.push(...paths(item, [...prefix, Array.isArray(value) ? Number(key) : key]));
  }
  return out;
}

type Edit = { readonly kind: "set" | "delete" | "add"; readonly at: number; readonly value: unknown; readonly key: string };

function applyEdit(snapshot: unknown, edit: Edit): unknown {
  const copy = JSON.parse(JSON.stringify(snapshot)) as Record<string, unknown>;
  const all = paths(copy).filter((p) => p.length > 0);
  const path = all[edit.at % all.length]!;
  let parent = copy as Record<string | number, unknown>;
  for (const segment of path.slice(0, -1)) parent = parent[segment] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (edit.kind === "delete") {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (edit.kind === "set") {
    Object.defineProperty(parent, last, { value: edit.value, enumerable: true, writable: true, configurable: true });
  } else {
    const target = parent[last];
    if (target !== null && typeof target === "object" && !Array.isArray(target)) Object.defineProperty(target, edit.key, { value: edit.value, enumerable: true, writable: true, configurable: true });
    else if (Array.isArray(target)) target.push(edit.value);
  }
  return copy;
}

describe("hostile snapshot edits", () => {
  const runs = fuzzRuns(150);
  const edit = fc.record({
    kind: fc.constantFrom("set", "delete", "add"),
    at: fc.nat(),
    value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(5000, "mallory", "transfer", "#0", "t1", { action: "confirm" })),
    key: fc.constantFrom("__proto__", "constructor", "t1", "#0", "extra", "amount"),
  }) as fc.Arbitrary<Edit>;

  async function paused(snapshotKey?: string) {
    const made = guardedAgent({
      script: [callsReply({ id: "t1", toolName: "transfer", arguments: { to: "bob", amount: 5 } }, { id: "l1", toolName: "lookup", arguments: { query: "x" } }), ChatMessage.fromAssistant("Sent.")],
      confirmationStrategies: { transfer: new DeferredConfirmationStrategy() },
      ...(snapshotKey && { snapshotKey }),
    });
    const result = await made.agent.run(guardedInput());
    return { ...made, snapshot: JSON.parse(JSON.stringify(result.snapshot)) as unknown };
  }

  it(
    `refuse every edit of a signed snapshot with a typed error, and run nothing (${runs} cases)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(edit, async (change) => {
          const made = await paused("s".repeat(32));
          const edited = applyEdit(made.snapshot, change);
          const unchanged = canonicalJson(edited) === canonicalJson(made.snapshot);

          const outcome = await made.agent.run({ snapshot: edited as AgentSnapshot, decisions: { t1: { action: "confirm" } } }).then(
            () => "ran",
            (error: unknown) => error,
          );

          if (unchanged) return;
          expect(outcome).toBeInstanceOf(SnapshotError);
          expect(made.log).toEqual([]);
        }),
        fuzzParameters(runs),
      );
    },
    fuzzTimeout(runs, 40),
  );

  it(
    `answer every edit of an unsigned snapshot with a run or a typed error, never a crash (${runs} cases)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(edit, async (change) => {
          const made = await paused();
          const edited = applyEdit(made.snapshot, change);

          const outcome = await made.agent.run({ snapshot: edited as AgentSnapshot, decisions: { t1: { action: "confirm" } } }).then(
            () => "ran",
            (error: unknown) => error,
          );

          if (outcome !== "ran") expect([SnapshotError, ConfigurationError, DecisionError].some((type) => outcome instanceof type) ? "typed" : outcome).toBe("typed");
          for (const execution of made.log.filter((e) => e.tool === "transfer")) expect([execution.args.to, execution.args.amount]).toEqual(["bob", 5]);
        }),
        fuzzParameters(runs),
      );
    },
    fuzzTimeout(runs, 40),
  );
});
