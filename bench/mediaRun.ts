import { randomBytes } from "node:crypto";
import { Agent, ChatMessage, ImageContent, Tool } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { fmt, median, timeRuns } from "./measure";

// A 1 MiB "PNG": the signature, then random bytes (nothing reads past the first bytes but the provider).
function pngOf(bytes: number): Buffer {
  const data = randomBytes(bytes);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(data);
  return data;
}

/**
 * What a 1 MiB image costs through a run: a tool returns it (ImageContent.fromBytes: checked,
 * copied, base64-encoded once), the model is called again with it, and the result is snapshotted as
 * JSON. Time per run (median of 7 after 2 warm-ups), the heap a finished run holds while alive, and
 * the snapshot's size.
 */
export async function benchMediaRun(): Promise<string[]> {
  const image = pngOf(1024 * 1024);
  const chart = new Tool({ name: "chart", description: "Draw the chart.", parameters: { type: "object", properties: {} }, function: () => ImageContent.fromBytes(image) });
  const agentFor = () =>
    new Agent({
      chatGenerator: new ScriptedChatGenerator([ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c1", toolName: "chart", arguments: {} }] }), ChatMessage.fromAssistant("It shows sales rising.")]),
      tools: [chart],
    });
  const run = () => agentFor().run({ messages: [ChatMessage.fromUser("Chart the sales.")] });
  const times = await timeRuns(run, 7, 2);
  // Ten finished runs kept alive, so one run's share stands out of the collector's noise.
  global.gc?.();
  const before = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers + process.memoryUsage().external;
  const keptRuns = [];
  for (let i = 0; i < 10; i++) keptRuns.push(await run());
  global.gc?.();
  const held = (process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers + process.memoryUsage().external - before) / keptRuns.length;
  const kept = keptRuns[0]!;
  const snapshotBytes = JSON.stringify(kept.messages.map((m) => m.toJSON())).length;
  const plain = await timeRuns(
    () => new Agent({ chatGenerator: new ScriptedChatGenerator([ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c1", toolName: "text", arguments: {} }] }), ChatMessage.fromAssistant("ok")]), tools: [new Tool({ name: "text", description: "Text.", parameters: { type: "object", properties: {} }, function: () => "sales rose" })] }).run({ messages: [ChatMessage.fromUser("go")] }),
    7,
    2,
  );
  return [
    `a 1 MiB image returned by a tool, through a 2-step run: ${fmt(median(times), 2)} ms per run (a text result: ${fmt(median(plain), 3)} ms)${global.gc ? `; a finished run holds ${fmt(held / 2 ** 20, 2)} MiB while alive` : " (run node with --expose-gc for the memory figure)"}; its messages as JSON: ${fmt(snapshotBytes / 2 ** 20, 2)} MiB`,
  ];
}

if (require.main === module) {
  benchMediaRun().then((lines) => lines.forEach((line) => console.log(line)));
}
