import fc from "fast-check";
import { z } from "zod";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { Agent, type AgentHooks, ChatMessage, type StateSchema, Tool } from "toolwright";
import { openTelemetry } from "toolwright/otel";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { redactValues } from "../../src/util/redact";
import { fuzzParameters, fuzzRuns, fuzzTimeout } from "./fuzzSettings";

/** A covered form of a secret inside a message: the text put in, and the part of it that must not survive redaction. */
interface Occurrence {
  readonly inserted: string;
  readonly revealing: string;
}

// Mostly printable ASCII, but also any code point, graphemes of several code points, letters whose
// case forms are unusual, and unpaired surrogates.
const character = fc.oneof(
  { arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }), weight: 6 },
  { arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), weight: 2 },
  { arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }), weight: 2 },
  { arbitrary: fc.constantFrom("ß", "ẞ", "İ", "ı", "Σ", "σ", "ς", "K", "Å", "ǅ", "ﬁ", "ŉ", "ϴ", "Ω", "𐐀", "𐐨", "\n", '"', "\\", " ", "+", "/", "%"), weight: 2 },
  { arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)), weight: 1 },
);
const text = (maxLength: number) => fc.array(character, { maxLength }).map((parts) => parts.join(""));
const secretString = fc.array(character, { minLength: 3, maxLength: 16 }).map((parts) => parts.join(""));
const secretNumber = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })).filter((n) => String(n).length >= 3);
const secretBigInt = fc.bigInt().filter((n) => String(n).length >= 3);

// Each code point in its own case, upper case or lower case, where that is one code point too
// (case mappings that change length, like "ß" → "SS", are not covered).
function caseVariant(secret: string): fc.Arbitrary<string> {
  const points = [...secret];
  const choice = fc.constantFrom<"upper" | "lower" | "keep">("upper", "lower", "keep");
  const choices = fc.oneof(choice.map((c) => points.map(() => c)), fc.array(choice, { minLength: points.length, maxLength: points.length }));
  return choices.map((chosen) =>
    points
      .map((point, i) => {
        const mapped = chosen[i] === "upper" ? point.toUpperCase() : chosen[i] === "lower" ? point.toLowerCase() : point;
        return [...mapped].length === 1 ? mapped : point;
      })
      .join(""),
  );
}

// The secret's bytes with arbitrary bytes before and after, in base64 or base64url: the characters
// that encode the secret's bytes alone (character i encodes bits 6i to 6i+5) must go.
function insideBase64(secret: string): fc.Arbitrary<Occurrence> {
  return fc.record({ before: fc.uint8Array({ maxLength: 5 }), after: fc.uint8Array({ maxLength: 5 }), url: fc.boolean() }).map(({ before, after, url }) => {
    const bytes = Buffer.from(secret, "utf8");
    const inserted = Buffer.concat([before, bytes, after]).toString(url ? "base64url" : "base64");
    return { inserted, revealing: inserted.slice(Math.ceil((8 * before.length) / 6), Math.floor((8 * (before.length + bytes.length)) / 6)) };
  });
}

const jsonEscaped = (s: string) => JSON.stringify(s).slice(1, -1);
const whole = (form: string): Occurrence => ({ inserted: form, revealing: form });

/** Every covered form of the secret's text. */
function coveredForm(secret: string): fc.Arbitrary<Occurrence> {
  const forms: Array<fc.Arbitrary<Occurrence>> = [
    fc.constant(whole(secret)),
    caseVariant(secret).map(whole),
    fc.constant(whole(jsonEscaped(secret))),
    fc.constant(whole(jsonEscaped(jsonEscaped(secret)))),
    fc.boolean().map((url) => whole(Buffer.from(secret, "utf8").toString(url ? "base64url" : "base64"))),
    insideBase64(secret),
  ];
  // encodeURIComponent and URLSearchParams have no form of unpaired surrogates.
  if (!/\p{Cs}/u.test(secret)) forms.push(fc.constant(whole(encodeURIComponent(secret))), fc.constant(whole(new URLSearchParams([["", secret]]).toString().slice(1))));
  return fc.oneof(...forms);
}

// Object keys (undefined for an array) from the secret outwards, repeated to the depth.
const nesting = (maxDepth: number) =>
  fc
    .record({ depth: fc.integer({ min: 0, max: maxDepth }), keys: fc.array(fc.option(fc.string({ maxLength: 3 }), { nil: undefined }), { minLength: 1, maxLength: 6 }) })
    .map(({ depth, keys }) => Array.from({ length: depth }, (_, i) => keys[i % keys.length]));

function nest(value: unknown, path: ReadonlyArray<string | undefined>): unknown {
  let nested = value;
  for (const key of path) nested = key === undefined ? [nested] : { [key]: nested };
  return nested;
}

/** A secret, where it sits in the injected value, and a message that holds it in one to four covered forms between arbitrary text. */
const scenario = (secret: fc.Arbitrary<string | number | bigint>, maxDepth: number) =>
  secret.chain((value) =>
    fc.record({
      value: fc.constant(value),
      path: nesting(maxDepth),
      parts: fc.array(fc.tuple(text(12), coveredForm(String(value))), { minLength: 1, maxLength: 4 }),
      end: text(12),
    }),
  );

const messageOf = (parts: ReadonlyArray<readonly [string, Occurrence]>, end: string) => parts.map(([before, form]) => before + form.inserted).join("") + end;

// What remains of a text between the labels redaction wrote, where no revealing form may be.
const unlabelled = (text: string, label: string) => text.split(`[${label}]`);

describe("redactValues", () => {
  const runs = fuzzRuns(300);

  it(
    `leaves no covered form of an injected secret in the text (${runs} cases)`,
    () => {
      fc.assert(
        fc.property(scenario(fc.oneof({ arbitrary: secretString, weight: 4 }, secretNumber, secretBigInt), 300), ({ value, path, parts, end }) => {
          const redacted = redactValues(messageOf(parts, end), [{ label: "secret", value: nest(value, path) }]);
          for (const [, { revealing }] of parts) expect(unlabelled(redacted, "secret").filter((piece) => piece.includes(revealing))).toEqual([]);
        }),
        fuzzParameters(runs),
      );
    },
    fuzzTimeout(runs, 5),
  );
});

describe("Agent", () => {
  const runs = fuzzRuns(150);
  const stateSchema = { api_key: { type: z.unknown() } } satisfies StateSchema;
  const failurePrefix = "Tool 'lookup' failed: ";

  /** Every string in the messages the model received in a run where `lookup` (given `api_key` from state) throws `errorMessage`. */
  async function textsSentToModel(apiKey: unknown, errorMessage: string): Promise<string[]> {
    const lookup = new Tool({
      name: "lookup",
      description: "Look up an account.",
      parameters: { type: "object", properties: { query: { type: "string" }, apiKey: {} }, required: ["query"] },
      inputsFromState: { api_key: "apiKey" },
      function: () => {
        throw new Error(errorMessage);
      },
    });
    const chatGenerator = new ScriptedChatGenerator([toolCallReply(["lookup", { query: "account" }, "call_1"]), ChatMessage.fromAssistant("Done.")]);
    await new Agent({ chatGenerator, tools: [lookup], stateSchema }).run({ messages: [ChatMessage.fromUser("Look up my account.")], api_key: apiKey });
    const texts: string[] = [];
    JSON.stringify(
      chatGenerator.requests.map((request) => request.messages.map((m) => m.toJSON())),
      (_key, value: unknown) => {
        // The failure's fixed start is toolwright's own text: a secret that begins there begins in it.
        if (typeof value === "string") texts.push(value.startsWith(failurePrefix) ? value.slice(failurePrefix.length) : value);
        return value;
      },
    );
    return texts;
  }

  it(
    `sends the model no covered form of an injected state value that a tool's error message holds (${runs} cases)`,
    async () => {
      // What the model receives besides the tool's own message; a secret found there is not the tool's leak.
      const fixedTexts = await textsSentToModel("unused", "x.");
      await fc.assert(
        fc.asyncProperty(scenario(fc.oneof({ arbitrary: secretString, weight: 4 }, secretNumber), 20), async ({ value, path, parts, end }) => {
          fc.pre(parts.every(([, { revealing }]) => !fixedTexts.some((fixed) => fixed.includes(revealing))));
          // Ending the message with its own full stop keeps toolwright from adding one to it.
          const texts = await textsSentToModel(nest(value, path), `${messageOf(parts, end)}.`);
          for (const [, { revealing }] of parts) {
            expect(texts.flatMap((t) => unlabelled(t, "api_key")).filter((piece) => piece.includes(revealing))).toEqual([]);
          }
        }),
        fuzzParameters(runs),
      );
    },
    fuzzTimeout(runs, 10),
  );
});

describe("traces and hooks", () => {
  const runs = fuzzRuns(100);
  const stateSchema = { api_key: { type: z.unknown() } } satisfies StateSchema;

  /**
   * Every string a tracer (openTelemetry with captureContent, into the SDK's in-memory exporter) and
   * hooks (reading every content field) got in a run where the model sends `message` as an argument
   * of `lookup` (given `api_key` from state), which returns it, then throws it, then the model says it.
   */
  async function textsObserved(apiKey: unknown, message: string): Promise<string[]> {
    let calls = 0;
    const lookup = new Tool({
      name: "lookup",
      description: "Look up an account.",
      parameters: { type: "object", properties: { query: { type: "string" }, apiKey: {} }, required: ["query"] },
      inputsFromState: { api_key: "apiKey" },
      function: (args) => {
        calls += 1;
        // The text as it is: wrapping it in JSON would add a level of escaping redaction does not cover.
        if (calls === 1) return args.query;
        throw new Error(String(args.query));
      },
    });
    const exporter = new InMemorySpanExporter();
    const tracing = openTelemetry({ tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }), captureContent: true });
    const seen: unknown[] = [];
    const hooks: AgentHooks = {
      onModelStart: (e) => void seen.push(e.messages),
      onModelEnd: (e) => void seen.push(e.replies, e.error),
      onToolStart: (e) => void seen.push(e.arguments),
      onToolEnd: (e) => void seen.push(e.result, e.error),
      onRunEnd: (e) => void seen.push(e.error),
    };
    const chatGenerator = new ScriptedChatGenerator([
      toolCallReply(["lookup", { query: message }, "call_1"], ["lookup", { query: message }, "call_2"]),
      ChatMessage.fromAssistant(message),
    ]);
    await new Agent({ chatGenerator, tools: [lookup], stateSchema, tracing, hooks }).run({ messages: [ChatMessage.fromUser("Look up my account.")], api_key: apiKey, runId: "run-1" });
    const texts: string[] = [];
    const collect = (value: unknown): void => {
      JSON.stringify(value, (_key, item: unknown) => {
        if (typeof item === "string") {
          texts.push(item);
          // Content attributes are JSON: their strings too, unescaped.
          if (/^[[{]/.test(item)) {
            try {
              collect(JSON.parse(item));
            } catch {
              // Not JSON: the text itself was collected.
            }
          }
        }
        return item;
      });
    };
    collect(exporter.getFinishedSpans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })));
    collect(seen);
    return texts;
  }

  it(
    `give tracers and hooks no covered form of an injected state value that the model, a tool's result or its error holds (${runs} cases)`,
    async () => {
      // Texts every run observes (span names, labels, fixed messages); a secret found there is not a leak.
      const fixedTexts = await textsObserved("unused", "x.");
      await fc.assert(
        fc.asyncProperty(scenario(fc.oneof({ arbitrary: secretString, weight: 4 }, secretNumber), 20), async ({ value, path, parts, end }) => {
          fc.pre(parts.every(([, { revealing }]) => !fixedTexts.some((fixed) => fixed.includes(revealing))));
          const texts = await textsObserved(nest(value, path), `${messageOf(parts, end)}.`);
          for (const [, { revealing }] of parts) {
            expect(texts.flatMap((t) => unlabelled(t, "api_key")).filter((piece) => piece.includes(revealing))).toEqual([]);
          }
        }),
        fuzzParameters(runs),
      );
    },
    fuzzTimeout(runs, 20),
  );
});
