import { registerChatGeneratorType } from "../chatGeneratorTypes";

// Required when a definition names the type, so an app that never reads an OpenAI definition never
// loads the OpenAI generators (nor the `openai` SDK).
function readers(): typeof import("./generatorDefinition") {
  return require("./generatorDefinition") as typeof import("./generatorDefinition");
}

/** Lets agent definitions name `OpenAIChatGenerator` and `OpenAIResponsesChatGenerator`, with their options as data. */
export function registerOpenAIGeneratorTypes(): void {
  registerChatGeneratorType("OpenAIChatGenerator", {
    apiKeyEnv: "OPENAI_API_KEY",
    fromDefinition: (options, path) => readers().openaiChatGeneratorFromDefinition(options, path),
  });
  registerChatGeneratorType("OpenAIResponsesChatGenerator", {
    apiKeyEnv: "OPENAI_API_KEY",
    fromDefinition: (options, path) => readers().openaiResponsesChatGeneratorFromDefinition(options, path),
  });
}
