import { budget } from "../budgets/budget";
import type { BudgetLimits } from "../budgets/budgetLimits";
import { pruneToolResults } from "../context/pruneToolResults";
import { slidingWindow } from "../context/slidingWindow";
import { ConfigurationError, DefinitionError } from "../errors";
import type { Middleware } from "../run/middleware";
import type { AgentDefinition } from "./agentDefinition";

type Path = readonly (string | number)[];

/**
 * The middleware a definition's `budget` and `compaction` make, in the order they run: the budget,
 * then `pruneToolResults`, then `slidingWindow` (the window measures what pruning left). Each value
 * is checked by the middleware's own factory; its `ConfigurationError` becomes a `DefinitionError`
 * at the value's path (`budget.maxCost.prices`, `compaction.slidingWindow.maxTokens`).
 */
export function middlewareFromDefinition(definition: Pick<AgentDefinition, "budget" | "compaction">): Middleware[] {
  const middleware: Middleware[] = [];
  if (definition.budget !== undefined) middleware.push(made(["budget"], () => budget({ ...(definition.budget as BudgetLimits) })));
  const { pruneToolResults: prune, slidingWindow: window } = definition.compaction ?? {};
  if (prune !== undefined) middleware.push(made(["compaction", "pruneToolResults"], () => pruneToolResults({ ...prune })));
  if (window !== undefined) middleware.push(made(["compaction", "slidingWindow"], () => slidingWindow({ ...window })));
  return middleware;
}

function made(path: Path, make: () => Middleware): Middleware {
  try {
    return make();
  } catch (error) {
    if (!(error instanceof ConfigurationError) || error instanceof DefinitionError) throw error;
    throw new DefinitionError([...path, ...(error.optionPath ?? [])], error.message, { cause: error });
  }
}
