import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { Agent, ChatMessage } from "toolwright";
import { OpenAIChatGenerator, OpenAIResponsesChatGenerator } from "toolwright/openai";

// What POST /v1/chat/completions answers: one assistant message, as the OpenAI API sends it.
const completion = {
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "local-model",
  choices: [{ index: 0, message: { role: "assistant", content: "Hello from 127.0.0.1.", refusal: null }, logprobs: null, finish_reason: "stop" }],
  usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
};

function listen(): Promise<Server> {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const found = request.method === "POST" && request.url === "/v1/chat/completions";
      response.writeHead(found ? 200 : 404, { "content-type": "application/json" });
      response.end(JSON.stringify(found ? completion : { error: { message: `no route ${request.method} ${request.url}` } }));
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** Runs an agent on the app's own `new OpenAI({ baseURL })` client (the ES-module `openai`), against a local server. */
export async function answerWithOwnClient(): Promise<string | undefined> {
  const server = await listen();
  try {
    const client = new OpenAI({ baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: "not-needed" });
    const chatGenerator = new OpenAIChatGenerator({ model: "local-model", client });
    // Compiles only if the Responses generator takes the app's client too.
    new OpenAIResponsesChatGenerator({ model: "local-model", client });
    const agent = new Agent({ chatGenerator, tools: [] });
    const result = await agent.run({ messages: [ChatMessage.fromUser("Hi")] });
    return result.lastMessage.text;
  } finally {
    server.close();
  }
}
