import type { z } from "zod";
import { agentOptions } from "../agent/agentOptions";
import { nameDataType, optionDataType, textDataType } from "../agent/optionDataType";
import { zod } from "../util/lazyZod";
import { guardrailDataTypes } from "./guardrailDataTypes";
import { middlewareDataTypes } from "./middlewareDataTypes";

/**
 * The definition format as a zod schema: `readDefinition` checks untrusted data with it, and
 * `npm run schema` writes its JSON Schema (`agent-definition.schema.json`, published with the
 * package) so editors validate and complete `agent.yaml`. Every rule carries its own message (the
 * rule and the fix); `readDefinition` adds the path and what was found. Made on first use (zod is
 * loaded lazily).
 */
export function definitionSchema(): DefinitionSchemas {
  return (schemas ??= build(zod()));
}

let schemas: DefinitionSchemas | undefined;

type DefinitionSchemas = ReturnType<typeof build>;

function build(z: typeof import("zod").z) {
  const name = (what: string) => nameDataType(z, what);
  const text = (what: string, max: number) => textDataType(z, what, max);
  // An option of new Agent(...) as data, read from its spec (the code checks the same option with it).
  const agentOption = (option: keyof typeof agentOptions) => optionDataType(z, agentOptions[option].data!);
  const jsonSchema = (what: string) =>
    z.record(z.string(), z.json(), { error: `must be a JSON Schema object (${what})` }).meta({ description: `A JSON Schema (draft 2020-12): ${what}.` });
  const stringMap = (what: string) => z.record(name(what), name(what), { error: `must be a mapping of names (${what})` });
  const secret = z
    .strictObject({ env: z.string({ error: "must name an environment variable" }).regex(/^[A-Za-z_][A-Za-z0-9_]{0,199}$/, { error: "must be an environment-variable name of letters, digits and _ (not starting with a digit)" }) }, { error: 'must be { env: "VARIABLE_NAME" }: a definition holds secrets only as environment-variable names' })
    .meta({ description: "A secret, by the environment variable that holds it." });

  const toolSettings = {
    description: text("the description the model reads", 10_000).optional().meta({ description: "Replaces the tool's description." }),
    inputsFromState: stringMap("state key → the parameter it fills")
      .optional()
      .meta({ description: "state key → the parameter it fills (hidden from the model). Replaces the tool's own; every parameter the code hides must stay filled." }),
    outputsToState: z
      .record(
        name("a state key"),
        z.strictObject(
          {
            source: name("the result property to write").optional().meta({ description: "The result property to write; without it the whole result." }),
            handler: name("a merge handler: mergeLists, replaceValues or a registry.handlers name").optional().meta({ description: "mergeLists, replaceValues or a registry.handlers name." }),
          },
          { error: "must be { source?, handler? }" },
        ),
        { error: "must be a mapping of state key → { source?, handler? }" },
      )
      .optional()
      .meta({ description: "state key → which part of the result is merged into it. Replaces the tool's own." }),
    outputsToString: z
      .strictObject(
        {
          source: name("the result property the model reads").optional(),
          handler: name("a registry.handlers name").optional(),
          rawResult: z.boolean({ error: "must be true or false" }).optional(),
        },
        { error: "must be { source?, handler?, rawResult? }" },
      )
      .optional()
      .meta({ description: "How the result becomes the text the model reads. Replaces the tool's own." }),
  };

  const classTools = z
    .strictObject({
      class: name("a class with @tool methods from the generated modules").meta({ description: "A class with @tool methods, as the generated module names it; registry.classes makes its instance." }),
      file: text("the file the class is declared in", 1_000).optional().meta({ description: "The file the class is declared in (as the generated module records it), when two classes share the name." }),
      include: z.array(name("a tool name"), { error: "must be a list of tool names" }).optional().meta({ description: "Only these of the class's tools. Default: all." }),
      tools: z
        .record(name("a tool name"), z.strictObject(toolSettings, { error: "must be tool settings { description?, inputsFromState?, outputsToState?, outputsToString? }" }), { error: "must be a mapping of tool name → settings" })
        .optional()
        .meta({ description: "Settings for some of the class's tools, by tool name." }),
    })
    .meta({ title: "Class tools", description: "The tools of a class with @tool methods." });
  const namedTool = z
    .strictObject({ tool: name("a registry.tools name or a defineTool function's tool name").meta({ description: "A registry.tools name, or the tool name of a defineTool function in the generated modules." }), ...toolSettings })
    .meta({ title: "Named tool", description: "A Tool, agent tool or defineTool function, by name." });
  const toolset = z.strictObject({ toolset: name("a registry.toolsets name") }).meta({ title: "Toolset", description: "A Toolset, by its registry.toolsets name." });

  const stateKey = z
    .strictObject(
      {
        type: jsonSchema("every value of the key must match it").optional(),
        handler: name("a merge handler: mergeLists, replaceValues or a registry.handlers name").optional().meta({ description: "mergeLists, replaceValues or a registry.handlers name. Default: mergeLists for arrays, else replaceValues." }),
      },
      { error: "must be { type: <JSON Schema>, handler? }" },
    )
    .meta({ description: "A state key: its values' JSON Schema and how writes merge." });

  const confirmation = z
    .strictObject(
      {
        strategy: name("deferred, or a registry.confirmationStrategies name").meta({ description: "deferred (pause the run for a decision), or a registry.confirmationStrategies name." }),
        policy: name("alwaysAsk, neverAsk, askOnce or a registry.confirmationPolicies name").optional().meta({ description: "For deferred: alwaysAsk (default), neverAsk, askOnce or a registry.confirmationPolicies name." }),
      },
      { error: "must be { strategy, policy? }" },
    )
    .meta({ description: "How a tool's calls are confirmed by a person before they run." });

  const chatGenerator = z
    .strictObject(
      {
        type: name("a chat generator type: OpenAIChatGenerator, OpenAIResponsesChatGenerator, FallbackChatGenerator, ScriptedChatGenerator or a registry.chatGenerators name").meta({
          description: "OpenAIChatGenerator, OpenAIResponsesChatGenerator, FallbackChatGenerator, ScriptedChatGenerator, or a registry.chatGenerators name.",
        }),
        options: z
          .record(z.string(), z.json(), { error: "must be a mapping of options" })
          .optional()
          .meta({ description: "The generator's options, as data; secrets as { env: NAME }. FallbackChatGenerator's: { generators: [{ type, options? }, …] }, tried in order." }),
      },
      { error: "must be { type, options? }" },
    )
    .meta({ description: "The chat model." });

  const { budget, compaction } = middlewareDataTypes(z);
  const { guardrails, entries: guardrailEntries } = guardrailDataTypes(z);

  const agent = z
    .strictObject(
      {
        $schema: z.string({ error: "must be a string (the format's JSON Schema, for editors)" }).optional().meta({ description: "The JSON Schema of this format, for editors." }),
        version: z.literal(1, { error: "must be 1 (the only version of the format)" }).meta({ description: "The format's version: 1." }),
        name: agentOption("name"),
        chatGenerator,
        tools: z.array(z.union([classTools, namedTool, toolset]), { error: "must be a list of tool references" }).optional().meta({ description: "The tools: { class }, { tool } and { toolset } references." }),
        systemPrompt: agentOption("systemPrompt"),
        userPrompt: agentOption("userPrompt"),
        stateSchema: z.record(name("a state key"), stateKey, { error: "must be a mapping of state key → { type, handler? }" }).optional().meta({ description: "The run's typed State." }),
        outputSchema: jsonSchema("the final answer's shape, an object").optional(),
        exitConditions: agentOption("exitConditions"),
        maxAgentSteps: agentOption("maxAgentSteps"),
        maxOutputRetries: agentOption("maxOutputRetries"),
        toolConcurrency: agentOption("toolConcurrency"),
        toolTimeoutMs: agentOption("toolTimeoutMs"),
        maxToolResultChars: agentOption("maxToolResultChars"),
        raiseOnToolInvocationFailure: agentOption("raiseOnToolInvocationFailure"),
        confirmationStrategies: z
          .record(name('a tool name or "*"'), confirmation, { error: 'must be a mapping of tool name (or "*") → { strategy, policy? }' })
          .optional()
          .meta({ description: 'Tool name (or "*" for every tool) → how its calls are confirmed by a person.' }),
        guardrails,
        budget,
        compaction,
        snapshotKey: secret.optional().meta({ description: "The snapshot signing key (at least 32 bytes), by environment variable." }),
      },
      { error: "must be a mapping (an agent definition)" },
    )
    .meta({ title: "toolwright agent definition", description: "An Agent as data: read by Agent.fromJSON and loadAgent, written by agent.toJSON()." });

  return { agent, chatGenerator, classTools, namedTool, toolset, guardrailEntries } as const;
}

/** The zod types of the format's parts, for `readDefinition`. */
export type AgentDefinitionSchema = z.infer<DefinitionSchemas["agent"]>;
