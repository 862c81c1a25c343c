import fc from "fast-check";
import { Tool } from "toolwright";
import { scheduleCalls } from "../../src/tools/callOrder";

// Haystack main's TestScheduleToolCalls (test/components/agents/test_tool_calling.py), ported: the
// same tools and calls give the same batches. Its test_llm_supplied_arg_is_not_a_state_read has no
// counterpart: a toolwright model cannot send a parameter inputsFromState fills (it is not in its schema).

function reader(key = "documents"): Tool {
  return new Tool({ name: "reader_tool", description: "Reads from state.", parameters: { type: "object", properties: { value: { type: "string" } } }, function: () => ({ ok: true }), inputsFromState: { [key]: "value" } });
}

function writer(key = "documents"): Tool {
  return new Tool({ name: "writer_tool", description: "Writes to state.", parameters: { type: "object", properties: {} }, function: () => ({ out: "written" }), outputsToState: { [key]: { source: "out" } } });
}

function retrieval(): Tool {
  return new Tool({
    name: "retrieval_tool",
    description: "Reads and writes documents.",
    parameters: { type: "object", properties: { documents: { type: "array" } } },
    function: () => ({ documents: [] }),
    inputsFromState: { documents: "documents" },
    outputsToState: { documents: { source: "documents" } },
  });
}

function stateTool(): Tool {
  return new Tool({ name: "state_tool", description: "Receives the live State.", parameters: { type: "object", properties: {} }, function: () => "done", usesState: true });
}

// The schedule as Haystack writes it: a list of batches of call indices.
function batches(tools: Array<Tool | undefined>): number[][] {
  const { order, batch } = scheduleCalls(tools);
  const out: number[][] = [];
  for (const index of order) (out[batch[index]!] ??= []).push(index);
  return out;
}

describe("scheduleCalls", () => {
  it("gives no batches for no calls", () => {
    expect(batches([])).toEqual([]);
  });

  it("runs a single call in one batch", () => {
    expect(batches([writer()])).toEqual([[0]]);
  });

  it("runs readers of a key nobody writes together", () => {
    expect(batches([reader(), reader()])).toEqual([[0, 1]]);
  });

  it("runs calls on disjoint keys together", () => {
    expect(batches([writer("a"), reader("b")])).toEqual([[0, 1]]);
  });

  it("runs a reader after a writer called before it", () => {
    expect(batches([writer("docs"), reader("docs")])).toEqual([[0], [1]]);
  });

  it("runs a reader after a writer called after it", () => {
    expect(batches([reader("docs"), writer("docs")])).toEqual([[1], [0]]);
  });

  it("runs two writers of one key together", () => {
    expect(batches([writer("docs"), writer("docs")])).toEqual([[0, 1]]);
  });

  it("breaks a read-write cycle by call order", () => {
    expect(batches([retrieval(), retrieval(), retrieval()])).toEqual([[0], [1], [2]]);
  });

  it("makes a usesState tool a barrier between the calls that touch state", () => {
    expect(batches([reader("a"), stateTool(), writer("b")])).toEqual([[2], [1], [0]]);
  });

  it("runs a call that touches no state beside a usesState tool", () => {
    const free = new Tool({ name: "free", description: "Touches no state.", parameters: { type: "object", properties: {} }, function: () => "free" });
    expect(batches([stateTool(), free])).toEqual([[0, 1]]);
  });

  it("leaves calls of unknown tools out", () => {
    expect(batches([undefined, reader("docs"), undefined, writer("docs")])).toEqual([[3], [1]]);
    expect(scheduleCalls([undefined, writer()]).batch).toEqual([undefined, 0]);
  });

  // Haystack's _schedule_tool_calls line by line (pairwise deps, layered rounds), against the counted one.
  it("gives the batches Haystack's pairwise algorithm gives, for any mix of readers, writers and usesState tools", () => {
    const keys = ["a", "b", "c"];
    const spec = fc.record({ state: fc.boolean(), reads: fc.subarray(keys), writes: fc.subarray(keys), known: fc.boolean() });
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 12 }), (specs) => {
        const tools = specs.map((t, i) =>
          !t.known && i % 3 === 0
            ? undefined
            : new Tool({
                name: `t${i}`,
                description: "A tool.",
                parameters: { type: "object", properties: Object.fromEntries(t.reads.map((key) => [`p_${key}`, { type: "string" }])) },
                function: () => "x",
                ...(t.state ? { usesState: true } : { inputsFromState: Object.fromEntries(t.reads.map((key) => [key, `p_${key}`])), outputsToState: Object.fromEntries(t.writes.map((key) => [key, {}])) }),
              }),
        );
        expect(batches(tools)).toEqual(haystackBatches(tools));
      }),
      { numRuns: 300 },
    );
  });

  it("schedules 10,000 calls that all read and write one key one after another", () => {
    const { order, lastOfBatch } = scheduleCalls(Array(10_000).fill(retrieval()));
    expect(lastOfBatch).toHaveLength(10_000);
    expect(order.slice(0, 3)).toEqual([0, 1, 2]);
  });
});

const all = Symbol("all keys");

function haystackBatches(tools: Array<Tool | undefined>): number[][] {
  const known = tools.flatMap((tool, index) => (tool ? [{ tool, index }] : []));
  const io = known.map(({ tool }) => {
    if (tool.usesState) return { reads: all, writes: all } as const;
    return { reads: new Set(Object.keys(tool.inputsFromState)), writes: new Set(Object.keys(tool.outputsToState)) };
  });
  const intersect = (a: Set<string> | typeof all, b: Set<string> | typeof all) => (a === all ? b === all || b.size > 0 : b === all ? a.size > 0 : [...a].some((key) => b.has(key)));
  const n = known.length;
  const deps = io.map((_, j) => new Set(io.flatMap((other, i) => (i !== j && intersect(io[j]!.reads, other.writes) ? [i] : []))));
  const done = new Set<number>();
  const out: number[][] = [];
  while (done.size < n) {
    let ready = [...Array(n).keys()].filter((k) => !done.has(k) && [...deps[k]!].every((d) => done.has(d)));
    if (ready.length === 0) ready = [[...Array(n).keys()].find((k) => !done.has(k))!];
    for (const k of ready) done.add(k);
    out.push(ready.map((k) => known[k]!.index));
  }
  return out;
}
