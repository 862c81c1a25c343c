import type { ChatMessage } from "toolwright";

/** The messages of run `i` of `worker`: 1 to 3 of them, each `<runId> <k>/<parts>` padded to `bytes`. */
export function runMessages(worker: string, i: number, bytes: number): ChatMessage[];
