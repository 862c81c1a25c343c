import { budget } from "../budgets/budget";
import type { BudgetLimits } from "../budgets/budgetLimits";
import { pruneToolResults } from "../context/pruneToolResults";
import { slidingWindow } from "../context/slidingWindow";
import { DefinitionError } from "../errors";
import type { Middleware } from "../run/middleware";
import type { AgentDefinition } from "./agentDefinition";
import { guardrailsFromDefinition } from "./guardrailDefinition";
import { madeAt } from "./madeAt";
import { tokenCounterFromDefinition } from "./tokenCounterDefinition";

/**
 * The middleware a definition's `guardrails`, `budget` and `compaction` make, in the order they
 * run: the guardrails, then the budget, then `pruneToolResults`, then `slidingWindow` (the window
 * measures what pruning left, counted by `compaction.tokenCounter`). Guardrails come first: a
 * tripped input ends the run before the budget counts or compaction reshapes anything, and
 * compaction measures what is really sent (a blocked message is sent as its reason). Each value
 * is checked by the middleware's own factory; its `ConfigurationError` becomes a `DefinitionError`
 * at the value's path (`guardrails.input[0].denyPatterns.patterns[0]`, `budget.maxCost.prices`,
 * `compaction.slidingWindow.maxTokens`). `toolNames` are the Agent's tools, which a tool
 * guardrail's `tools` must name.
 */
export function middlewareFromDefinition(definition: Pick<AgentDefinition, "guardrails" | "budget" | "compaction">, toolNames: readonly string[]): Middleware[] {
  const middleware: Middleware[] = guardrailsFromDefinition(definition.guardrails, toolNames);
  if (definition.budget !== undefined) middleware.push(madeAt(["budget"], definition.budget, () => budget({ ...(definition.budget as BudgetLimits) })));
  const { pruneToolResults: prune, slidingWindow: window, tokenCounter } = definition.compaction ?? {};
  if (tokenCounter !== undefined && window === undefined) {
    throw new DefinitionError(["compaction", "tokenCounter"], "counts tokens for compaction.slidingWindow, which this definition does not have; add slidingWindow: { maxTokens }, or remove tokenCounter.");
  }
  if (prune !== undefined) middleware.push(madeAt(["compaction", "pruneToolResults"], prune, () => pruneToolResults({ ...prune })));
  if (window !== undefined) {
    const counter = tokenCounter === undefined ? undefined : tokenCounterFromDefinition(tokenCounter, ["compaction", "tokenCounter"]);
    middleware.push(madeAt(["compaction", "slidingWindow"], window, () => slidingWindow({ ...window, ...(counter !== undefined && { counter }) })));
  }
  return middleware;
}
