import type { AgentDefinition, ToolReference } from "../definition/agentDefinition";
import type { DefinitionError } from "../errors";
import { readYamlDefinition } from "../yaml/yamlDocument";
import { findHaystackAgent } from "./findHaystackAgent";
import { HandlerNames } from "./handlerNames";
import { convertHooks, convertStrategies, noConfirmation } from "./haystackConfirmation";
import { convertGenerator } from "./haystackGenerator";
import type { ImportHaystackOptions, ImportHaystackResult } from "./haystackImportTypes";
import { HaystackImportError } from "./haystackImportError";
import { convertStateSchema } from "./haystackState";
import { convertTools } from "./haystackTools";
import { ImportContext, type YamlPath } from "./importContext";
import { renderToolStubs } from "./renderToolStubs";
import { escapeTemplateText } from "../prompt/escapeTemplateText";

// init_parameters read below; any other key is hand work.
const known = new Set([
  "chat_generator", "tools", "system_prompt", "user_prompt", "required_variables", "exit_conditions", "state_schema", "max_agent_steps",
  "streaming_callback", "raise_on_tool_invocation_failure", "tool_invoker_kwargs", "confirmation_strategies", "tool_concurrency_limit",
  "tool_streaming_callback_passthrough", "hooks",
]);

/**
 * Converts a Haystack Agent YAML — what `Agent.to_dict()` writes, in the 2.x form (confirmation
 * strategies on the Agent) or main's (hooks), alone or as a component of a pipeline YAML — into a
 * toolwright definition, a TypeScript module of stubs for its Python tools, and the list of what
 * needs hand work. The YAML is read with the limits of `toolwright/yaml` (size, nesting, aliases);
 * a YAML that is no Haystack Agent throws a `HaystackImportError` listing every problem.
 *
 * @example
 * const { definition, toolsModule, handWork } = importHaystackAgent(readFileSync("agent.yaml", "utf8"));
 */
export function importHaystackAgent(yamlText: string, options: ImportHaystackOptions = {}): ImportHaystackResult {
  const file = options.file ?? "agent.yaml";
  const yaml = readYamlDefinition(yamlText, file);
  const context = new ImportContext(yaml, file);
  const found = findHaystackAgent(yaml.data as Record<string, unknown>, options.component, context);
  if (!found) throw new HaystackImportError(file, inFileOrder(context.problems));
  const at = (key: string): YamlPath => [...found.path, "init_parameters", key];
  const init = found.init;
  const handlers = new HandlerNames(context);

  const chatGenerator = convertGenerator(init.chat_generator, at("chat_generator"), context);
  const tools = convertTools(init.tools, at("tools"), context, handlers);
  const stateSchema = convertStateSchema(init.state_schema, at("state_schema"), context, handlers);
  const confirmation = noConfirmation();
  convertStrategies(init.confirmation_strategies, at("confirmation_strategies"), context, confirmation);
  convertHooks(init.hooks, at("hooks"), context, confirmation);
  const settings = readSettings(init, at, context);
  if (context.problems.length > 0 || !chatGenerator) throw new HaystackImportError(file, inFileOrder(context.problems));

  const className = options.className ?? "HaystackTools";
  const references: ToolReference[] = tools.references.map((ref) => (ref === "class" ? { class: className } : ref));
  const definition: AgentDefinition = {
    version: 1,
    ...(found.component !== undefined && { name: found.component }),
    chatGenerator,
    ...(references.length > 0 && { tools: references }),
    ...settings.prompts,
    ...(stateSchema && Object.keys(stateSchema).length > 0 && { stateSchema }),
    ...settings.run,
    ...(Object.keys(confirmation.strategies).length > 0 && { confirmationStrategies: confirmation.strategies }),
    ...(confirmation.budget && { budget: confirmation.budget }),
  };
  const toolsModule = renderToolStubs({ className, source: file, tools: tools.python, stateSchema: stateSchema ?? {}, handlers: handlers.stubs, strategies: confirmation.stubs });
  return { definition, toolsModule, handWork: sortByPosition(context.handWork) };
}

// Haystack 2.x renders a system_prompt only when it has a {% message %} block and sends any other as
// written (v2.31.0 agent.py: _JINJA2_CHAT_TEMPLATE_RE); main renders every one. A definition's
// systemPrompt is always a template, so 2.x's literal text is escaped to keep what the model got.
function systemPromptOf(prompt: string, init: Readonly<Record<string, unknown>>, path: YamlPath, context: ImportContext): string {
  const twoX = ("tool_invoker_kwargs" in init || "confirmation_strategies" in init) && !("hooks" in init || "tool_concurrency_limit" in init);
  if (!twoX || /\{%\s*message\s/.test(prompt)) return prompt;
  const literal = escapeTemplateText(prompt);
  if (literal !== prompt) {
    context.todo(path, "setting", "Haystack 2.x sends a system_prompt without a {% message %} block as written, so its {{ }} and {% %} were escaped to reach the model unchanged; write it unescaped to render them, as Haystack main does.");
  }
  return literal;
}

interface Settings {
  readonly prompts: Pick<AgentDefinition, "systemPrompt" | "userPrompt">;
  readonly run: Pick<AgentDefinition, "exitConditions" | "maxAgentSteps" | "raiseOnToolInvocationFailure" | "toolConcurrency">;
}

// Prompts, exit conditions, limits and flags; run-time wiring and unknown keys are hand work.
function readSettings(init: Readonly<Record<string, unknown>>, at: (key: string) => YamlPath, context: ImportContext): Settings {
  const prompts: { systemPrompt?: string; userPrompt?: string } = {};
  const run: { -readonly [K in keyof Settings["run"]]: Settings["run"][K] } = {};
  for (const [key, field] of [["system_prompt", "systemPrompt"], ["user_prompt", "userPrompt"]] as const) {
    const value = init[key];
    if (typeof value === "string") prompts[field] = key === "system_prompt" ? systemPromptOf(value, init, at(key), context) : value;
    else if (value !== undefined && value !== null) context.problem(at(key), `is not a string: ${key} is a Jinja template (or null).`);
  }
  const required = init.required_variables;
  if ((prompts.systemPrompt !== undefined || prompts.userPrompt !== undefined) && required !== "*") {
    const which = required === undefined || required === null ? "none (null): Haystack renders a missing variable as an empty string" : `only ${JSON.stringify(required)}`;
    context.todo(at("required_variables"), "setting", `required_variables is ${which}; toolwright fails the run on any missing variable: give every variable at run time, or write {{ x | default('') }}.`);
  }
  const exits = init.exit_conditions;
  if (Array.isArray(exits) && exits.every((name) => typeof name === "string")) run.exitConditions = exits as string[];
  else if (exits !== undefined && exits !== null) context.problem(at("exit_conditions"), "is not a list of strings: exit_conditions holds \"text\" and tool names.");
  const steps = init.max_agent_steps;
  if (Number.isInteger(steps) && (steps as number) >= 1) run.maxAgentSteps = steps as number;
  else if (steps !== undefined && steps !== null) context.problem(at("max_agent_steps"), "is not a whole number of at least 1.");
  const raise = init.raise_on_tool_invocation_failure;
  if (typeof raise === "boolean") run.raiseOnToolInvocationFailure = raise;
  else if (raise !== undefined && raise !== null) context.problem(at("raise_on_tool_invocation_failure"), "is not a boolean.");
  const limit = init.tool_concurrency_limit;
  if (Number.isInteger(limit) && (limit as number) >= 1) run.toolConcurrency = limit as number;
  const kwargs = init.tool_invoker_kwargs;
  if (typeof kwargs === "object" && kwargs !== null && !Array.isArray(kwargs)) {
    for (const [key, value] of Object.entries(kwargs)) {
      if (key === "max_workers" && Number.isInteger(value) && (value as number) >= 1) run.toolConcurrency = value as number;
      else context.todo([...at("tool_invoker_kwargs"), key], "setting", `tool_invoker_kwargs.${key} has no toolwright option${key === "enable_streaming_callback_passthrough" ? ": tools report progress through context.reportProgress instead" : ""}.`);
    }
  }
  if (init.tool_streaming_callback_passthrough === true) context.todo(at("tool_streaming_callback_passthrough"), "setting", "tool_streaming_callback_passthrough has no toolwright option: tools report progress through context.reportProgress instead.");
  if (typeof init.streaming_callback === "string") context.todo(at("streaming_callback"), "setting", `The streaming callback ${init.streaming_callback} is code: pass streamingCallback to loadAgent or to agent.run.`);
  for (const key of Object.keys(init)) if (!known.has(key)) context.todo(at(key), "setting", `${key} is not an Agent setting this converter knows; it was left out.`);
  return { prompts, run };
}

function sortByPosition<T extends { line: number; column: number }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.line - b.line || a.column - b.column);
}

function inFileOrder(problems: readonly DefinitionError[]): DefinitionError[] {
  return [...problems].sort((a, b) => a.location!.line - b.location!.line || a.location!.column - b.location!.column);
}
