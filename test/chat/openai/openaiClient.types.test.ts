import { expectTypeOf } from "expect-type";
import type OpenAI from "openai";
import type { OpenAI as OpenAIFromEsModule } from "openai/client.mjs";
import type OpenAI7 from "openai7";
import type { OpenAI as OpenAI7FromEsModule } from "openai7/client.mjs";
import { openAIModeration } from "toolwright";
import { type OpenAIClient, OpenAIChatGenerator, OpenAIResponsesChatGenerator } from "toolwright/openai";

// `openai/client.mjs` is what an ES-module app's `import OpenAI from "openai"` resolves to: declarations
// whose `OpenAI` class TypeScript keeps apart from the CommonJS one (its `#private` members differ).
describe("OpenAIClient", () => {
  it("takes the client of either openai major, from its CommonJS and its ES-module declarations", () => {
    expectTypeOf<OpenAI>().toMatchTypeOf<OpenAIClient>();
    expectTypeOf<OpenAIFromEsModule>().toMatchTypeOf<OpenAIClient>();
    expectTypeOf<OpenAI7>().toMatchTypeOf<OpenAIClient>();
    expectTypeOf<OpenAI7FromEsModule>().toMatchTypeOf<OpenAIClient>();
  });

  it("is the client option of both generators, and a generator's client serves openAIModeration", () => {
    const build = (client: OpenAIFromEsModule) => {
      const chat = new OpenAIChatGenerator({ model: "gpt-4o-mini", client });
      new OpenAIResponsesChatGenerator({ model: "gpt-5-mini", client });
      return openAIModeration({ client: chat.client });
    };
    expectTypeOf(build).returns.toHaveProperty("check");
    expectTypeOf<{ model: string; client: { baseURL: string } }>().not.toMatchTypeOf<ConstructorParameters<typeof OpenAIChatGenerator>[0]>();
  });
});
