import { type ChatGeneratorRequest, ChatMessage } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";

/**
 * The offline stand-in: asks for the photo, then answers from what it was sent — it cannot see, so
 * it says what arrived (the image's type and size), which is what this example checks; a real
 * model (OPENAI_API_KEY) describes the picture.
 */
export function scriptedInspector(): ScriptedChatGenerator {
  return new ScriptedChatGenerator([
    ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "call_photo", toolName: "returned_item_photo", arguments: { orderId: "A-100" } }] }),
    (request: ChatGeneratorRequest) => {
      const image = request.messages.flatMap((m) => m.images).at(-1);
      if (!image) return ChatMessage.fromAssistant("I did not receive a photo.");
      return ChatMessage.fromAssistant(`(scripted) I received the photo as ${image.mimeType}, ${image.byteLength} bytes; a real model would now describe the damage.`);
    },
  ]);
}
