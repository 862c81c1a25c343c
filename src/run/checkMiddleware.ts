import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import type { HookPoint, Middleware } from "./middleware";

const hooks: readonly HookPoint[] = ["beforeModel", "afterModel", "beforeTool", "afterTool", "afterRun"];

/**
 * Checks `middleware` (an Agent's or a run's): an array of objects with a name and hook functions. A
 * run's may not reuse a name of the Agent's (`agentMiddleware`): stops and errors name one middleware.
 */
export function checkMiddleware(value: unknown, subject: "Agent" | "Agent.run", agentMiddleware: readonly Middleware[] = []): readonly Middleware[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ConfigurationError(subject, `${subject} has middleware that is not an array, got ${describeKind(value)}; pass middleware: [{ name: "budget", beforeModel(context) { ... } }].`);
  const names = new Set<string>();
  value.forEach((m: unknown, i) => {
    if (typeof m !== "object" || m === null) throw new ConfigurationError(subject, `${subject} has middleware[${i}] that is ${describeKind(m)}, not an object with a name and hooks.`);
    const { name } = m as { name?: unknown };
    if (typeof name !== "string" || name.trim() === "" || name.length > 64) throw new ConfigurationError(subject, `${subject} has middleware[${i}] without a name (1-64 characters); errors and stops name it, so give it one: { name: "budget", ... }.`);
    if (names.has(name)) throw new ConfigurationError(subject, `${subject} has two middleware named '${name}'; give each its own name.`);
    if (agentMiddleware.some((other) => other.name === name)) throw new ConfigurationError(subject, `${subject} has middleware named '${name}', a name the Agent's own middleware already uses; give each its own name.`);
    names.add(name);
    const record = m as Record<string, unknown>;
    for (const hook of hooks) {
      if (record[hook] !== undefined && typeof record[hook] !== "function") throw new ConfigurationError(subject, `${subject} has middleware '${name}' whose ${hook} is ${describeKind(record[hook])}, not a function.`);
    }
    if (!hooks.some((hook) => typeof record[hook] === "function")) {
      throw new ConfigurationError(subject, `${subject} has middleware '${name}' with no hook; give it at least one of ${hooks.join(", ")}.`);
    }
  });
  return value as Middleware[];
}
