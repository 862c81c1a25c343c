import type { ChatMessage } from "../chat/chatMessage";
import { PromptTemplateError } from "../errors";
import { describeKind } from "../util/describeValue";
import type { CompiledTemplate } from "./compileTemplate";
import { jinja } from "./jinjaPackage";
import { MessageCollector } from "./messageCollector";
import { RenderBudget } from "./renderBudget";
import { evaluationTooDeep, renderFailed, stringTooLong } from "./renderErrors";
import { templateData, type DataCounter } from "./templateData";
import { templateInterpreter } from "./templateInterpreter";

/**
 * Renders a compiled template over `values`. A variable is missing when `values` has no own
 * property of its name, or its value is `undefined`; a missing variable that the template needs
 * (see `analyzeTemplate`) fails the render before anything runs. Only the template's variables are
 * converted (`templateData`) and given to the interpreter, under the globals `range` (bounded by
 * the render's budget), `namespace`, `true`, `false`, `none` (and `True`, `False`, `None`).
 */
export function renderTemplate(compiled: CompiledTemplate, values: Readonly<Record<string, unknown>>): string {
  return run(compiled, values, undefined);
}

/**
 * Renders a message template (one with `{% message %}` blocks) over `values` to its messages, as
 * Haystack's `ChatPromptBuilder` renders a string template: see `MessageCollector`.
 */
export function renderMessages(compiled: CompiledTemplate, values: Readonly<Record<string, unknown>>): ChatMessage[] {
  const messages = new MessageCollector(compiled.name);
  return messages.messages(run(compiled, values, messages));
}

function run({ name, program, plan }: CompiledTemplate, values: Readonly<Record<string, unknown>>, messages: MessageCollector | undefined): string {
  if (typeof values !== "object" || values === null || Array.isArray(values)) {
    throw new PromptTemplateError(name, `${name} template renders over an object of variables, got ${describeKind(values)}: pass { name: value, … }.`);
  }
  const given = (key: string): boolean => Object.hasOwn(values, key) && values[key] !== undefined;
  for (const variable of plan.variables) {
    if (plan.required.has(variable) && !given(variable)) throw missingVariable(name, variable, Object.keys(values).filter(given).sort());
  }

  const { Environment } = jinja();
  const budget = new RenderBudget(name);
  const globals = new Environment();
  for (const [global, value] of constants) globals.set(global, value);
  globals.set("range", boundedRange(budget));
  const context = new Environment(globals);
  const counter: DataCounter = { count: 0 };
  for (const variable of plan.variables) if (given(variable)) context.set(variable, templateData(values[variable], variable, name, counter));

  try {
    return templateInterpreter(context, { template: name, plan, budget, messages }).run(program).value as string;
  } catch (error) {
    if (error instanceof PromptTemplateError) throw error;
    if (error instanceof Error && error.name === "RangeError") {
      if (/call stack/i.test(error.message)) throw evaluationTooDeep(name, error);
      if (/string length/i.test(error.message)) throw stringTooLong(name, undefined);
    }
    throw renderFailed(name, error);
  }
}

const constants: readonly (readonly [string, boolean | null])[] = [
  ["true", true],
  ["false", false],
  ["none", null],
  ["True", true],
  ["False", false],
  ["None", null],
];

function missingVariable(name: string, variable: string, given: readonly string[]): PromptTemplateError {
  return new PromptTemplateError(
    name,
    `${name} template uses variable '${variable}', which this render was not given: pass a value for it, or mark it optional with {{ ${variable} | default('…') }} or {% if ${variable} is defined %}. Variables given: ${given.length === 0 ? "none" : given.join(", ")}.`,
    { variable },
  );
}

// Python's range(stop) / range(start, stop[, step]), refusing before allocation a list longer than
// the budget has steps left for.
function boundedRange(budget: RenderBudget): (...args: unknown[]) => number[] {
  return (...args) => {
    if (args.length < 1 || args.length > 3 || !args.every((arg) => typeof arg === "number" && Number.isInteger(arg))) {
      throw new Error("range() takes one to three integers: range(stop), range(start, stop) or range(start, stop, step)");
    }
    const [start, stop, step] = (args.length === 1 ? [0, args[0], 1] : [args[0], args[1], args[2] ?? 1]) as [number, number, number];
    if (step === 0) throw new Error("range() step must not be zero");
    const count = Math.max(0, Math.ceil((stop - start) / step));
    budget.ensure(count);
    return Array.from({ length: count }, (_, i) => start + i * step);
  };
}
