import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ChatMessageJSON, ConfirmationDecision, PendingConfirmation } from "toolwright";

// The fixtures run on the built package (dist/), which `npm test` builds before jest runs.
const fixtures = path.join(__dirname, "fixtures");

interface RunSummary {
  pid: number;
  exitReason: string;
  stepCount: number;
  messages: ChatMessageJSON[];
  state: { customer_id?: string; refunds?: Array<{ orderId: string; amount: number }>; notes?: string[] };
  log: Array<{ tool: string; args: Record<string, unknown> }>;
}

interface PauseOutput {
  pid: number;
  exitReason: string;
  pendingConfirmations: PendingConfirmation[];
  log: RunSummary["log"];
}

const refundDesk = require(path.join(fixtures, "refundDesk.js")) as { runInPlace(decision: ConfirmationDecision): Promise<RunSummary> };

function node<T>(script: string, ...args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [path.join(fixtures, script), ...args], { encoding: "utf8", timeout: 15_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${script} failed: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as T);
    });
  });
}

const decisions: Array<[string, ConfirmationDecision]> = [
  ["confirm", { action: "confirm" }],
  ["modify", { action: "modify", arguments: { orderId: "A-100", amount: 20 }, feedback: "only the shade was broken" }],
  ["reject", { action: "reject", feedback: "The lamp was not returned." }],
];

describe("DeferredConfirmationStrategy across processes", () => {
  let dir: string;
  let snapshotFile: string;
  let paused: PauseOutput;
  // One process pauses; then one process per decision resumes from the same snapshot file, in parallel.
  const resumed = new Map<string, RunSummary>();

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwright-hitl-"));
    snapshotFile = path.join(dir, "snapshot.json");
    paused = await node<PauseOutput>("pause.js", snapshotFile);
    const results = await Promise.all(decisions.map(([, decision]) => node<RunSummary>("resume.js", snapshotFile, JSON.stringify({ call_refund: decision }))));
    decisions.forEach(([name], i) => resumed.set(name, results[i]!));
  });

  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("pauses in the first process with the pending refund, before any call of its step ran", () => {
    expect(paused.exitReason).toBe("confirmation_required");
    expect(paused.pendingConfirmations).toEqual([{ toolCallId: "call_refund", toolName: "issue_refund", arguments: { orderId: "A-100", amount: 49 } }]);
    expect(paused.log.map((entry) => entry.tool)).toEqual(["lookup_order"]);
  });

  it("writes a snapshot as plain JSON that holds the pending call and none of the paused step's writes", () => {
    const snapshot = JSON.parse(fs.readFileSync(snapshotFile, "utf8")) as { state: Record<string, unknown>; stepCount: number; next: string; toolStep: unknown };

    expect(snapshot.next).toBe("tool");
    expect(snapshot.stepCount).toBe(2);
    expect(snapshot.toolStep).toEqual({
      replies: 1,
      decisions: {},
      pending: [{ toolCallId: "call_refund", toolName: "issue_refund", arguments: { orderId: "A-100", amount: 49 } }],
    });
    expect(snapshot.state.customer_id).toBe("c-42");
    expect(snapshot.state.notes).toBeUndefined();
    expect(snapshot.state.refunds).toBeUndefined();
  });

  it.each(decisions)("resumes with a %s decision in a second process and ends with the messages and state of an uninterrupted run", async (name, decision) => {
    const inPlace = await refundDesk.runInPlace(decision);
    const result = resumed.get(name)!;

    expect(new Set([paused.pid, result.pid, process.pid]).size).toBe(3);
    expect(result.exitReason).toBe("text");
    expect(result.messages).toEqual(inPlace.messages);
    expect(result.state).toEqual(inPlace.state);
    expect(result.stepCount).toBe(inPlace.stepCount);
    expect([...paused.log, ...result.log]).toEqual(inPlace.log);
  });

  it("runs what the decisions say: the confirmed refund, the modified one, and no refund when rejected", () => {
    expect(resumed.get("confirm")!.state.refunds).toEqual([{ orderId: "A-100", amount: 49 }]);
    expect(resumed.get("modify")!.state.refunds).toEqual([{ orderId: "A-100", amount: 20 }]);
    expect(resumed.get("reject")!.state.refunds).toBeUndefined();
    for (const result of resumed.values()) expect(result.state.notes).toEqual(["refund requested for A-100"]);
  });
});
