// Messages with images and files in snapshots: they survive a JSON round trip and a signed
// snapshot, and a snapshot whose image was corrupted on the way is refused with a SnapshotError
// naming where.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, type AgentSnapshot, BreakpointError, ChatMessage, FileContent, ImageContent, SnapshotError } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";

const tree = readFileSync(join(__dirname, "../fixtures/media/tree-787x941.png"));
const pdf = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(3000, 7)]);
const key = "k".repeat(32);

function agentFor(replies: ChatMessage[], signed = true) {
  return new Agent({ chatGenerator: new ScriptedChatGenerator(replies), ...(signed && { snapshotKey: key }) });
}

async function snapshotWithMedia(signed = true): Promise<AgentSnapshot> {
  const messages = [ChatMessage.fromUser(["Describe the chart and the report.", ImageContent.fromBytes(tree, { detail: "high" }), FileContent.fromBytes(pdf, { filename: "report.pdf" })])];
  const error = await agentFor([ChatMessage.fromAssistant("A tree.")], signed).run({ messages, breakpoint: { at: "chat_generator", visit: 0 } }).catch((e: unknown) => e);
  if (!(error instanceof BreakpointError)) throw new Error(`no breakpoint: ${String((error as { exitReason?: string }).exitReason)} ${Object.keys(error as object).join(",")}`);
  return (error as BreakpointError).snapshot;
}

describe("AgentSnapshot with media", () => {
  it("survives a JSON round trip and a signed resume, images and files unchanged", async () => {
    const snapshot = await snapshotWithMedia();
    const fromJson = JSON.parse(JSON.stringify(snapshot)) as AgentSnapshot;

    const result = await agentFor([ChatMessage.fromAssistant("A tree.")]).run({ snapshot: fromJson });

    expect(result.messages[0]!.images[0]!.bytes).toEqual(new Uint8Array(tree));
    expect(result.messages[0]!.files[0]!.filename).toBe("report.pdf");
    expect(result.lastMessage.text).toBe("A tree.");
    expect(fromJson.signature).toMatch(/^hmac-sha256:/);
    // base64 is 4/3 of the bytes: the snapshot grows by that much per image or file.
    expect(JSON.stringify(snapshot).length).toBeGreaterThan(Math.ceil((tree.length + pdf.length) * (4 / 3)));
  });

  it("refuses a signed snapshot whose image was changed, by its signature", async () => {
    const snapshot = JSON.parse(JSON.stringify(await snapshotWithMedia())) as Corruptible;
    snapshot.state.messages[0]!.content[1]!.image!.base64_image = "not base64!";

    await expect(agentFor([]).run({ snapshot: snapshot as unknown as AgentSnapshot })).rejects.toThrow(
      "Agent.run was given a snapshot whose signature does not match its content: the snapshot was changed after it was signed, or signed with another key; resume only with a snapshot a stopped run produced, unchanged.",
    );
  });

  it.each([
    ["not valid base64", (image: Record<string, unknown>) => void (image.base64_image = "not base64!"), "Agent.run was given a snapshot whose state.messages[0] is not a valid message (ChatMessage.fromJSON content[1].image was given data that is not valid base64 (standard alphabet A-Z a-z 0-9 + /, padded with = to a multiple of 4 characters, no whitespace or data: prefix); encode the bytes with Buffer.from(bytes).toString(\"base64\")); resume only with a snapshot a stopped run produced, unchanged."],
    ["a MIME type the bytes contradict", (image: Record<string, unknown>) => void (image.mime_type = "image/jpeg"), "Agent.run was given a snapshot whose state.messages[0] is not a valid message (ChatMessage.fromJSON content[1].image was given mimeType image/jpeg, but the data is a PNG image (by its first bytes); give the right mimeType or leave it out); resume only with a snapshot a stopped run produced, unchanged."],
    ["over the size limit", (image: Record<string, unknown>) => void (image.base64_image = "A".repeat(28 * 1024 * 1024)), "Agent.run was given a snapshot whose state.messages[0] is not a valid message (ChatMessage.fromJSON content[1].image holds 22020096 bytes, over the limit of 20971520 bytes per image or file; send a smaller or compressed one (providers refuse larger ones too)); resume only with a snapshot a stopped run produced, unchanged."],
  ])("refuses an unsigned snapshot whose image is %s, naming the message and part", async (_, corrupt, message) => {
    const snapshot = JSON.parse(JSON.stringify(await snapshotWithMedia(false))) as Corruptible;
    corrupt(snapshot.state.messages[0]!.content[1]!.image!);

    const error = await agentFor([], false).run({ snapshot: snapshot as unknown as AgentSnapshot }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SnapshotError);
    expect((error as Error).message).toBe(message);
  });
});

type Corruptible = { state: { messages: Array<{ content: Array<{ image?: Record<string, unknown> & { base64_image: string } }> }> } };
