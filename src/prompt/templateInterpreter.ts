import type { Environment, Interpreter } from "@huggingface/jinja";
import type {
  BinaryExpression,
  CallExpression,
  FilterExpression,
  FilterStatement,
  For,
  Identifier,
  MemberExpression,
  SelectExpression,
  Statement,
} from "@huggingface/jinja/dist/ast";
import type { FunctionValue } from "@huggingface/jinja/dist/runtime";
import type { TemplatePlan } from "./analyzeTemplate";
import { checkIndent, checkRepeat, checkReplace, spendOnReach, templateJoin } from "./boundedFilters";
import { callArguments, type CallArguments, noArguments } from "./callArguments";
import { jinja, type JinjaPackage } from "./jinjaPackage";
import { insertFilterName, messageFilterName, messageLineKey } from "./messageBlocks";
import type { MessageCollector } from "./messageCollector";
import { missingMember } from "./missingMember";
import { plainValue } from "./plainValue";
import type { RenderBudget } from "./renderBudget";
import { evaluationTooDeep, stringTooLong } from "./renderErrors";
import { templateJson } from "./templateJson";
import { templateLimits } from "./templateLimits";
import { templateText } from "./templateRepr";
import { precomputed, precomputedType, syntheticNode } from "./syntheticNodes";
import { isCompound, isInteger, isString, itemCount, type TemplateValue } from "./templateValues";

/** What one render's interpreter works with. */
export interface TemplateSession {
  readonly template: string;
  readonly plan: TemplatePlan;
  readonly budget: RenderBudget;
  /** The messages a message template's blocks make; absent for a template that renders to text. */
  readonly messages?: MessageCollector;
}

/**
 * An interpreter for one render: `@huggingface/jinja`'s, with every evaluation passing through
 * `evaluate`, which spends the budget, bounds the nesting and the strings made, turns a missing
 * attribute into an error and prints values as Jinja does. It takes over the operations whose
 * output can outgrow their input (`join`, `indent`, `replace`, `tojson`, string repetition) to
 * check the size first, and charges those that reach deep into a value (`sort`, `map`,
 * `selectattr`, loops) for it.
 */
export function templateInterpreter(environment: Environment, session: TemplateSession): Interpreter {
  interpreterClass ??= defineInterpreter(jinja().Interpreter);
  return new interpreterClass(environment, session);
}

type InterpreterClass = new (environment: Environment, session: TemplateSession) => Interpreter;
let interpreterClass: InterpreterClass | undefined;

// Nodes that hand back a value held elsewhere rather than make one.
const lookups = new Set(["Identifier", "MemberExpression"]);
// Filters whose arguments are evaluated here, to check or charge the operation before it runs.
const boundedFilters = new Set(["tojson", "string", "join", "indent", "replace", "sort", "map"]);
// Filters that reach every value inside their operand, with literal arguments only (the package insists).
const reachingFilters = new Set(["selectattr", "rejectattr", "unique", "dictsort"]);
const hiddenSources = new WeakSet<object>();
const boundedReplaces = new WeakSet<object>();

function defineInterpreter(Base: JinjaPackage["Interpreter"]): InterpreterClass {
  return class TemplateInterpreter extends Base {
    private nesting = 0;

    constructor(
      environment: Environment,
      private readonly session: TemplateSession,
    ) {
      super(environment);
    }

    override evaluate(statement: Statement | undefined, environment: Environment): TemplateValue {
      if (statement === undefined) return super.evaluate(statement, environment);
      if (statement.type === precomputedType) return (statement as unknown as { value: TemplateValue }).value;
      this.session.budget.spend(1);
      if (this.nesting >= templateLimits.maxEvaluationDepth) throw evaluationTooDeep(this.session.template);
      this.nesting++;
      try {
        // `[] | first` hands back JavaScript's undefined, which the package itself cannot print.
        return this.settle(statement, this.dispatch(statement, environment) ?? super.evaluate(undefined, environment), environment);
      } finally {
        this.nesting--;
      }
    }

    private dispatch(statement: Statement, environment: Environment): TemplateValue | undefined {
      switch (statement.type) {
        case "MemberExpression":
          return this.readMember(statement as MemberExpression, environment);
        case "BinaryExpression":
          return this.combine(statement as BinaryExpression, environment);
        case "FilterExpression": {
          const { operand, filter } = statement as FilterExpression;
          return this.applyFilterTo(this.evaluate(operand, environment), filter, environment);
        }
        case "For":
          return this.loop(statement as For, environment);
        case "Macro":
        case "CallStatement":
          this.session.budget.spend(this.session.plan.definitionSizes.get(statement) ?? 0);
          return super.evaluate(statement, environment);
        case "FilterStatement": {
          const { body, filter } = statement as FilterStatement;
          if (filter.type === "CallExpression" && ((filter as CallExpression).callee as Identifier).value === messageFilterName) {
            return this.messageBlock(statement as FilterStatement, environment);
          }
          return this.applyFilterTo(this.evaluate(syntheticNode({ type: "Program", body }), environment), filter, environment);
        }
        default:
          return super.evaluate(statement, environment);
      }
    }

    private settle(statement: Statement, value: TemplateValue, environment: Environment): TemplateValue {
      const { budget, plan, template } = this.session;
      // A function prints as its JavaScript source; the template gets a placeholder instead.
      if (value.type === "FunctionValue" && !hiddenSources.has(value.value as object)) {
        Object.defineProperty(value.value, "toString", { value: () => "<function>" });
        hiddenSources.add(value.value as object);
      }
      budget.weigh(value);
      if (isString(value) && !lookups.has(statement.type) && value.value.length > templateLimits.maxOutputLength) {
        throw stringTooLong(template, value.value.length, true);
      }
      // The package prints lists and mappings as JSON and `true` for True; Jinja prints Python's forms.
      if (!plan.printed.has(statement) || isString(value) || value.type === "UndefinedValue") return value;
      return this.text(templateText(value, budget, template), environment);
    }

    // The package sets up a scope for every item before the first iteration: the items are paid for first.
    private loop(statement: For, environment: Environment): TemplateValue {
      const { loopvar, iterable, body, defaultBlock } = statement;
      const select = iterable.type === "SelectExpression" ? (iterable as SelectExpression) : undefined;
      const items = this.evaluate(select ? select.lhs : iterable, environment);
      if (isCompound(items)) this.session.budget.spend(itemCount(items) * templateLimits.stepsPerIteration);
      const source = select ? syntheticNode({ type: "SelectExpression", lhs: precomputed(items), test: select.test }) : precomputed(items);
      return super.evaluate(syntheticNode({ type: "For", loopvar, iterable: source, body, defaultBlock }), environment);
    }

    private readMember(member: MemberExpression, environment: Environment): TemplateValue {
      const object = this.evaluate(member.object, environment);
      let property = member.property;
      let key: unknown = (property as Identifier).value;
      if (member.computed && property.type !== "SliceExpression") {
        const evaluated = this.evaluate(property, environment);
        key = evaluated.value;
        property = precomputed(evaluated);
      }
      const value = super.evaluate(syntheticNode({ type: "MemberExpression", object: precomputed(object), property, computed: member.computed }), environment);
      if (value.type === "FunctionValue" && isString(object) && key === "replace") this.boundReplace(value as FunctionValue, object.value);
      if (value.type !== "UndefinedValue" || this.session.plan.optionalMembers.has(member)) return value;
      // A key whose value is undefined (`loop.previtem` on the first item) exists.
      if (object.value instanceof Map && typeof key === "string" && object.value.has(key)) return value;
      throw missingMember(this.session.template, member, object, key);
    }

    private combine(expression: BinaryExpression, environment: Environment): TemplateValue {
      const operator = expression.operator.value;
      if (operator === "and" || operator === "or") return super.evaluate(expression, environment);
      const left = this.evaluate(expression.left, environment);
      const right = this.evaluate(expression.right, environment);
      if (operator === "*") {
        const repeated = this.repeat(left, right, environment) ?? this.repeat(right, left, environment);
        if (repeated) return repeated;
      }
      // The package joins JavaScript forms (`true`, `[object Map]`); Jinja joins what it would print.
      if (operator === "~" && left.type !== "UndefinedValue" && right.type !== "UndefinedValue") {
        const { budget, template } = this.session;
        return this.text(templateText(left, budget, template) + templateText(right, budget, template), environment);
      }
      // These stringify a list or mapping operand (JavaScript's == compares a list with a string as text).
      if (operator === "==" || operator === "!=" || (operator === "+" && (isString(left) || isString(right)))) {
        for (const side of [left, right]) if (isCompound(side)) this.session.budget.printedLength(side);
      }
      return super.evaluate(syntheticNode({ type: "BinaryExpression", operator: expression.operator, left: precomputed(left), right: precomputed(right) }), environment);
    }

    private repeat(text: TemplateValue, count: TemplateValue, environment: Environment): TemplateValue | undefined {
      if (!isString(text) || !isInteger(count)) return undefined;
      checkRepeat(this.session.template, text.value, count.value);
      return this.text(text.value.repeat(Math.max(0, count.value)), environment);
    }

    private applyFilterTo(operand: TemplateValue, filter: Identifier | CallExpression, environment: Environment): TemplateValue {
      const callee = (filter.type === "CallExpression" ? (filter as CallExpression).callee : filter) as Identifier;
      const name = callee.value;
      if (name === insertFilterName) {
        const { messages, budget } = this.session;
        if (!messages) throw new Error("{% insert %} renders only in a message template");
        return this.text(messages.insert(plainValue(operand, budget)), environment);
      }
      if (name === "templatize_part") {
        const { messages, budget } = this.session;
        if (!messages || filter.type === "CallExpression") throw new Error("templatize_part takes no arguments");
        return this.text(messages.part(plainValue(operand, budget)), environment);
      }
      // The package knows `default` only with parentheses.
      if (name === "default" && filter.type === "Identifier") return operand.type === "UndefinedValue" ? this.text("", environment) : operand;
      const { budget, template } = this.session;
      if (reachingFilters.has(name)) spendOnReach(budget, name, operand, literalLength(filter));
      if (!boundedFilters.has(name)) return super.evaluate(syntheticNode({ type: "FilterExpression", operand: precomputed(operand), filter }), environment);
      const args = filter.type === "CallExpression" ? callArguments((filter as CallExpression).args, (arg) => this.evaluate(arg, environment)) : noArguments;
      const { positional, keyword } = args;
      switch (name) {
        case "tojson":
          return this.text(templateJson(operand, jsonIndent(args), budget, template), environment);
        case "string":
          if (operand.type !== "UndefinedValue") return this.text(templateText(operand, budget, template), environment);
          break;
        case "join": {
          const joined = templateJoin(template, operand, positional[0] ?? keyword.get("d") ?? keyword.get("separator"), budget);
          if (joined !== undefined) return this.text(joined, environment);
          break;
        }
        case "indent":
          checkIndent(template, operand, positional[0] ?? keyword.get("width"));
          break;
        case "replace":
          if (isString(operand)) checkReplace(template, operand.value, positional[0], positional[1], positional[2] ?? keyword.get("count"));
          break;
        case "sort":
          spendOnReach(budget, name, operand, textLength(positional[2] ?? keyword.get("attribute")));
          break;
        case "map":
          spendOnReach(budget, name, operand, textLength(keyword.get("attribute")));
          break;
      }
      const call = filter.type === "CallExpression" ? syntheticNode({ type: "CallExpression", callee, args: args.nodes }) : filter;
      return super.evaluate(syntheticNode({ type: "FilterExpression", operand: precomputed(operand), filter: call }), environment);
    }

    // A `{% message %}` block (see rewriteMessageBlocks): its body rendered, made a message by the render's collector.
    private messageBlock({ body, filter }: FilterStatement, environment: Environment): TemplateValue {
      const { messages, budget, template } = this.session;
      if (!messages) throw new Error("a {% message %} block renders only in a message template");
      const { keyword } = callArguments((filter as CallExpression).args, (arg) => this.evaluate(arg, environment));
      const name = keyword.get("name");
      const meta = keyword.get("meta");
      const text = this.evaluate(syntheticNode({ type: "Program", body }), environment);
      const marker = messages.message(isString(text) ? text.value : templateText(text, budget, template), {
        role: keyword.get("role")?.value,
        name: isString(name) ? name.value : undefined,
        meta: meta === undefined ? {} : (JSON.parse(templateJson(meta, undefined, budget, template)) as Record<string, unknown>),
        line: Number(keyword.get(messageLineKey)?.value),
      });
      return this.text(marker, environment);
    }

    // `text.replace(…)` as a method: checked before the package's own replace runs.
    private boundReplace(method: FunctionValue, text: string): void {
      if (boundedReplaces.has(method)) return;
      boundedReplaces.add(method);
      const original = method.value;
      const { template } = this.session;
      method.value = (args, scope) => {
        const last = args[2];
        const count = last?.type === "KeywordArgumentsValue" ? (last.value as Map<string, TemplateValue>).get("count") : last;
        checkReplace(template, text, args[0], args[1], count);
        return original(args, scope);
      };
    }

    private text(value: string, environment: Environment): TemplateValue {
      return super.evaluate(syntheticNode({ type: "StringLiteral", value }), environment);
    }
  };
}

// Jinja's tojson takes one argument, `indent`.
function jsonIndent({ positional, keyword }: CallArguments): number | undefined {
  if (positional.length + keyword.size > 1 || (keyword.size === 1 && !keyword.has("indent"))) throw new Error("tojson takes one argument, indent");
  const indent = positional[0] ?? keyword.get("indent");
  if (indent === undefined || indent.type === "NullValue") return undefined;
  if (!isInteger(indent)) throw new Error(`tojson's indent must be an integer, got ${indent.type}`);
  return indent.value;
}

function textLength(value: TemplateValue | undefined): number {
  return isString(value) ? value.value.length : 0;
}

// The length of a filter's string-literal arguments (`selectattr('name', 'eq', 'x')`).
function literalLength(filter: Identifier | CallExpression): number {
  if (filter.type !== "CallExpression") return 0;
  let length = 0;
  for (const arg of (filter as CallExpression).args) if (arg.type === "StringLiteral") length += (arg as unknown as { value: string }).value.length;
  return length;
}
