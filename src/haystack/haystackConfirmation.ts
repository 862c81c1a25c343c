import type { BudgetDefinition, ConfirmationDefinition } from "../definition/agentDefinition";
import { setOwn } from "../util/ownProperty";
import { asMapping, type ImportContext, shortName, type YamlPath } from "./importContext";

/** A `BlockingConfirmationStrategy` the tools module builds and exports under `name`. */
export interface BlockingStrategyStub {
  readonly name: string;
  /** `AlwaysAskPolicy`, `NeverAskPolicy` or `AskOncePolicy`. */
  readonly policy: string;
  /** The Haystack confirmation UI the `ask` function replaces. */
  readonly ui: string;
}

/** Confirmation and hooks as the definition has them, and the strategies the tools module exports. */
export interface ConvertedConfirmation {
  readonly strategies: Record<string, ConfirmationDefinition>;
  readonly stubs: BlockingStrategyStub[];
  budget?: BudgetDefinition;
}

const policies = new Set(["AlwaysAskPolicy", "NeverAskPolicy", "AskOncePolicy"]);
const blocking = "BlockingConfirmationStrategy";
const defaultTemplates: Readonly<Record<string, string>> = Object.freeze({
  reject_template: "Tool execution for '{tool_name}' was rejected by the user.",
  modify_template: "The parameters for tool '{tool_name}' were updated by the user to:\n{final_tool_params}",
  user_feedback_template: "With user feedback: {feedback}",
});

/** An empty conversion to add to. */
export function noConfirmation(): ConvertedConfirmation {
  return { strategies: {}, stubs: [] };
}

/**
 * Haystack 2.x's `confirmation_strategies` (tool name, `"*"` or a JSON array of names → a serialized
 * strategy) into `out`: a `BlockingConfirmationStrategy` becomes a `registry.confirmationStrategies`
 * entry the tools module exports (its policy kept, its confirmation UI an `ask` function to write:
 * hand work); any other strategy is a registry name and hand work.
 */
export function convertStrategies(value: unknown, path: YamlPath, context: ImportContext, out: ConvertedConfirmation): void {
  if (value === undefined || value === null) return;
  const strategies = asMapping(value);
  if (!strategies) return context.problem(path, "is not a mapping: confirmation_strategies maps tool names to serialized strategies ({ type, init_parameters }).");
  for (const [key, raw] of Object.entries(strategies)) {
    const at = [...path, key];
    const strategy = asMapping(raw);
    if (!strategy || typeof strategy.type !== "string") {
      context.problem(at, "is not a serialized confirmation strategy: Haystack writes { type: <class path>, init_parameters: { … } }.");
      continue;
    }
    const name = strategyName(strategy, at, context, out);
    for (const tool of toolNames(key)) setOwn(out.strategies, tool, { strategy: name });
  }
}

/**
 * Haystack main's `hooks` (hook point → serialized hooks) into `out`: a `ConfirmationHook` at
 * `before_tool` gives its strategies as `convertStrategies` does; a `TokenBudgetHook` becomes
 * `budget.maxTotalTokens`; any other hook is hand work.
 */
export function convertHooks(value: unknown, path: YamlPath, context: ImportContext, out: ConvertedConfirmation): void {
  if (value === undefined || value === null) return;
  const hooks = asMapping(value);
  if (!hooks) return context.problem(path, "is not a mapping: hooks maps hook points (before_tool, before_llm, …) to lists of serialized hooks.");
  for (const [point, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) {
      context.problem([...path, point], "is not a list: each hook point has a list of serialized hooks ({ type, init_parameters }).");
      continue;
    }
    list.forEach((raw, i) => {
      const at = [...path, point, i];
      const hook = asMapping(raw);
      if (!hook || typeof hook.type !== "string") return context.problem(at, "is not a serialized hook: Haystack writes { type: <class path>, init_parameters: { … } }.");
      const init = asMapping(hook.init_parameters) ?? {};
      const type = shortName(hook.type);
      if (type === "ConfirmationHook" && point === "before_tool") return convertStrategies(init.confirmation_strategies, [...at, "init_parameters", "confirmation_strategies"], context, out);
      if (type === "TokenBudgetHook" && point === "before_llm" && typeof init.max_total_tokens === "number") {
        out.budget = { ...out.budget, maxTotalTokens: init.max_total_tokens };
        if (init.add_final_message === true) context.todo([...at, "init_parameters", "add_final_message"], "hook", "TokenBudgetHook's add_final_message has no toolwright option: the run ends with exitReason 'budget_exhausted' and result.stopped; add a message in code if you need one.");
        return;
      }
      context.todo([...at, "type"], "hook", `Hook ${hook.type} at ${point} has no data form in toolwright: write it as middleware${middlewareHook(point)} and pass it to loadAgent(file, { middleware }).`);
    });
  }
}

function strategyName(strategy: Readonly<Record<string, unknown>>, path: YamlPath, context: ImportContext, out: ConvertedConfirmation): string {
  const type = shortName(String(strategy.type));
  const init = asMapping(strategy.init_parameters) ?? {};
  if (type !== blocking) {
    context.todo([...path, "type"], "confirmation", `Confirmation strategy ${String(strategy.type)} has no toolwright counterpart: write it (a ConfirmationStrategy with decide(request)) and register it as registry.confirmationStrategies.${type}.`);
    return type;
  }
  const policyType = typeof asMapping(init.confirmation_policy)?.type === "string" ? shortName(String(asMapping(init.confirmation_policy)!.type)) : "AlwaysAskPolicy";
  const policy = policies.has(policyType) ? policyType : "AlwaysAskPolicy";
  if (!policies.has(policyType)) context.todo([...path, "init_parameters", "confirmation_policy"], "confirmation", `Confirmation policy ${policyType} has no toolwright counterpart: write it (a ConfirmationPolicy) and use it in place of AlwaysAskPolicy in the tools module.`);
  const uiType = asMapping(init.confirmation_ui)?.type;
  const ui = typeof uiType === "string" ? uiType : "a confirmation UI";
  const existing = out.stubs.find((stub) => stub.policy === policy && stub.ui === ui);
  const name = existing?.name ?? uniqueName(`confirm${policy.replace(/Policy$/, "")}`, out.stubs);
  if (!existing) {
    out.stubs.push({ name, policy, ui });
    context.todo([...path, "init_parameters", "confirmation_ui"], "confirmation", `Confirmation UI ${ui} asks through Python: write the ask function of confirmationStrategies.${name} in the tools module (or use strategy: deferred to pause the run and ask later).`);
  }
  for (const [template, text] of Object.entries(defaultTemplates)) {
    if (typeof init[template] === "string" && init[template] !== text) context.todo([...path, "init_parameters", template], "confirmation", `${template} is not Haystack's default; toolwright writes its own rejection and modification texts: put yours in the feedback the ask function returns.`);
  }
  return name;
}

function uniqueName(base: string, stubs: readonly BlockingStrategyStub[]): string {
  let name = base;
  for (let n = 2; stubs.some((stub) => stub.name === name); n++) name = `${base}${n}`;
  return name;
}

// Haystack main writes a tuple of tool names as a JSON-array string key.
function toolNames(key: string): string[] {
  if (!key.startsWith("[")) return [key];
  try {
    const parsed: unknown = JSON.parse(key);
    if (Array.isArray(parsed) && parsed.every((name) => typeof name === "string")) return parsed as string[];
  } catch {
    // Not JSON: a tool name that starts with '['.
  }
  return [key];
}

// The middleware hook that runs where a Haystack hook point does, when there is one.
function middlewareHook(point: string): string {
  const names: Record<string, string> = { before_llm: "beforeModel", before_tool: "beforeTool", after_tool: "afterTool", after_run: "afterRun" };
  return Object.hasOwn(names, point) ? ` (its ${names[point]} hook)` : "";
}
