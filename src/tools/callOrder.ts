import { type Tool, toolInternals } from "./tool";

// For each call, the latest earlier call it must wait for: one that writes a key it reads, or any
// call when either side uses the whole State. Waiting for the latest is enough, since results are
// committed in call order. One pass, so a reply with 10,000 calls costs 10,000 steps, not 10,000².
export function dependencies(tools: ReadonlyArray<Tool | undefined>): Array<number | undefined> {
  const lastWriter = new Map<string, number>();
  let lastCall: number | undefined;
  let lastWholeState: number | undefined;
  return tools.map((tool, index) => {
    if (!tool) return undefined;
    const { inputsFromState, writesKeys } = toolInternals(tool);
    let dependency = tool.usesState ? lastCall : lastWholeState;
    if (!tool.usesState) {
      for (const [key] of inputsFromState) {
        const writer = lastWriter.get(key);
        if (writer !== undefined && (dependency === undefined || writer > dependency)) dependency = writer;
      }
    }
    for (const key of writesKeys) lastWriter.set(key, index);
    if (tool.usesState) lastWholeState = index;
    lastCall = index;
    return dependency;
  });
}

/** A promise and the function that resolves it (a gate a later call waits at). */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
