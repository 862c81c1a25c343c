import { DefinitionError, definitionPath } from "../errors";
import { denyPatterns, type DenyPatternsOptions } from "../guardrails/denyPatterns";
import type { Guardrail } from "../guardrails/guardrail";
import { inputGuardrail } from "../guardrails/inputGuardrail";
import { maxInputLength, type MaxInputLengthOptions } from "../guardrails/maxInputLength";
import { outputGuardrail } from "../guardrails/outputGuardrail";
import { toolGuardrail } from "../guardrails/toolGuardrail";
import type { Middleware } from "../run/middleware";
import { truncateForEcho } from "../util/truncate";
import type { GuardrailDefinition, GuardrailsDefinition, ToolGuardrailDefinition } from "./agentDefinition";
import { type DataGuardrail, dataGuardrails, guardrailPoints } from "./guardrailDataTypes";
import { madeAt } from "./madeAt";

type Path = readonly (string | number)[];

const builtins: { readonly [K in DataGuardrail]: (options: never) => Guardrail } = {
  maxInputLength: (options: MaxInputLengthOptions) => maxInputLength(options),
  denyPatterns: (options: DenyPatternsOptions) => denyPatterns(options),
};

/**
 * The middleware a definition's `guardrails` make, in the order they are written: `input`
 * (`inputGuardrail`), `output` (`outputGuardrail`), `toolCall` and `toolResult` (`toolGuardrail`
 * before and after the call, only for `tools` when given, which must be tools of the Agent). Each
 * built-in's options are checked by its factory; its `ConfigurationError` becomes a
 * `DefinitionError` at the value (`guardrails.input[1].denyPatterns.patterns[0]`). Two guardrails
 * that would make middleware of the same name (one point, or `toolCall` and `toolResult`, with the
 * same guardrail name) are refused: stops and errors name one middleware.
 */
export function guardrailsFromDefinition(guardrails: GuardrailsDefinition | undefined, toolNames: readonly string[]): Middleware[] {
  const middleware: Middleware[] = [];
  const made = new Map<string, Path>();
  for (const point of guardrailPoints) {
    (guardrails?.[point] ?? []).forEach((entry: GuardrailDefinition | ToolGuardrailDefinition, index) => {
      const path = ["guardrails", point, index] as const;
      const kind = dataGuardrails.find((key) => Object.hasOwn(entry, key))!;
      const options = (entry as Record<DataGuardrail, object>)[kind];
      const guardrail = madeAt([...path, kind], options, () => builtins[kind]({ ...options } as never));
      // A built-in always has a check and a name; what the point's factory can refuse is the name's length.
      const one = madeAt([...path, kind, "name"], undefined, () => pointMiddleware(point, guardrail, entry, toolNames, path));
      const earlier = made.get(one.name);
      if (earlier !== undefined) {
        throw new DefinitionError([...path, kind], `makes middleware '${one.name}', as ${definitionPath(earlier)} does; give one of the two guardrails a name of its own (name: ...), since stops and errors name one middleware.`);
      }
      made.set(one.name, [...path, kind]);
      middleware.push(one);
    });
  }
  return middleware;
}

function pointMiddleware(point: (typeof guardrailPoints)[number], guardrail: Guardrail, entry: ToolGuardrailDefinition, toolNames: readonly string[], path: Path): Middleware {
  if (point === "input") return inputGuardrail(guardrail);
  if (point === "output") return outputGuardrail(guardrail);
  entry.tools?.forEach((tool, i) => {
    if (!toolNames.includes(tool)) {
      const listed = toolNames.slice(0, 20).map(truncateForEcho).join(", ") || "none";
      throw new DefinitionError([...path, "tools", i], `names tool '${truncateForEcho(tool)}', which the Agent does not have; name one of its tools: ${listed}.`);
    }
  });
  return toolGuardrail(guardrail, { when: point === "toolCall" ? "before" : "after", ...(entry.tools !== undefined && { tools: [...entry.tools] }) });
}
