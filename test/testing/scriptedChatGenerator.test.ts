import { ChatMessage, type ChatGeneratorRequest, type StreamingChunk, type ToolSpec } from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";

const searchSpec: ToolSpec = { name: "search", description: "Search.", parameters: { type: "object", properties: {} }, strict: true };

function request(messages: ChatMessage[] = [ChatMessage.fromUser("hi")], extra: Partial<ChatGeneratorRequest> = {}): ChatGeneratorRequest {
  return { messages, tools: [searchSpec], ...extra };
}

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("ScriptedChatGenerator", () => {
  it("answers with a message entry as a one-reply response", async () => {
    const reply = ChatMessage.fromAssistant("Hello.");
    const model = new ScriptedChatGenerator([reply]);

    const response = await model.run(request());

    expect(response.replies).toEqual([reply]);
    expect(response.replies[0]).toBe(reply);
    expect(response.meta).toEqual({ model: "scripted", finishReason: "stop" });
  });

  it("answers with every message of an array entry", async () => {
    const replies = [ChatMessage.fromAssistant("One."), toolCallReply(["search", { query: "x" }, "c1"])];
    const model = new ScriptedChatGenerator([replies]);

    const response = await model.run(request());

    expect(response.replies).toEqual(replies);
    expect(response.meta).toEqual({ model: "scripted", finishReason: "tool_calls" });
  });

  it("answers an empty array entry with no replies", async () => {
    const model = new ScriptedChatGenerator([[]]);

    expect((await model.run(request())).replies).toEqual([]);
  });

  it("calls a sync function entry with the request", async () => {
    const model = new ScriptedChatGenerator([(req) => ChatMessage.fromAssistant(`You said: ${req.messages.at(-1)!.text}`)]);

    const response = await model.run(request([ChatMessage.fromUser("ping")]));

    expect(response.replies.map((r) => r.text)).toEqual(["You said: ping"]);
  });

  it("awaits an async function entry, which may return an array", async () => {
    const model = new ScriptedChatGenerator([async (req) => [ChatMessage.fromAssistant(`${req.tools.length} tools`), ChatMessage.fromAssistant("done")]]);

    const response = await model.run(request());

    expect(response.replies.map((r) => r.text)).toEqual(["1 tools", "done"]);
  });

  it("answers calls with the entries in order", async () => {
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("first"), () => ChatMessage.fromAssistant("second")]);

    const first = await model.run(request());
    const second = await model.run(request());

    expect([first.replies[0]!.text, second.replies[0]!.text]).toEqual(["first", "second"]);
  });

  it("records every request in order", async () => {
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("a"), ChatMessage.fromAssistant("b")]);
    const firstRequest = request([ChatMessage.fromUser("one")], { generationKwargs: { temperature: 0 } });
    const secondRequest = request([ChatMessage.fromUser("two")]);

    await model.run(firstRequest);
    await model.run(secondRequest);

    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]).toEqual(firstRequest);
    expect(model.requests[1]).toEqual(secondRequest);
  });

  it("keeps recorded requests as they were when the caller's history grows later", async () => {
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("a")]);
    const history = [ChatMessage.fromUser("one")];

    await model.run(request(history));
    history.push(ChatMessage.fromAssistant("a"), ChatMessage.fromUser("two"));

    expect(model.requests[0]!.messages.map((m) => m.text)).toEqual(["one"]);
  });

  it("gives a function entry the request as it was at its call, even when the history grows later", async () => {
    let seen: ChatGeneratorRequest | undefined;
    const model = new ScriptedChatGenerator([
      (req) => {
        seen = req;
        return ChatMessage.fromAssistant("a");
      },
    ]);
    const history = [ChatMessage.fromUser("one")];

    await model.run(request(history));
    history.push(ChatMessage.fromUser("two"));

    expect(seen!.messages.map((m) => m.text)).toEqual(["one"]);
  });

  it("counts the entries not answered yet", async () => {
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("a"), ChatMessage.fromAssistant("b")]);

    await model.run(request());

    expect(model.remaining).toBe(1);
  });

  it("rejects a call past the end of the script, saying how many entries it has", async () => {
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("a"), ChatMessage.fromAssistant("b")]);
    await model.run(request());
    await model.run(request());

    await expect(model.run(request())).rejects.toThrow(
      new Error("ScriptedChatGenerator received call 3, but its script has 2 entries; add an entry for every model call the run makes."),
    );
    expect(model.requests).toHaveLength(3);
  });

  it("says 'entry' for a script of one entry", async () => {
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("a")]);
    await model.run(request());

    await expect(model.run(request())).rejects.toThrow(
      new Error("ScriptedChatGenerator received call 2, but its script has 1 entry; add an entry for every model call the run makes."),
    );
  });

  it("rejects an entry that gives something other than ChatMessages", async () => {
    const model = new ScriptedChatGenerator([() => ["not a message"] as unknown as ChatMessage[]]);

    await expect(model.run(request())).rejects.toThrow(
      new TypeError('ScriptedChatGenerator script entry 1 gave string "not a message" at reply 0; give ChatMessage objects.'),
    );
  });

  it("throws a TypeError for a script that is not an array", () => {
    expect(() => new ScriptedChatGenerator(ChatMessage.fromAssistant("a") as unknown as ChatMessage[])).toThrow(
      new TypeError("ScriptedChatGenerator needs an array of script entries, got a ChatMessage."),
    );
  });

  it("rejects with an AbortError when the request's signal is already aborted", async () => {
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("a")]);
    const controller = new AbortController();
    controller.abort();

    await expect(model.run(request(undefined, { signal: controller.signal }))).rejects.toHaveProperty("name", "AbortError");
  });

  describe("streaming", () => {
    async function streamed(entry: ChatMessage | ChatMessage[]): Promise<StreamingChunk[]> {
      const chunks: StreamingChunk[] = [];
      const model = new ScriptedChatGenerator([entry]);
      await model.run(request(undefined, { streamingCallback: (chunk) => void chunks.push(chunk) }));
      return chunks;
    }

    it("streams text as word deltas, then a stop finish chunk", async () => {
      const chunks = await streamed(ChatMessage.fromAssistant("Hello there,  friend"));

      expect(chunks).toEqual([
        { type: "text", delta: "Hello " },
        { type: "text", delta: "there,  " },
        { type: "text", delta: "friend" },
        { type: "finish", finishReason: "stop" },
      ]);
    });

    it("streams one delta per tool call with its index, id, name and JSON arguments, then a tool_calls finish chunk", async () => {
      const chunks = await streamed(
        ChatMessage.fromAssistant("Checking.", {
          toolCalls: [
            { id: "c1", toolName: "search", arguments: { query: "refund" } },
            { id: "c2", toolName: "lookup", arguments: '{"id": 4' },
          ],
        }),
      );

      expect(chunks).toEqual([
        { type: "text", delta: "Checking." },
        { type: "toolCallDelta", index: 0, id: "c1", toolName: "search", argumentsDelta: '{"query":"refund"}' },
        { type: "toolCallDelta", index: 1, id: "c2", toolName: "lookup", argumentsDelta: '{"id": 4' },
        { type: "finish", finishReason: "tool_calls" },
      ]);
    });

    it("sends one finish chunk for a response of several replies", async () => {
      const chunks = await streamed([ChatMessage.fromAssistant("a"), ChatMessage.fromAssistant("b")]);

      expect(chunks).toEqual([
        { type: "text", delta: "a" },
        { type: "text", delta: "b" },
        { type: "finish", finishReason: "stop" },
      ]);
    });

    it("numbers tool-call deltas across all replies of a response, so no two calls share an index", async () => {
      const chunks = await streamed([toolCallReply(["search", { query: "a" }, "c1"]), toolCallReply(["search", { query: "b" }, "c2"], ["lookup", {}, "c3"])]);

      expect(chunks.filter((chunk) => chunk.type === "toolCallDelta").map((chunk) => [chunk.index, chunk.id])).toEqual([
        [0, "c1"],
        [1, "c2"],
        [2, "c3"],
      ]);
    });

    it("waits for an async streaming callback before resolving", async () => {
      const gate = deferred();
      const seen: StreamingChunk[] = [];
      const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("Hi")]);
      let settled = false;

      const pending = model
        .run(
          request(undefined, {
            streamingCallback: async (chunk) => {
              seen.push(chunk);
              await gate.promise;
            },
          }),
        )
        .then(() => (settled = true));
      await new Promise((resolve) => setImmediate(resolve));

      expect(seen).toEqual([{ type: "text", delta: "Hi" }]);
      expect(settled).toBe(false);
      gate.resolve();
      await pending;
      expect(seen).toEqual([
        { type: "text", delta: "Hi" },
        { type: "finish", finishReason: "stop" },
      ]);
    });
  });
});

describe("toolCallReply", () => {
  it("builds an assistant message without text that calls the given tools", () => {
    const reply = toolCallReply(["search", { query: "x" }, "c1"], ["lookup", '{"id":', "c2"]);

    expect(reply.role).toBe("assistant");
    expect(reply.text).toBeUndefined();
    expect(reply.toolCalls).toEqual([
      { id: "c1", toolName: "search", arguments: { query: "x" } },
      { id: "c2", toolName: "lookup", arguments: '{"id":' },
    ]);
  });

  it("generates distinct call_<n> ids for calls without one", () => {
    const first = toolCallReply(["search", {}], ["search", {}]);
    const second = toolCallReply(["search", {}]);
    const ids = [...first.toolCalls, ...second.toolCalls].map((call) => call.id);

    for (const id of ids) expect(id).toMatch(/^call_\d+$/);
    expect(new Set(ids).size).toBe(3);
  });
});
