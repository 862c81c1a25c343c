// The code of docs/images-and-files.md; test/docs/guideExamples.test.ts runs it.
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pdfBytes } from "../../../test/helpers/mediaSamples";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import "./tools.generated";
import { Charts } from "./charts";
// #region imports
import { Agent, ChatMessage, FileContent, ImageContent } from "toolwright";
// #endregion
// #region hooks-imports
import type { AgentHooks } from "toolwright";
// #endregion

/** A user message with a photo and a PDF, a tool that returns a chart, and what hooks see of media. */
export async function run(): Promise<void> {
  await userMedia();
  await toolMedia();
}

// A folder with a returned chair's photo (a real JPEG) and its invoice (a PDF), as the block reads them.
function uploads(): string {
  const dir = mkdtempSync(join(tmpdir(), "toolwright-uploads-"));
  mkdirSync(join(dir, "returns"));
  mkdirSync(join(dir, "invoices"));
  copyFileSync(resolve("test/fixtures/media/flower-161x161-exif.jpg"), join(dir, "returns/A-100.jpg"));
  writeFileSync(join(dir, "invoices/A-100.pdf"), pdfBytes);
  return dir;
}

async function userMedia(): Promise<void> {
  const chatGenerator = new ScriptedChatGenerator([(request) => ChatMessage.fromAssistant(`Got ${request.messages[0]?.images.length} image and ${request.messages[0]?.files.length} file.`)]);
  const agent = new Agent({ chatGenerator });
  const dir = uploads();
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    // #region user-message
    const photo = await ImageContent.fromFile("returns/A-100.jpg", { detail: "low" });
    const invoice = await FileContent.fromFile("invoices/A-100.pdf");
    const result = await agent.run({ messages: [ChatMessage.fromUser(["Is this chair damaged? The invoice is attached.", photo, invoice])] });
    // #endregion
    assert.equal(result.lastMessage.text, "Got 1 image and 1 file.");
    assert.deepEqual(photo.describe(), { type: "image", mimeType: "image/jpeg", bytes: photo.describe().bytes, sha256: photo.describe().sha256, url: undefined });
    assert.equal(invoice.describe().mimeType, "application/pdf");
    assert.equal(invoice.describe().filename, "A-100.pdf");
  } finally {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function toolMedia(): Promise<void> {
  const chatGenerator = new ScriptedChatGenerator([toolCallReply(["chart", { metric: "sales" }]), ChatMessage.fromAssistant("Sales rose.")]);
  const seen: unknown[] = [];
  // #region hooks
  const hooks: AgentHooks = {
    onModelStart(event) {
      event.messages[0]?.content[1];
      // { image: { type: "image", mimeType: "image/png", bytes: 48213, sha256: "ab12…" } }
    },
  };
  // #endregion
  const observed: AgentHooks = { onModelStart: (event) => void seen.push(event.messages.at(-1)?.content) };
  const result = await new Agent({ chatGenerator, tools: [new Charts()], hooks: { ...hooks, ...observed } }).run({ messages: [ChatMessage.fromUser("Chart May's sales.")] });
  const toolMessage = result.messages.find((message) => message.role === "tool")!;
  assert.equal(toolMessage.toolCallResult?.result, "Chart of sales:");
  assert.equal(toolMessage.images.length, 1);
  assert.equal(toolMessage.images[0]?.describe().mimeType, "image/png");
  // Hooks see a descriptor of the image, never its bytes.
  assert.equal(JSON.stringify(seen).includes((toolMessage.images[0]!.toJSON() as { base64_image: string }).base64_image), false);
  assert.match(JSON.stringify(seen[1]), /"type":"image","mimeType":"image\/png","bytes":\d+,"sha256":"[0-9a-f]{64}"/);
}
