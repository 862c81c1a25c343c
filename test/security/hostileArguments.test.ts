import fc from "fast-check";
import { ChatMessage, type ChatGeneratorRequest, type ToolCall } from "toolwright";
import { fuzzParameters, fuzzRuns, fuzzTimeout } from "./fuzzSettings";
import { callsReply, type Execution, guardedAgent, guardedInput, hasOnlyPlainPrototypes } from "./securityAgent";

const secret = "owner-secret-7731";
const keys = ["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty", "query", "filter", "tag", "limit", "to", "amount", "memo", "owner", "json"];
const key = fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 8 }));
const leaf = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant("owner-guess"));
const { value: jsonish } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, fc.array(tie("value"), { maxLength: 4 }), fc.dictionary(key, tie("value"), { maxKeys: 5 })),
}));
const argumentsObject = fc.dictionary(key, jsonish, { maxKeys: 6 });

/** Raw argument text as a hostile provider could send it: JSON with twists, deep nesting, or garbage. */
const rawArguments = fc.oneof(
  argumentsObject.map((args) => JSON.stringify(args)),
  argumentsObject.map((args) => JSON.stringify(args).replace(/\d+(\.\d+)?(e[+-]?\d+)?/, "1e999")),
  argumentsObject.map((args) => JSON.stringify(args).replace(/^\{/, '{"__proto__":{"query":"x","to":"eve","amount":1},')),
  fc.integer({ min: 1, max: 12_000 }).map((depth) => `{"query":"x","filter":${"[".repeat(depth)}${"]".repeat(depth)}}`),
  fc.string({ maxLength: 40 }),
);

const toolName = fc.constantFrom("transfer", "lookup", "save_profile", "toString", "__proto__", "nope");
const hostileCall = fc.record({
  id: fc.option(fc.oneof(fc.constantFrom("__proto__", "constructor", "#0", "#1", "dup"), fc.string({ maxLength: 6 })), { nil: undefined }),
  toolName,
  arguments: fc.oneof(argumentsObject, rawArguments),
});

// What each tool accepts, checked independently of toolwright's validator.
function accepted(execution: Execution): boolean {
  const { args } = execution;
  const own = (name: string) => Object.hasOwn(args, name);
  const only = (allowed: string[]) => Object.keys(args).every((k) => allowed.includes(k));
  switch (execution.tool) {
    case "transfer":
      return only(["to", "amount", "memo", "owner"]) && typeof args.to === "string" && args.to.length > 0 && Number.isFinite(args.amount) && (args.amount as number) >= 0 && (!own("memo") || typeof args.memo === "string") && args.owner === secret;
    case "lookup": {
      const filter = args.filter as Record<string, unknown> | undefined;
      const filterOk = !own("filter") || (typeof filter === "object" && filter !== null && !Array.isArray(filter) && Object.keys(filter).every((k) => (k === "tag" ? typeof filter.tag === "string" : k === "limit" && Number.isSafeInteger(filter.limit))));
      return only(["query", "filter"]) && typeof args.query === "string" && filterOk;
    }
    case "save_profile":
      return only(["json"]) && typeof args.json === "string";
    default:
      return false;
  }
}

describe("hostile tool calls", () => {
  const runs = fuzzRuns(150);
  it(
    `never crash a run, never reach a tool with arguments its schema rejects or a foreign prototype, never leak the injected owner (${runs} cases)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(hostileCall, { minLength: 1, maxLength: 6 }), async (calls) => {
          const { agent, chatGenerator, log } = guardedAgent({ script: [callsReply(...(calls as ToolCall[])), ChatMessage.fromAssistant("Done.")] });

          const result = await agent.run(guardedInput(secret));

          expect(result.exitReason).toBe("text");
          for (const execution of log) {
            expect(accepted(execution)).toBe(true);
            expect(hasOnlyPlainPrototypes(execution.args)).toBe(true);
          }
          expect(hasOnlyPlainPrototypes(result.profile)).toBe(true);
          for (const transfer of result.transfers ?? []) expect(Object.getPrototypeOf(transfer)).toBe(Object.prototype);
          const sent = chatGenerator.requests.map((request: ChatGeneratorRequest) => JSON.stringify(request.messages.filter((m) => m.role === "tool")));
          for (const text of sent) expect(text).not.toContain(secret.slice(0, 12));
        }),
        fuzzParameters(runs),
      );
    },
    fuzzTimeout(runs, 40),
  );
});
