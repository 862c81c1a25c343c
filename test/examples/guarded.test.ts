import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { runGuardedExamples } from "../../examples/guarded/main";

const run = promisify(execFile);

// What `npm run example:guardrails` prints: a guardrail tripping, a budget ending a run and the
// run resumed, compaction keeping every request of a 200-step run under its limit, a fallback after a 429.
const printed = [
  "== guardrail: a prompt injection trips the input guardrail ==",
  "exitReason: guardrail_tripped; input-guardrail:injection: The text matches the deny pattern \"(?i)ignore (all|any|previous) (instructions|rules)\".",
  "model calls: 0 (the model never saw the message); snapshot kept to resume after review",
  "a normal question: text: Order A-100 was delivered.",
  "",
  "== budget: a model-call budget ends the run, raised, the run resumes ==",
  "exitReason: budget_exhausted; modelCalls budget exhausted {\"budget\":\"modelCalls\",\"limit\":2,\"used\":2}",
  "budget raised to 5; resumed: text after 3 model calls: A-100 and B-200 were both delivered.",
  "",
  "== compaction: a 200-step run, each request under 4,000 tokens ==",
  "exitReason: text after 201 model calls",
  "largest request: 4000 tokens; the whole conversation: 52410 tokens in 402 messages, all kept in state",
  "",
  "== fallback: the primary answers 429, the backup completes the run ==",
  "primary tried 2 times (429 each); answered by: scripted, scripted",
  "text: Order A-100 was delivered.",
];

describe("examples/guarded", () => {
  it("prints each part's outcome, in process", async () => {
    const lines: string[] = [];
    await runGuardedExamples((line) => lines.push(line));
    expect(lines).toEqual(printed);
  });

  it("runs as npm run example:guardrails runs it, and exits 0", async () => {
    const { stdout } = await run(process.execPath, ["dist/examples/guarded/main.js"]);
    expect(stdout.trimEnd().split("\n")).toEqual(printed);
  }, 60_000);
});
