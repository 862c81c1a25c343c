import { ConfigurationError, DefinitionError } from "../errors";
import { describeKind } from "../util/describeValue";
import { AlwaysAskPolicy, AskOncePolicy, NeverAskPolicy } from "../hitl/confirmationPolicies";
import { DeferredConfirmationStrategy } from "../hitl/confirmationStrategies";
import type { ConfirmationPolicy, ConfirmationStrategies, ConfirmationStrategy } from "../hitl/confirmationTypes";
import { setOwn } from "../util/ownProperty";
import type { ConfirmationDefinition } from "./agentDefinition";
import { type AgentRegistry, nameOf, registered, registeredNames } from "./agentRegistry";

/** The built-in policies of a `deferred` strategy, each made new per strategy. */
const builtInPolicies: ReadonlyMap<string, { make: () => ConfirmationPolicy; type: Function }> = new Map<string, { make: () => ConfirmationPolicy; type: Function }>([
  ["alwaysAsk", { make: () => new AlwaysAskPolicy(), type: AlwaysAskPolicy }],
  ["neverAsk", { make: () => new NeverAskPolicy(), type: NeverAskPolicy }],
  ["askOnce", { make: () => new AskOncePolicy(), type: AskOncePolicy }],
]);

/**
 * Confirmation strategies from their definitions: `deferred` with a built-in or registered policy,
 * or a `registry.confirmationStrategies` entry. Keys are checked against the tool names here, so the
 * error points at the definition.
 */
export function strategiesFromDefinition(definition: Readonly<Record<string, ConfirmationDefinition>>, registry: AgentRegistry, toolNames: readonly string[]): ConfirmationStrategies {
  const out: Record<string, ConfirmationStrategy> = {};
  for (const [key, { strategy, policy }] of Object.entries(definition)) {
    const path = ["confirmationStrategies", key];
    if (key !== "*" && !toolNames.includes(key)) {
      throw new DefinitionError(path, `is a confirmation strategy for '${key}', which is not one of the Agent's tools; use a tool name or "*". Tools: ${toolNames.join(", ") || "none"}.`);
    }
    if (strategy === "deferred") {
      setOwn(out, key, new DeferredConfirmationStrategy({ policy: policyNamed(policy ?? "alwaysAsk", registry, [...path, "policy"]) }));
      continue;
    }
    if (policy !== undefined) throw new DefinitionError([...path, "policy"], `applies only to the deferred strategy; registered strategy '${strategy}' has its own policy, so remove it.`);
    const registeredStrategy = registered(registry, "confirmationStrategies", strategy);
    if (registeredStrategy !== undefined && typeof registeredStrategy?.decide !== "function") {
      throw new ConfigurationError("registry", `registry.confirmationStrategies.${strategy} must be a confirmation strategy (an object with decide(request)), got ${describeKind(registeredStrategy)}.`);
    }
    if (typeof registeredStrategy?.decide !== "function") {
      throw new DefinitionError(
        [...path, "strategy"],
        `names strategy '${strategy}', which is neither 'deferred' nor in registry.confirmationStrategies; register it (a BlockingConfirmationStrategy asks through code) or use deferred. Registered: ${registeredNames(registry, "confirmationStrategies").join(", ") || "none"}.`,
      );
    }
    setOwn(out, key, registeredStrategy);
  }
  return out;
}

function policyNamed(name: string, registry: AgentRegistry, path: (string | number)[]): ConfirmationPolicy {
  const own = registered(registry, "confirmationPolicies", name);
  if (typeof own?.shouldAsk === "function") return own;
  const builtIn = builtInPolicies.get(name);
  if (builtIn) return builtIn.make();
  throw new DefinitionError(path, `names policy '${name}', which is neither built in (${[...builtInPolicies.keys()].join(", ")}) nor in registry.confirmationPolicies; register it or fix the name.`);
}

/** An Agent's confirmation strategies as data, for `toJSON`. */
export function strategiesToDefinition(strategies: ConfirmationStrategies, registry: AgentRegistry): Record<string, ConfirmationDefinition> {
  const out: Record<string, ConfirmationDefinition> = {};
  for (const [key, strategy] of Object.entries(strategies)) {
    const path = ["confirmationStrategies", key];
    const name = nameOf(registry, "confirmationStrategies", strategy);
    if (name !== undefined) {
      setOwn(out, key, { strategy: name });
    } else if (strategy instanceof DeferredConfirmationStrategy) {
      const policy = policyName(strategy.policy, registry, [...path, "policy"]);
      setOwn(out, key, policy === "alwaysAsk" ? { strategy: "deferred" } : { strategy: "deferred", policy });
    } else {
      throw new DefinitionError(path, "is a confirmation strategy with no data form (a BlockingConfirmationStrategy asks through code): register it (registry.confirmationStrategies) and pass the registry to toJSON({ registry }).");
    }
  }
  return out;
}

function policyName(policy: ConfirmationPolicy, registry: AgentRegistry, path: (string | number)[]): string {
  const name = nameOf(registry, "confirmationPolicies", policy);
  if (name !== undefined) return name;
  for (const [builtInName, { type }] of builtInPolicies) if (policy.constructor === type) return builtInName;
  throw new DefinitionError(path, "is a confirmation policy with no name a definition can use: register it (registry.confirmationPolicies) and pass the registry to toJSON({ registry }).");
}
