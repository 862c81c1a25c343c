import { Agent, ChatMessage } from "toolwright";
import { chooseChatGenerator } from "../shared/chooseChatGenerator";
import { scriptedInspector } from "./scriptedModel";
import "./tools.generated";
import { ReturnsDesk } from "./visionTools";

/** Runs the returns inspector: the tool returns a PNG, the model looks at it and says what it sees. */
export async function runVisionExample(print: (line: string) => void = console.log) {
  const { chatGenerator, label } = chooseChatGenerator(scriptedInspector);
  const agent = new Agent({
    chatGenerator,
    tools: [new ReturnsDesk()],
    systemPrompt: "You inspect returned items. Look at the item's photo and say in one sentence whether it is damaged.",
  });
  print(`model: ${label}`);
  const result = await agent.run({ messages: [ChatMessage.fromUser("Order A-100 came back. Is the chair damaged?")] });
  for (const message of result.messages) {
    for (const image of message.images) {
      const { mimeType, bytes, sha256 } = image.describe();
      print(`${message.role}: image ${mimeType}, ${bytes} bytes, sha256 ${sha256?.slice(0, 12)}…`);
    }
  }
  print(`answer: ${result.lastMessage.text}`);
  return result;
}

if (require.main === module) {
  runVisionExample().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
