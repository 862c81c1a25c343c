/**
 * The limits toolwright applies to input it does not control (model replies, human decisions,
 * snapshots). Each is documented in the README's "Security model".
 */
export const limits = Object.freeze({
  /** Tool-call arguments (from the model or a `modify` decision) may nest this many levels. */
  maxArgumentDepth: 64,
  /** A snapshot given to `agent.run({ snapshot })` may nest this many levels as a whole. */
  maxSnapshotDepth: 512,
  /** Names echoed back to the model (an unknown tool or property) are cut to this many characters. */
  maxEchoedNameLength: 64,
  /** At most this many argument problems are listed in one error message to the model. */
  maxListedProblems: 20,
});
