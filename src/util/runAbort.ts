/**
 * The abort scope of one agent run, under the name the run loop still imports (src/agent,
 * src/tools/invokeTools.ts); new code uses `AbortScope` itself.
 */
export { AbortScope as RunAbort } from "./abortScope";
