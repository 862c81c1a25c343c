import { type Tool, toolInternals } from "./tool";

/**
 * The order a step's calls run and commit in, as Haystack main's `_schedule_tool_calls`
 * (haystack/components/agents/tool_calling.py): batches of calls, each batch starting once the one
 * before it is committed. A call that reads a state key (inputsFromState) runs in a later batch
 * than every call of the step that writes it (outputsToState), whatever order the model asked for;
 * a tool that uses the whole State reads and writes every key. Each round, every call whose writers
 * are all scheduled forms the next batch; a cycle (a tool that reads and writes one key, called
 * twice) is broken by running the lowest-index call that is left on its own. Calls of an unknown
 * tool are left out.
 */
export interface CallSchedule {
  /** Call indices in the order they commit: batch after batch, each in call order. */
  readonly order: readonly number[];
  /** Each call's batch (undefined for a call left out). */
  readonly batch: ReadonlyArray<number | undefined>;
  /** Each batch's last call in `order`: a call of batch b waits until batch b − 1's last call is committed. */
  readonly lastOfBatch: readonly number[];
}

/**
 * Schedules a step's calls by the state keys their tools read and write. Haystack's rounds, with
 * each call's blocking writers counted per key instead of compared pair by pair: counts only go
 * down, so a call is looked at again only when one of its keys loses its last other writer, and a
 * step of 10,000 calls costs about 10,000 steps even when every call reads and writes one key.
 */
export function scheduleCalls(tools: ReadonlyArray<Tool | undefined>): CallSchedule {
  // Most steps read no state: one batch in call order, without the bookkeeping below.
  if (!tools.some((tool) => tool !== undefined && (tool.usesState || toolInternals(tool).inputsFromState.length > 0))) return oneBatch(tools);
  const calls: CallIO[] = [];
  tools.forEach((tool, index) => {
    if (tool) calls.push(callIO(tool, index));
  });
  const counts: Counts = { writers: new Map(), wholeState: 0, anyWriter: 0 };
  // Each key's readers, split by whether they write it too (their own write does not block them).
  const readers = new Map<string, { readonly writing: CallIO[]; readonly notWriting: CallIO[] }>();
  for (const call of calls) {
    count(counts, call, 1);
    for (const key of call.reads) {
      let entry = readers.get(key);
      if (!entry) readers.set(key, (entry = { writing: [], notWriting: [] }));
      (call.writes.has(key) ? entry.writing : entry.notWriting).push(call);
    }
  }
  for (const call of calls) for (const key of call.reads) if (otherWriters(counts, key, call) > 0) call.blockedKeys++;
  const batch: Array<number | undefined> = tools.map(() => undefined);
  const order: number[] = [];
  const lastOfBatch: number[] = [];
  let next = calls.filter((call) => isReady(call, counts));
  let lowest = 0;
  while (order.length < calls.length) {
    let ready = next.filter((call) => batch[call.index] === undefined);
    if (ready.length === 0) {
      // A dependency cycle remains: the lowest-index call runs next, on its own.
      while (batch[calls[lowest]!.index] !== undefined) lowest++;
      ready = [calls[lowest]!];
    } else {
      ready = [...new Set(ready)].sort((a, b) => a.index - b.index);
    }
    for (const call of ready) {
      batch[call.index] = lastOfBatch.length;
      order.push(call.index);
    }
    lastOfBatch.push(ready.at(-1)!.index);
    next = [];
    for (const call of ready) release(call, { counts, readers, calls, batch, next });
  }
  return { order, batch, lastOfBatch };
}

// Every known call in one batch, in call order.
function oneBatch(tools: ReadonlyArray<Tool | undefined>): CallSchedule {
  const order: number[] = [];
  const batch = tools.map((tool, index) => {
    if (!tool) return undefined;
    order.push(index);
    return 0;
  });
  return { order, batch, lastOfBatch: order.length > 0 ? [order.at(-1)!] : [] };
}

/** The state keys one call reads and writes; `wholeState` for a tool given the live State. */
interface CallIO {
  readonly index: number;
  readonly wholeState: boolean;
  readonly reads: ReadonlySet<string>;
  readonly writes: ReadonlySet<string>;
  /** How many keys it reads that another unscheduled call writes. */
  blockedKeys: number;
}

/** How many unscheduled calls write each key, use the whole State, write anything at all. */
interface Counts {
  readonly writers: Map<string, number>;
  wholeState: number;
  anyWriter: number;
}

/** What `release` updates. */
interface Release {
  readonly counts: Counts;
  readonly readers: ReadonlyMap<string, { readonly writing: CallIO[]; readonly notWriting: CallIO[] }>;
  readonly calls: readonly CallIO[];
  readonly batch: ReadonlyArray<number | undefined>;
  /** The calls that may be ready for the next round. */
  readonly next: CallIO[];
}

function callIO(tool: Tool, index: number): CallIO {
  if (tool.usesState) return { index, wholeState: true, reads: new Set(), writes: new Set(), blockedKeys: 0 };
  const { inputsFromState, writesKeys } = toolInternals(tool);
  return { index, wholeState: false, reads: new Set(inputsFromState.map(([key]) => key)), writes: new Set(writesKeys), blockedKeys: 0 };
}

function count(counts: Counts, call: CallIO, by: 1 | -1): void {
  if (call.wholeState) {
    counts.wholeState += by;
    counts.anyWriter += by;
    return;
  }
  if (call.writes.size > 0) counts.anyWriter += by;
  for (const key of call.writes) counts.writers.set(key, (counts.writers.get(key) ?? 0) + by);
}

// The unscheduled calls other than `call` that write `key`.
function otherWriters(counts: Counts, key: string, call: CallIO): number {
  return (counts.writers.get(key) ?? 0) - (call.writes.has(key) ? 1 : 0);
}

// Ready when no other unscheduled call writes a key it reads (Haystack's `deps[k] <= done`).
function isReady(call: CallIO, counts: Counts): boolean {
  if (call.wholeState) return counts.anyWriter - 1 === 0;
  if (call.reads.size === 0) return true;
  return counts.wholeState === 0 && call.blockedKeys === 0;
}

// A call was scheduled: the counts go down, and the calls it was the last blocker of become candidates.
function release(call: CallIO, step: Release): void {
  const { counts, readers, calls, batch, next } = step;
  const wholeStateBefore = counts.wholeState;
  const anyWriterBefore = counts.anyWriter;
  count(counts, call, -1);
  for (const key of call.writes) {
    const left = counts.writers.get(key)!;
    const entry = readers.get(key);
    // A reader that writes the key too is free of it when it is its only writer left; another, when none is left.
    const freed = left === 1 ? entry?.writing : left === 0 ? entry?.notWriting : undefined;
    for (const reader of freed ?? []) {
      if (batch[reader.index] !== undefined || otherWriters(counts, key, reader) !== 0) continue;
      if (--reader.blockedKeys === 0 && isReady(reader, counts)) next.push(reader);
    }
  }
  // The last whole-State tool was scheduled: readers free of their keys are ready. Once per step.
  if (wholeStateBefore > 0 && counts.wholeState === 0) {
    for (const other of calls) if (batch[other.index] === undefined && !other.wholeState && other.reads.size > 0 && other.blockedKeys === 0) next.push(other);
  }
  // One writer is left: a whole-State tool that is it is ready. Once per step.
  if (anyWriterBefore > 1 && counts.anyWriter <= 1) {
    for (const other of calls) if (batch[other.index] === undefined && other.wholeState && isReady(other, counts)) next.push(other);
  }
}

/** A promise and the function that resolves it (a gate a later call waits at). */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
