// The dependency rules of src/ (npm run architecture): no import cycle, and the run loop and the
// Agent class reach a bounded number of files. Counted over runtime imports (`import type` is
// erased by the compiler and loads nothing); the count with type imports is printed beside it.
import madge from "madge";

// runLoop: 62 before the pipeline, 59 after it, 61 with the per-tool limits of #28 and the checks
// beside the model call (callBeside), 68 with images and files (#29: a ChatMessage holds media
// parts, so the six files of src/media that check them are reached by anything that reads
// messages, and the executor's toolResultContent turns a tool's media into parts). agent.ts: 125
// before; the target is 90 and it stands at 126 (the per-tool limits of #28, callBeside, a
// middleware's own model calls, the media of #29) — what remains beyond the loop is observation,
// decorated-tool resolution, resume and the option specs (see BENCHMARKS.md, "Architecture"); 129
// with runs in a thread (#31: threadRun, ConversationAppendError and the conversation error base it
// extends; the loop itself is unchanged); 132 with #32's development-time checks of decorated tools
// against their source (toolSignature, toolLocation and the file reader they share: a changed
// signature is a StaleSchemaError, errors carry file:line:col). Both +2 with #33: ChatMessage reads
// Haystack's older serialized forms (haystackMessageForms), and toolOutputs holds the test that tells
// outputsToString's several-outputs form from the single one (a function now, not only types).
// agent.ts 135 with #33's {% message %} prompts: promptMessage checks a systemPrompt/userPrompt's
// blocks when the Agent is made and turns the rendered block into the run's message (the block
// renderer itself was already reached through promptTemplate). The limit holds the line until those move.
const limits = { "run/runLoop.ts": 70, "agent/agent.ts": 135 };

async function graph(skipTypeImports) {
  const result = await madge("src", { fileExtensions: ["ts"], tsConfig: "tsconfig.json", detectiveOptions: { ts: { skipTypeImports } } });
  return result;
}

function reach(edges, start) {
  const seen = new Set();
  const stack = [start];
  while (stack.length > 0) {
    const file = stack.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const next of edges[file] ?? []) stack.push(next);
  }
  return seen.size;
}

const runtime = await graph(true);
const typed = await graph(false);
const problems = [];
for (const cycle of typed.circular()) problems.push(`import cycle: ${[...cycle, cycle[0]].join(" → ")}`);
for (const [file, limit] of Object.entries(limits)) {
  const count = reach(runtime.obj(), file);
  console.log(`${file} reaches ${count} files (limit ${limit}); ${reach(typed.obj(), file)} counting type imports`);
  if (count > limit) problems.push(`${file} reaches ${count} files, more than ${limit}`);
}
if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  process.exit(1);
}
console.log("no import cycle in src/");
