import type { ConfirmationStrategy } from "./confirmationTypes";

/** The strategy for a tool: its own, else the `"*"` one. */
export function strategyFor(strategies: ReadonlyMap<string, ConfirmationStrategy> | undefined, toolName: string): ConfirmationStrategy | undefined {
  return strategies?.get(toolName) ?? strategies?.get("*");
}
