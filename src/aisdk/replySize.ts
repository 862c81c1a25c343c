import { type ModelCall, providerFault } from "./toChatGeneratorError";

/**
 * The most characters one reply may be made of in all: text, reasoning and its metadata, tool names,
 * ids and inputs (64 Mi). Far beyond any real reply; it keeps a provider that sends thousands of
 * giant parts from building strings JavaScript cannot hold (a RangeError) or a message the run
 * cannot store or send back.
 */
export const maxReplyCharacters = 2 ** 26;

/** Counts the characters a reply is assembled from; past `maxReplyCharacters`, a ChatGeneratorError. */
export class ReplySize {
  readonly #call: ModelCall;
  #total = 0;

  constructor(call: ModelCall) {
    this.#call = call;
  }

  /** Returns `piece` once it is counted. */
  count<T extends string | undefined>(piece: T): T {
    this.#total += piece?.length ?? 0;
    if (this.#total > maxReplyCharacters) {
      throw providerFault(this.#call, `the reply is longer than ${maxReplyCharacters} characters (its text, reasoning, tool names, ids and inputs), the limit, so it is not used.`);
    }
    return piece;
  }
}
