// AI SDK provider ids (`<provider>.<api>`, the part before the first dot names the vendor) whose
// vendor OpenTelemetry's GenAI conventions name differently.
const knownNames: Readonly<Record<string, string>> = {
  "amazon-bedrock": "aws.bedrock",
  bedrock: "aws.bedrock",
  azure: "azure.ai.openai",
  google: "gcp.gemini",
  "google.vertex": "gcp.vertex_ai",
  vertex: "gcp.vertex_ai",
  mistral: "mistral_ai",
  xai: "x_ai",
};

/**
 * The `gen_ai.provider.name` of an AI SDK provider id: `anthropic.messages` → `anthropic`,
 * `openai.responses` → `openai`, `google.generative-ai` → `gcp.gemini`, `google.vertex.chat` →
 * `gcp.vertex_ai`, `amazon-bedrock` → `aws.bedrock`, `mistral.chat` → `mistral_ai`; any other id
 * gives its part before the first dot (`ollama.chat` → `ollama`, the name an
 * `@ai-sdk/openai-compatible` provider was created with).
 */
export function genAiProviderName(providerId: string): string {
  const id = providerId.toLowerCase();
  const vendor = id.split(".", 1)[0]!;
  if (vendor === "google" && id.startsWith("google.vertex")) return knownNames["google.vertex"]!;
  return Object.hasOwn(knownNames, vendor) ? knownNames[vendor]! : vendor;
}
