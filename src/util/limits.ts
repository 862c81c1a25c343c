/**
 * The limits toolwright applies to input it does not control (model replies, human decisions,
 * snapshots). Each is documented in the README's "Security model".
 */
export const limits = Object.freeze({
  /** Tool-call arguments (from the model or a `modify` decision) may nest this many levels. */
  maxArgumentDepth: 64,
  /** A snapshot given to `agent.run({ snapshot })` may nest this many levels as a whole. */
  maxSnapshotDepth: 512,
  /** An agent definition (`Agent.fromJSON`, `loadAgent`) may nest this many levels as a whole. */
  maxDefinitionDepth: 64,
  /** Names echoed back to the model (an unknown tool or property) are cut to this many characters. */
  maxEchoedNameLength: 64,
  /** A tool's progress message (`toolProgress` chunks; an MCP server's progress notifications) is cut to this many characters. */
  maxProgressMessageLength: 1_000,
  /** At most this many argument problems are listed in one error message to the model. */
  maxListedProblems: 20,
  /** Redaction takes on at most this many strings and numbers in one call's injected values; past it, the error detail is withheld. */
  maxRedactedLeaves: 10_000,
  /**
   * Redaction searches for at most this many characters of forms (up to 11 forms of each string or
   * number, about 7–10 times its length, plus the JSON texts); past it, the error detail is withheld.
   * 1,000 records of ten short fields come to about 1.9 million.
   */
  maxRedactionChars: 4_000_000,
});
