import type { ParameterDeclaration } from "ts-morph";
import type { GeneratedParameter } from "../src/tools/generatedEntry";
import type { Diagnostics } from "./diagnostics";
import type { ReadToolOptions } from "./readToolOptions";
import type { ToolwrightSymbols } from "./toolwrightSymbols";
import { constantValue } from "./constantValue";

/** A parameter with its role decided: the one place roles are decided (the runtime follows the plan). */
export interface ClassifiedParameter {
  readonly declaration: ParameterDeclaration;
  readonly plan: GeneratedParameter;
}

/**
 * Classifies each parameter once: `state` (typed toolwright's `State`, `State<…>`, or that
 * `| undefined`), `stateKey` (named as a value in `inputsFromState`), else `llm`. Reports
 * inputsFromState entries that name no parameter (TW201) or a State parameter (TW202).
 */
export function classifyParameters(
  parameters: readonly ParameterDeclaration[],
  options: ReadToolOptions,
  label: string,
  symbols: ToolwrightSymbols,
  diagnostics: Diagnostics,
): ClassifiedParameter[] | undefined {
  let ok = true;
  const names = parameters.map((p) => p.getName());
  const stateKeyOf = new Map(Object.entries(options.inputsFromState).map(([key, parameter]) => [parameter, key]));
  for (const [key, parameter] of Object.entries(options.inputsFromState)) {
    if (!names.includes(parameter)) {
      diagnostics.at(
        options.inputNodes[key]!,
        "TW201",
        `inputsFromState of ${label} maps '${key}' to '${parameter}', which is not a parameter. Parameters: ${names.join(", ") || "none"}.`,
      );
      ok = false;
    }
  }
  const classified: ClassifiedParameter[] = [];
  for (const declaration of parameters) {
    const name = declaration.getName();
    const isState = symbols.isState(declaration.getType().getNonNullableType()) || declaration.getType().getUnionTypes().some((t) => symbols.isState(t));
    const stateKey = stateKeyOf.get(name);
    if (isState && stateKey !== undefined) {
      diagnostics.at(
        options.inputNodes[stateKey]!,
        "TW202",
        `inputsFromState of ${label} maps '${stateKey}' to '${name}', which is typed State and so always receives the whole State; remove '${stateKey}' from inputsFromState.`,
      );
      ok = false;
      continue;
    }
    const optional = declaration.isOptional() || declaration.hasInitializer() || declaration.getType().getUnionTypes().some((t) => t.isUndefined());
    const role: GeneratedParameter["role"] = isState ? "state" : stateKey !== undefined ? "stateKey" : "llm";
    const plan: { -readonly [K in keyof GeneratedParameter]: GeneratedParameter[K] } = { name, role, optional };
    if (stateKey !== undefined) plan.stateKey = stateKey;
    const initial = literalDefault(declaration);
    if (initial.present) plan.default = initial.value;
    classified.push({ declaration, plan });
  }
  return ok ? classified : undefined;
}

/**
 * The JSON value of a constant initializer (`limit = 5`, `mode = "fast"`, `tags = ["inbox"]`,
 * `color = Color.Red`, `limit = LIMIT`), if it is one. A default computed at call time
 * (`Date.now()`) is not advertised; the parameter is still optional.
 */
export function literalDefault(declaration: ParameterDeclaration): { present: boolean; value?: unknown } {
  const initializer = declaration.getInitializer();
  const constant = initializer && constantValue(initializer);
  return constant ? { present: true, value: constant.value } : { present: false };
}
