import { z } from "zod";
import { Agent, ChatMessage, ConfigurationError, OutputValidationError, snapshotOf } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { expectTypeOf } from "expect-type";
import { notesInput, notesScript, notesState, notesTools, rejectionOf } from "../helpers/notesAgent";

const report = z.object({
  title: z.string().describe("A short title."),
  items: z.array(z.string()),
  priority: z.enum(["low", "high"]).optional(),
});

const reply = (text: string) => ChatMessage.fromAssistant(text);
const question = () => ({ messages: [ChatMessage.fromUser("Summarize.")] });

describe("outputSchema", () => {
  test("a valid JSON answer is returned typed as result.output, and every model call asks for the format", async () => {
    const chatGenerator = new ScriptedChatGenerator([...notesScript.slice(0, 3), reply('{"title":"Stock","items":["lamps","chairs"],"priority":null}')]);
    const agent = new Agent({ chatGenerator, tools: notesTools([]), stateSchema: notesState, outputSchema: report });
    const result = await agent.run(notesInput());
    expect(result.exitReason).toBe("text");
    if (result.exitReason !== "text") throw new Error("unreachable");
    expectTypeOf(result.output).toEqualTypeOf<z.output<typeof report>>();
    // A null for an optional property is read as absent (strict mode sends null for what the model leaves out).
    expect(result.output).toEqual({ title: "Stock", items: ["lamps", "chairs"] });
    expect(chatGenerator.requests).toHaveLength(4);
    for (const request of chatGenerator.requests) {
      expect(request.responseFormat).toEqual({
        type: "json_schema",
        name: "final_output",
        schema: {
          type: "object",
          properties: { title: { type: "string", description: "A short title." }, items: { type: "array", items: { type: "string" } }, priority: { type: "string", enum: ["low", "high"] } },
          required: ["title", "items"],
        },
        strict: true,
      });
    }
  });

  test("an answer in a fenced code block is accepted", async () => {
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([reply('```json\n{"title":"T","items":[]}\n```')]), outputSchema: report });
    const result = await agent.run(question());
    expect(result.exitReason === "text" && result.output).toEqual({ title: "T", items: [] });
  });

  test("an invalid answer goes back to the model with its problems, and the corrected one is returned", async () => {
    const chatGenerator = new ScriptedChatGenerator([reply("Here you go: a report."), reply('{"title":7,"items":"x"}'), reply('{"title":"Fixed","items":["a"]}')]);
    const agent = new Agent({ chatGenerator, outputSchema: report });
    const result = await agent.run(question());
    expect(result.exitReason === "text" && result.output).toEqual({ title: "Fixed", items: ["a"] });
    expect(result.stepCount).toBe(3);
    const corrections = result.messages.filter((m) => m.meta.outputCorrection !== undefined);
    expect(corrections.map((m) => [m.role, m.meta.outputCorrection])).toEqual([
      ["user", 1],
      ["user", 2],
    ]);
    expect(corrections[0]!.text).toMatch(/^Your final answer does not match the required output schema:\n- \(root\): the answer is not JSON \(Unexpected token .*\)\nAnswer again with only a JSON object that matches the schema\.$/);
    expect(corrections[1]!.text).toBe(
      "Your final answer does not match the required output schema:\n- title: Invalid input: expected string, received number\n- items: Invalid input: expected array, received string\nAnswer again with only a JSON object that matches the schema.",
    );
    // The model saw the correction on its next call.
    expect(chatGenerator.requests[2]!.messages.at(-1)!.text).toBe(corrections[1]!.text);
  });

  test("after maxOutputRetries corrections the run fails with OutputValidationError, whose snapshot asks again", async () => {
    const bad = reply('{"title":"T"}');
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([bad, bad, reply('{"title":"T","items":[]}')]), outputSchema: report, maxOutputRetries: 1 });
    const error = await rejectionOf(agent.run(question()));
    expect(error).toBeInstanceOf(OutputValidationError);
    expect((error as Error).message).toBe(
      "The model's final answer did not match the outputSchema after 1 correction: items: Invalid input: expected array, received undefined. Raise maxOutputRetries, make the schema easier to meet (describe its fields), or resume from the error's snapshot to ask again.",
    );
    expect((error as OutputValidationError).problems).toEqual(["items: Invalid input: expected array, received undefined"]);
    expect((error as OutputValidationError).answer).toBe('{"title":"T"}');
    const snapshot = snapshotOf(error)!;
    expect(snapshot.next).toBe("chat_generator");
    const resumed = await agent.run({ snapshot });
    expect(resumed.exitReason === "text" && resumed.output).toEqual({ title: "T", items: [] });
  });

  test("a per-run outputSchema replaces the Agent's and types the result", async () => {
    const other = z.object({ ok: z.boolean() });
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([reply('{"ok":true}')]), outputSchema: report });
    const result = await agent.run({ ...question(), outputSchema: other });
    if (result.exitReason !== "text") throw new Error("unreachable");
    expectTypeOf(result.output).toEqualTypeOf<{ ok: boolean }>();
    expect(result.output).toEqual({ ok: true });
  });

  test("without an outputSchema nothing is asked for and output is undefined", async () => {
    const chatGenerator = new ScriptedChatGenerator([reply("plain text")]);
    const result = await new Agent({ chatGenerator }).run(question());
    expect(result.exitReason === "text" && result.output).toBeUndefined();
    expect(chatGenerator.requests[0]!.responseFormat).toBeUndefined();
  });

  test("a schema that is not strict-compatible is sent with strict: false", async () => {
    const chatGenerator = new ScriptedChatGenerator([reply('{"tags":{"a":"b"}}')]);
    const agent = new Agent({ chatGenerator, outputSchema: z.object({ tags: z.record(z.string(), z.string()) }) });
    const result = await agent.run(question());
    expect(result.exitReason === "text" && result.output).toEqual({ tags: { a: "b" } });
    expect(chatGenerator.requests[0]!.responseFormat!.strict).toBe(false);
  });

  test("configuration errors name the rule and the fix", () => {
    const chatGenerator = new ScriptedChatGenerator([]);
    expect(() => new Agent({ chatGenerator, outputSchema: z.string() as never })).toThrow(
      new ConfigurationError(
        "Agent",
        "Agent has an outputSchema that is not a zod object schema, got a zod string; pass z.object({ ... }) (providers require an object answer: wrap a list as z.object({ items: z.array(...) })).",
      ),
    );
    expect(() => new Agent({ chatGenerator, outputSchema: { type: "object" } as never })).toThrow(/^Agent has an outputSchema that is not a zod object schema, got an object;/);
    expect(() => new Agent({ chatGenerator, outputSchema: z.object({ at: z.date() }) })).toThrow(/^Agent has an outputSchema with no JSON Schema form \(.*\); the model answers in JSON, so use JSON types/);
    expect(() => new Agent({ chatGenerator, outputSchema: report, maxOutputRetries: -1 })).toThrow(
      "Agent has maxOutputRetries number -1: it must be a whole number from 0 to 100 (how many times an invalid final answer is sent back). Default 2.",
    );
  });
});
