import type { ToolCall } from "../chat/chatMessage";
import type { RunObserver } from "../observe/runObserver";
import { faultMessage } from "../observe/toolErrorEvent";
import { debugLog, escapeControls, inspectForLog } from "../util/debugLog";
import type { ToolFault } from "./toolFault";

/** Where a faulty call was made: its run and step, when it was made in an Agent run. */
export interface FaultSite {
  /** The tool's name (the fault's tool exists: the model did not make it up). */
  readonly toolName: string;
  /** The call as the model made it (its id came from the model: it is cut and quoted in the log). */
  readonly call: ToolCall;
  /** The run's id and the step's number; undefined outside a run (ToolRunner, serveMcp). */
  readonly run: { readonly runId: () => string; readonly step: number } | undefined;
  /** The run's observer, when the run has hooks or a tracer. */
  readonly observer: RunObserver | undefined;
}

/**
 * Tells the developer about a fault, whatever the model is told: the run's `onToolError` hooks get
 * the original error, and the debug log (`NODE_DEBUG=toolwright`) prints it with its stack.
 */
export function reportToolFault(fault: ToolFault, site: FaultSite): void {
  // Telling the developer must never change the call's outcome or stop the run.
  try {
    if (debugLog.enabled) debugLog("%s", faultLogEntry(fault, site));
  } catch {}
  try {
    if (site.run && site.observer) site.observer.toolError(site.run.step, site.call, fault);
  } catch {}
}

// The entry's lines after the first are indented: text from a tool's error cannot pass for an entry of its own.
function faultLogEntry(fault: ToolFault, site: FaultSite): string {
  const where = [site.run && `run ${escapeControls(JSON.stringify(site.run.runId()))}`, site.run && `step ${site.run.step}`, site.call.id !== undefined && `call ${escapeControls(JSON.stringify(site.call.id.slice(0, 64)))}`].filter(Boolean).join(", ");
  const head = escapeControls(faultMessage(site.toolName, fault).split("\n", 1)[0]!);
  const body = "error" in fault ? `\n${inspectForLog(fault.error)}` : "";
  return `${where ? `${where}: ` : ""}${head}${body}`.replace(/\n/g, "\n  ");
}
