// A plain-JavaScript tool that returns an image (read from a committed PNG with ImageContent.fromFile):
// the same tool message with parts as from TypeScript. Runs in the "js" Jest project against dist/.
"use strict";

const path = require("node:path");
const { readFileSync } = require("node:fs");
const { Agent, ChatMessage, ImageContent, Tool } = require("toolwright");
const { ScriptedChatGenerator } = require("toolwright/testing");

const swatchPath = path.join(__dirname, "..", "fixtures", "media", "swatch-4x3.png");

describe("toolwright from plain JavaScript (a tool that returns an image)", () => {
  it("sends the model the image an async JavaScript tool returns, and keeps it in the messages' JSON", async () => {
    const tool = new Tool({
      name: "swatch",
      description: "Show a colour swatch.",
      parameters: { type: "object", properties: {} },
      function: async () => ["The swatch:", await ImageContent.fromFile(swatchPath)],
    });
    const chatGenerator = new ScriptedChatGenerator([
      ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c1", toolName: "swatch", arguments: {} }] }),
      ChatMessage.fromAssistant("It is red."),
    ]);

    const result = await new Agent({ chatGenerator, tools: [tool] }).run({ messages: [ChatMessage.fromUser("Which colour?")] });

    const sent = chatGenerator.requests[1].messages.at(-1);
    expect(sent.toolCallResult.result).toBe("The swatch:");
    expect(Buffer.from(sent.images[0].bytes)).toEqual(readFileSync(swatchPath));
    expect(sent.images[0].mimeType).toBe("image/png");
    const json = JSON.parse(JSON.stringify(result.messages[2]));
    expect(json.content[0].tool_call_result.result).toEqual([{ text: "The swatch:" }, { image: { base64_image: readFileSync(swatchPath).toString("base64"), mime_type: "image/png", detail: null, meta: {}, validation: true } }]);
    expect(ChatMessage.fromJSON(json).images[0].describe()).toEqual(sent.images[0].describe());
  });
});
