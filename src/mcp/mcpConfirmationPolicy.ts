import type { ConfirmationPolicy, ConfirmationRequest } from "../hitl/confirmationTypes";
import type { Tool } from "../tools/tool";
import { isDestructive, mcpToolDetails } from "./mcpToolDetails";

/** Which calls of an McpToolset its `confirmationPolicy` asks about. */
export type McpConfirm = "destructive" | "writes" | "all";

/**
 * Asks about the calls to an McpToolset's tools that its `confirm` option names, by the server's
 * annotations as they are when the call is made (the tool list may have changed): `"destructive"`
 * (default) those not read-only and not said to be non-destructive, `"writes"` those not
 * read-only, `"all"` every one. Calls to other tools are not asked about.
 */
export class McpConfirmationPolicy implements ConfirmationPolicy {
  readonly #tools: () => readonly Tool[];
  readonly #confirm: McpConfirm;

  constructor(tools: () => readonly Tool[], confirm: McpConfirm) {
    this.#tools = tools;
    this.#confirm = confirm;
  }

  shouldAsk(request: ConfirmationRequest): boolean {
    const tool = this.#tools().find((candidate) => candidate.name === request.toolName);
    const details = tool && mcpToolDetails(tool);
    if (!details) return false;
    if (this.#confirm === "all") return true;
    if (this.#confirm === "writes") return details.annotations.readOnlyHint !== true;
    return isDestructive(details.annotations);
  }
}
