import fc from "fast-check";
import { ChatMessage, type ChatGeneratorRequest, type ToolCall } from "toolwright";
import { fuzzParameters, fuzzRuns, fuzzTimeout } from "./fuzzSettings";
import { accepted, argumentsObject, secret } from "./hostileInput";
import { callsReply, guardedAgent, guardedInput, hasOnlyPlainPrototypes } from "./securityAgent";

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

describe("hostile tool calls", () => {
  const runs = fuzzRuns(150);
  it(
    `never crash a run, never reach a tool with arguments its schema rejects, a non-finite number or a foreign prototype, never leak the injected owner (${runs} cases)`,
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(hostileCall, { minLength: 1, maxLength: 6 }), async (calls) => {
          const { agent, chatGenerator, log } = guardedAgent({ script: [callsReply(...(calls as ToolCall[])), ChatMessage.fromAssistant("Done.")] });

          const result = await agent.run(guardedInput(secret));

          expect(result.exitReason).toBe("text");
          for (const execution of log) {
            expect(accepted(execution)).toBe(true);
            expect(hasOnlyPlainPrototypes(execution.args)).toBe(true);
            expect(JSON.parse(JSON.stringify(execution.args))).toEqual(execution.args);
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
