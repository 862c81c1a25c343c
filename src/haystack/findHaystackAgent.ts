import { asMapping, type ImportContext, shortName, type YamlPath } from "./importContext";

/** Where the Agent is in a Haystack YAML: its path, and the component name when it is in a pipeline. */
export interface FoundAgent {
  readonly path: YamlPath;
  readonly init: Readonly<Record<string, unknown>>;
  readonly component?: string;
}

/** Whether a serialized type names Haystack's Agent. */
export function isAgentType(type: unknown): boolean {
  return type === "haystack.components.agents.agent.Agent" || (typeof type === "string" && type.endsWith(".Agent") && type.startsWith("haystack."));
}

/**
 * The Agent of a Haystack YAML: the document itself (`{ type: …Agent, init_parameters }`, as
 * `Agent.to_dict()` writes it), or a component of a pipeline (`components: { name: { type,
 * init_parameters } }`) — `component` if given, else the only Agent. Records every problem when
 * there is none.
 */
export function findHaystackAgent(root: Readonly<Record<string, unknown>>, component: string | undefined, context: ImportContext): FoundAgent | undefined {
  if (Object.hasOwn(root, "components")) return inPipeline(root.components, component, context);
  if (component !== undefined) context.problem([], `is not a pipeline (it has no components), so it has no component '${component}'; leave out --component for an Agent YAML.`);
  if (root.version === 1 && Object.hasOwn(root, "chatGenerator")) {
    context.problem([], "is a toolwright definition already (version: 1, chatGenerator), not a Haystack Agent; load it with loadAgent.");
    return undefined;
  }
  if (typeof root.type !== "string") {
    context.problem(["type"], "is missing: a Haystack Agent YAML starts with type: haystack.components.agents.agent.Agent and init_parameters (what Agent.to_dict() writes), or is a pipeline with components.");
  } else if (!isAgentType(root.type)) {
    context.problem(["type"], `is ${root.type}, not haystack.components.agents.agent.Agent; convert an Agent, or a pipeline that has one among its components.`);
  }
  const init = asMapping(root.init_parameters);
  if (!init) context.problem(["init_parameters"], root.init_parameters === undefined ? "is missing: Agent.to_dict() writes the Agent's settings under init_parameters." : "is not a mapping: Agent.to_dict() writes the Agent's settings as a mapping.");
  return init && isAgentType(root.type) ? { path: [], init } : undefined;
}

function inPipeline(value: unknown, component: string | undefined, context: ImportContext): FoundAgent | undefined {
  const components = asMapping(value);
  if (!components) {
    context.problem(["components"], "is not a mapping: a pipeline YAML maps component names to { type, init_parameters }.");
    return undefined;
  }
  const agents = Object.keys(components).filter((name) => isAgentType(asMapping(components[name])?.type));
  const others = Object.keys(components).filter((name) => !agents.includes(name)).map((name) => `${name} (${shortName(String(asMapping(components[name])?.type ?? "no type"))})`);
  const name = component ?? (agents.length === 1 ? agents[0] : undefined);
  if (name === undefined) {
    context.problem(["components"], agents.length === 0 ? `has no Agent component (type haystack.components.agents.agent.Agent); its components: ${others.join(", ") || "none"}.` : `has ${agents.length} Agent components (${agents.join(", ")}); choose one with --component <name>.`);
    return undefined;
  }
  if (!Object.hasOwn(components, name) || !isAgentType(asMapping(components[name])?.type)) {
    context.problem(["components"], `has no Agent component '${name}'; Agent components: ${agents.join(", ") || "none"}.`);
    return undefined;
  }
  const path = ["components", name];
  const init = asMapping(asMapping(components[name])!.init_parameters);
  if (!init) {
    context.problem([...path, "init_parameters"], "is missing or not a mapping: a pipeline component's settings are under init_parameters.");
    return undefined;
  }
  if (Object.keys(components).length > 1) context.todo(["components"], "setting", `Only the Agent '${name}' is converted; the pipeline's other components (${others.join(", ")}) and its connections stay in Haystack or become code around agent.run.`);
  return { path, init, component: name };
}
