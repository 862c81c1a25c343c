import OpenAI6 from "openai";
import OpenAI7 from "openai7";
import { OpenAIChatGenerator, OpenAIResponsesChatGenerator } from "toolwright/openai";
import type { MockOpenAIServer } from "../../helpers/mockOpenAIServer";

/** The majors of the `openai` package toolwright supports (its peer range `^6.0.0 || ^7.0.0`), installed side by side. */
export const sdkMajors = [
  ["openai 6", OpenAI6],
  ["openai 7", OpenAI7],
] as const;

/** A client of `Sdk` (either major) for `server`, without the SDK's retries. */
export function clientOn(Sdk: typeof OpenAI6 | typeof OpenAI7, server: MockOpenAIServer): OpenAI6 {
  // openai 7's client has openai 6's shape (its 7.0.0 only raised engines.node); typed as 6's, which toolwright compiles against.
  return new Sdk({ apiKey: "test-key", baseURL: server.baseURL, maxRetries: 0 }) as OpenAI6;
}

/** Both OpenAI generators for model `test-model` on `server`, through a client of `Sdk`. */
export function generatorsOn(Sdk: typeof OpenAI6 | typeof OpenAI7, server: MockOpenAIServer) {
  return [
    ["OpenAIChatGenerator", () => new OpenAIChatGenerator({ model: "test-model", client: clientOn(Sdk, server), maxRetries: 0 })],
    ["OpenAIResponsesChatGenerator", () => new OpenAIResponsesChatGenerator({ model: "test-model", client: clientOn(Sdk, server), maxRetries: 0 })],
  ] as const;
}
