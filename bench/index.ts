import { benchAiSdk } from "./aiSdk";
import { benchBudgetOverhead } from "./budgetOverhead";
import { benchCluster } from "./cluster/benchCluster";
import { benchCodegen } from "./codegen";
import { benchComposition } from "./composition";
import { benchConversationStores } from "./conversationStore";
import { benchDataPatterns } from "./dataPatterns";
import { benchDefinition } from "./definition";
import { benchHaystack } from "./haystack";
import { benchLoopOverhead } from "./loopOverhead";
import { benchMcp } from "./mcp/benchMcp";
import { benchMediaRun } from "./mediaRun";
import { benchParallelStep } from "./parallelStep";
import { benchPeer } from "./peer";
import { benchRedaction } from "./redaction";
import { benchStateAppends } from "./stateAppends";
import { benchTracing } from "./tracing";
import { benchUIStream } from "./uiStream";
import { benchWideReply } from "./wideReply";

const sections = ["runtime", "peer", "codegen", "cluster", "mcp", "tracing", "composition", "aisdk", "definition", "conversations", "haystack"] as const;
type Section = (typeof sections)[number];

/** `node dist/bench/index.js [runtime] [peer] [codegen] [cluster] [mcp] [tracing] [composition] [aisdk] [definition] [conversations] [haystack]`: the named sections, or all of them. */
function chosenSections(argv: readonly string[]): Section[] {
  const unknown = argv.filter((a) => !(sections as readonly string[]).includes(a));
  if (unknown.length > 0) throw new Error(`unknown benchmark section ${unknown.map((a) => `'${a}'`).join(", ")}; the sections are ${sections.join(", ")}`);
  return argv.length === 0 ? [...sections] : sections.filter((s) => argv.includes(s));
}

async function main(): Promise<void> {
  const chosen = chosenSections(process.argv.slice(2));
  console.log(`toolwright benchmarks — node ${process.version}, ${process.platform}/${process.arch}`);
  if (chosen.includes("runtime")) {
    console.log("## runtime");
    for (const bench of [benchLoopOverhead, benchParallelStep, benchStateAppends, benchWideReply, benchRedaction, benchDataPatterns, benchBudgetOverhead, benchMediaRun]) {
      for (const line of await bench()) console.log(line);
    }
    const heap = process.memoryUsage();
    console.log(`memory after the runtime runs: rss ${fmt(heap.rss / 2 ** 20)} MiB, heap used ${fmt(heap.heapUsed / 2 ** 20)} MiB`);
  }
  if (chosen.includes("peer")) {
    console.log("## peer-style (a fresh process per figure, forced gc before each timed run; issue #11)");
    await benchPeer((line) => console.log(line));
  }
  if (chosen.includes("codegen")) {
    console.log("## codegen (each tool a fresh process; median of 3 cold runs)");
    await benchCodegen((line) => console.log(line));
  }
  if (chosen.includes("cluster")) {
    console.log("## cluster (toolwright/bullmq on a redis-server of its own; worker processes for throughput and latency; issue #12)");
    await benchCluster((line) => console.log(line));
  }
  if (chosen.includes("mcp")) {
    console.log("## mcp (a trivial tool in process and through McpToolset to a serveMcp child process over stdio and Streamable HTTP; issue #13)");
    await benchMcp((line) => console.log(line));
  }
  if (chosen.includes("tracing")) {
    console.log("## tracing (lifecycle hooks and OpenTelemetry spans per step of the agent loop, against none; issue #14)");
    await benchTracing((line) => console.log(line));
  }
  if (chosen.includes("composition")) {
    console.log("## composition (typed final output and agents as tools, on models that cost nothing; issue #15)");
    await benchComposition((line) => console.log(line));
  }
  if (chosen.includes("aisdk")) {
    console.log("## aisdk (toolwright/ai-sdk's cost per model call on the AI SDK's MockLanguageModelV3, against a ChatGenerator that returns the reply)");
    await benchAiSdk((line) => console.log(line));
  }
  if (chosen.includes("definition")) {
    console.log("## definition (agents as data: Agent.fromJSON, toJSON, YAML, prompt templates, and what loads when; issue #16)");
    await benchDefinition((line) => console.log(line));
  }
  if (chosen.includes("conversations")) {
    console.log("## conversations (toolwright/conversations: load and append latency, concurrent appends; memory, PGlite in a temp dataDir, a Postgres server and a redis-server of its own; issue #31)");
    await benchConversationStores((line) => console.log(line));
  }
  if (chosen.includes("haystack")) {
    console.log("## haystack (Haystack main's read-after-write batches on wide replies, {% message %} templates, import-haystack; issue #33)");
    for (const line of await benchHaystack()) console.log(line);
  }
}

function fmt(value: number): string {
  return value.toFixed(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
