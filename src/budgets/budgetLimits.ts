import { ConfigurationError } from "../errors";
import { truncateForEcho } from "../util/truncate";

/** A model's price in the currency of `maxCost.amount`, per 1,000,000 tokens. */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
}

/** A cost limit: the run's input and output tokens priced for one model. */
export interface CostLimit {
  /** The most the run may cost, in the currency of `prices`. */
  readonly amount: number;
  /** The model the run's tokens are priced as: its name, or the chat generator itself (its `model` is read once, here). */
  readonly model: string | { readonly model?: string | undefined };
  /** Prices per 1M tokens, by model name. */
  readonly prices: Readonly<Record<string, ModelPrice>>;
}

/** The limits of a budget; each is optional, and a run stops once it has used as much as one allows. */
export interface BudgetLimits {
  readonly maxInputTokens?: number;
  readonly maxOutputTokens?: number;
  readonly maxTotalTokens?: number;
  readonly maxCost?: CostLimit;
  readonly maxModelCalls?: number;
  readonly maxToolCalls?: number;
  /** Active run time in ms: what the run spent inside `agent.run` calls (see `elapsedStateKey`). */
  readonly maxWallClockMs?: number;
}

/** The budget kinds, as a stop names them (`details.budget`). */
export type BudgetKind = "inputTokens" | "outputTokens" | "totalTokens" | "cost" | "modelCalls" | "toolCalls" | "wallClockMs";

/** Limits checked once: each a number, the cost priced for a known model. */
export interface CheckedLimits {
  readonly counts: ReadonlyArray<{ readonly kind: Exclude<BudgetKind, "cost" | "wallClockMs">; readonly limit: number }>;
  readonly cost?: { readonly limit: number; readonly model: string; readonly price: ModelPrice };
  readonly wallClockMs?: number;
}

const countLimits = { maxInputTokens: "inputTokens", maxOutputTokens: "outputTokens", maxTotalTokens: "totalTokens", maxModelCalls: "modelCalls", maxToolCalls: "toolCalls" } as const;
const known = [...Object.keys(countLimits), "maxCost", "maxWallClockMs"];

/** Checks a budget's limits (a `ConfigurationError` naming the budget and the option) and puts them in the form the checks read. */
export function checkLimits(name: string, limits: BudgetLimits): CheckedLimits {
  const subject = `Budget '${name}'`;
  if (typeof limits !== "object" || limits === null) throw new ConfigurationError(subject, `${subject} takes an object of limits (maxModelCalls, maxTotalTokens, maxCost, …).`);
  const unknown = Object.keys(limits).filter((key) => !known.includes(key));
  if (unknown.length > 0) throw new ConfigurationError(subject, `${subject} has no limit '${unknown[0]}'; the limits are ${known.join(", ")}.`, { optionPath: [unknown[0]!] });
  const counts: Array<CheckedLimits["counts"][number]> = [];
  for (const [option, kind] of Object.entries(countLimits) as Array<[keyof typeof countLimits, CheckedLimits["counts"][number]["kind"]]>) {
    const limit = limits[option];
    if (limit !== undefined) counts.push({ kind, limit: amountOf(subject, option, limit) });
  }
  const wallClockMs = limits.maxWallClockMs === undefined ? undefined : amountOf(subject, "maxWallClockMs", limits.maxWallClockMs);
  const cost = limits.maxCost === undefined ? undefined : checkCost(subject, limits.maxCost);
  return { counts, ...(cost && { cost }), ...(wallClockMs !== undefined && { wallClockMs }) };
}

function checkCost(subject: string, maxCost: CostLimit): NonNullable<CheckedLimits["cost"]> {
  if (typeof maxCost !== "object" || maxCost === null) throw new ConfigurationError(subject, `${subject} option maxCost must be { amount, model, prices }.`, { optionPath: ["maxCost"] });
  const limit = amountOf(subject, "maxCost.amount", maxCost.amount);
  const model = typeof maxCost.model === "string" ? maxCost.model : maxCost.model?.model;
  if (typeof model !== "string" || model === "") {
    throw new ConfigurationError(subject, `${subject} option maxCost.model must be a model name or a chat generator that names its model; this one has no model.`, { optionPath: ["maxCost", "model"] });
  }
  const prices = maxCost.prices;
  if (typeof prices !== "object" || prices === null) throw new ConfigurationError(subject, `${subject} option maxCost.prices must map model names to { input, output } per 1M tokens.`, { optionPath: ["maxCost", "prices"] });
  if (!Object.hasOwn(prices, model)) {
    // Model names and price keys may come from a definition: each echoed cut to the echo limit, at most 20 of them.
    const priced = Object.keys(prices).slice(0, 20).map((key) => truncateForEcho(key));
    throw new ConfigurationError(subject, `${subject} has no price for model '${truncateForEcho(model)}'; add it to maxCost.prices (priced: ${priced.length > 0 ? priced.join(", ") : "none"}).`, { optionPath: ["maxCost", "prices"] });
  }
  const price = prices[model]!;
  const input = amountOf(subject, `maxCost.prices.${model}.input`, price?.input);
  const output = amountOf(subject, `maxCost.prices.${model}.output`, price?.output);
  return { limit, model, price: { input, output } };
}

function amountOf(subject: string, option: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new ConfigurationError(subject, `${subject} option ${option} must be a finite number ≥ 0; got ${describe(value)}.`, { optionPath: option.split(".") });
  }
  return value;
}

function describe(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return value === null ? "null" : typeof value;
}
