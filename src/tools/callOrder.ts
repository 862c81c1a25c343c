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

/** Schedules a step's calls by the state keys their tools read and write. */
export function scheduleCalls(tools: ReadonlyArray<Tool | undefined>): CallSchedule {
  const calls: CallIO[] = [];
  tools.forEach((tool, index) => {
    if (tool) calls.push(callIO(tool, index));
  });
  const undone: Undone = { writers: new Map(), wholeState: 0, anyWriter: 0 };
  for (const call of calls) count(undone, call, 1);
  const batch: Array<number | undefined> = tools.map(() => undefined);
  const order: number[] = [];
  const lastOfBatch: number[] = [];
  let left = calls;
  while (left.length > 0) {
    let ready = left.filter((call) => isReady(call, undone));
    // A dependency cycle remains: the lowest-index call runs next, on its own.
    if (ready.length === 0) ready = [left[0]!];
    for (const call of ready) {
      count(undone, call, -1);
      batch[call.index] = lastOfBatch.length;
      order.push(call.index);
    }
    lastOfBatch.push(ready.at(-1)!.index);
    left = ready.length === left.length ? [] : left.filter((call) => batch[call.index] === undefined);
  }
  return { order, batch, lastOfBatch };
}

/** The state keys one call reads and writes; `wholeState` for a tool given the live State. */
interface CallIO {
  readonly index: number;
  readonly wholeState: boolean;
  readonly reads: readonly string[];
  readonly writes: ReadonlySet<string>;
}

/** How many calls not yet scheduled write each key, use the whole State, write anything at all. */
interface Undone {
  readonly writers: Map<string, number>;
  wholeState: number;
  anyWriter: number;
}

function callIO(tool: Tool, index: number): CallIO {
  if (tool.usesState) return { index, wholeState: true, reads: [], writes: new Set() };
  const { inputsFromState, writesKeys } = toolInternals(tool);
  return { index, wholeState: false, reads: inputsFromState.map(([key]) => key), writes: new Set(writesKeys) };
}

function count(undone: Undone, call: CallIO, by: 1 | -1): void {
  if (call.wholeState) {
    undone.wholeState += by;
    undone.anyWriter += by;
    return;
  }
  if (call.writes.size > 0) undone.anyWriter += by;
  for (const key of call.writes) undone.writers.set(key, (undone.writers.get(key) ?? 0) + by);
}

// Ready when no other call left writes a key it reads (Haystack's `deps[k] <= done`, counted per key).
function isReady(call: CallIO, undone: Undone): boolean {
  if (call.wholeState) return undone.anyWriter - 1 === 0;
  if (call.reads.length === 0) return true;
  if (undone.wholeState > 0) return false;
  for (const key of call.reads) if ((undone.writers.get(key) ?? 0) - (call.writes.has(key) ? 1 : 0) > 0) return false;
  return true;
}

/** A promise and the function that resolves it (a gate a later call waits at). */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
