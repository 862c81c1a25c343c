import { genAiProviderName } from "../../src/aisdk/providerName";

describe("genAiProviderName", () => {
  it.each([
    ["anthropic.messages", "anthropic"],
    ["openai.chat", "openai"],
    ["openai.responses", "openai"],
    ["azure.chat", "azure.ai.openai"],
    ["google.generative-ai", "gcp.gemini"],
    ["google.vertex.chat", "gcp.vertex_ai"],
    ["vertex.anthropic.messages", "gcp.vertex_ai"],
    ["amazon-bedrock", "aws.bedrock"],
    ["mistral.chat", "mistral_ai"],
    ["xai.chat", "x_ai"],
    ["groq.chat", "groq"],
    ["deepseek.chat", "deepseek"],
    ["ollama.chat", "ollama"],
    ["Custom", "custom"],
  ])("names %s %s", (providerId, name) => {
    expect(genAiProviderName(providerId)).toBe(name);
  });
});
