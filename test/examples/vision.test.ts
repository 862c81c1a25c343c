import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runVisionExample } from "../../examples/vision/main";

const photo = readFileSync(join(__dirname, "../../examples/vision/photos/A-100.png"));

describe("examples/vision", () => {
  it("sends the photo the tool returned to the model as an image, and keeps it in the conversation", async () => {
    const lines: string[] = [];

    const result = await runVisionExample((line) => lines.push(line));

    expect(result.exitReason).toBe("text");
    expect(result.lastMessage.text).toBe(`(scripted) I received the photo as image/png, ${photo.length} bytes; a real model would now describe the damage.`);
    const [image] = result.messages.flatMap((m) => m.images);
    expect(Buffer.from(image!.bytes!)).toEqual(photo);
    expect(image!.meta).toEqual({ orderId: "A-100" });
    // The tool message holds the image as a part: never its base64 as text.
    const toolMessage = result.messages.find((m) => m.role === "tool")!;
    expect(toolMessage.toolCallResult!.result).not.toContain(photo.toString("base64").slice(0, 40));
    expect(lines[1]).toMatch(/^tool: image image\/png, \d+ bytes, sha256 [0-9a-f]{12}…$/);
  });
});
