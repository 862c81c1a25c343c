import type { Environment, Interpreter } from "@huggingface/jinja";
import type {
  BinaryExpression,
  CallExpression,
  FilterExpression,
  FilterStatement,
  For,
  Identifier,
  KeywordArgumentExpression,
  MemberExpression,
  SelectExpression,
  Statement,
} from "@huggingface/jinja/dist/ast";
import type { FunctionValue } from "@huggingface/jinja/dist/runtime";
import type { TemplatePlan } from "./analyzeTemplate";
import { checkIndent, checkJoin, checkRepeat, checkReplace } from "./boundedFilters";
import { jinja, type JinjaPackage } from "./jinjaPackage";
import { missingMember } from "./missingMember";
import type { RenderBudget } from "./renderBudget";
import { evaluationTooDeep, stringTooLong } from "./renderErrors";
import { templateJson } from "./templateJson";
import { templateLimits } from "./templateLimits";
import { templateText } from "./templateRepr";
import { isCompound, isInteger, isString, itemCount, type TemplateValue } from "./templateValues";

/** What one render's interpreter works with. */
export interface TemplateSession {
  readonly template: string;
  readonly plan: TemplatePlan;
  readonly budget: RenderBudget;
}

/**
 * An interpreter for one render: `@huggingface/jinja`'s, with every evaluation passing through
 * `evaluate`, which spends the budget, bounds the nesting and the strings made, turns a missing
 * attribute into an error, prints booleans, none and floats as Jinja does, and takes over the
 * operations whose output can outgrow their input (`join`, `indent`, `replace`, `tojson`, string
 * repetition) to check the size first.
 */
export function templateInterpreter(environment: Environment, session: TemplateSession): Interpreter {
  interpreterClass ??= defineInterpreter(jinja().Interpreter);
  return new interpreterClass(environment, session);
}

type InterpreterClass = new (environment: Environment, session: TemplateSession) => Interpreter;
let interpreterClass: InterpreterClass | undefined;

// A value evaluated already, handed back to the package's own evaluation of a node.
const precomputedType = "PrecomputedValue";
const node = (fields: Record<string, unknown>): Statement => fields as unknown as Statement;
const precomputed = (value: TemplateValue): Statement => node({ type: precomputedType, value });

// Nodes that hand back a value held elsewhere rather than make one.
const lookups = new Set(["Identifier", "MemberExpression"]);
const boundedFilters = new Set(["tojson", "string", "join", "indent", "replace"]);
const hiddenSources = new WeakSet<object>();
const boundedReplaces = new WeakSet<object>();

interface Arguments {
  readonly positional: TemplateValue[];
  readonly keyword: Map<string, TemplateValue>;
  /** The same arguments as precomputed nodes, positional first, as the package evaluates them. */
  readonly nodes: Statement[];
}

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
          return this.applyFilterTo(this.evaluate(node({ type: "Program", body }), environment), filter, environment);
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
      const source = select ? node({ type: "SelectExpression", lhs: precomputed(items), test: select.test }) : precomputed(items);
      return super.evaluate(node({ type: "For", loopvar, iterable: source, body, defaultBlock }), environment);
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
      const value = super.evaluate(node({ type: "MemberExpression", object: precomputed(object), property, computed: member.computed }), environment);
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
      return super.evaluate(node({ type: "BinaryExpression", operator: expression.operator, left: precomputed(left), right: precomputed(right) }), environment);
    }

    private repeat(text: TemplateValue, count: TemplateValue, environment: Environment): TemplateValue | undefined {
      if (!isString(text) || !isInteger(count)) return undefined;
      checkRepeat(this.session.template, text.value, count.value);
      return this.text(text.value.repeat(Math.max(0, count.value)), environment);
    }

    private applyFilterTo(operand: TemplateValue, filter: Identifier | CallExpression, environment: Environment): TemplateValue {
      const callee = (filter.type === "CallExpression" ? (filter as CallExpression).callee : filter) as Identifier;
      const name = callee.value;
      // The package knows `default` only with parentheses.
      if (name === "default" && filter.type === "Identifier") return operand.type === "UndefinedValue" ? this.text("", environment) : operand;
      if (!boundedFilters.has(name)) return super.evaluate(node({ type: "FilterExpression", operand: precomputed(operand), filter }), environment);
      const { budget, template } = this.session;
      const args: Arguments = filter.type === "CallExpression" ? this.collectArguments((filter as CallExpression).args, environment) : { positional: [], keyword: new Map(), nodes: [] };
      const { positional, keyword } = args;
      switch (name) {
        case "tojson":
          return this.text(templateJson(operand, jsonIndent(args), budget, template), environment);
        case "string":
          if (operand.type !== "UndefinedValue") return this.text(templateText(operand, budget, template), environment);
          break;
        case "join":
          checkJoin(template, operand, positional[0] ?? keyword.get("separator"), budget);
          break;
        case "indent":
          checkIndent(template, operand, positional[0] ?? keyword.get("width"));
          break;
        case "replace":
          if (isString(operand)) checkReplace(template, operand.value, positional[0], positional[1], positional[2] ?? keyword.get("count"));
          break;
      }
      const call = filter.type === "CallExpression" ? node({ type: "CallExpression", callee, args: args.nodes }) : filter;
      return super.evaluate(node({ type: "FilterExpression", operand: precomputed(operand), filter: call }), environment);
    }

    // Evaluates call arguments once, in the package's order (positional, spreads included, then keyword).
    private collectArguments(args: readonly Statement[], environment: Environment): Arguments {
      const positional: TemplateValue[] = [];
      const keyword = new Map<string, TemplateValue>();
      const nodes: Statement[] = [];
      const addPositional = (value: TemplateValue): void => {
        positional.push(value);
        nodes.push(precomputed(value));
      };
      const addKeyword = (key: string, value: TemplateValue): void => {
        if (keyword.has(key)) throw new Error(`Got multiple values for keyword argument '${key}'`);
        keyword.set(key, value);
        nodes.push(node({ type: "KeywordArgumentExpression", key: node({ type: "Identifier", value: key }), value: precomputed(value) }));
      };
      for (const arg of args) {
        if (arg.type === "SpreadExpression") {
          const spread = this.evaluate((arg as unknown as { argument: Statement }).argument, environment);
          if (spread.type !== "ArrayValue" && spread.type !== "TupleValue") throw new Error(`Cannot unpack non-iterable type: ${spread.type}`);
          for (const item of spread.value as TemplateValue[]) addPositional(item);
        } else if (arg.type !== "KeywordArgumentExpression" && arg.type !== "KeywordSpreadExpression") {
          addPositional(this.evaluate(arg, environment));
        }
      }
      for (const arg of args) {
        if (arg.type === "KeywordArgumentExpression") {
          const { key, value } = arg as KeywordArgumentExpression;
          addKeyword(key.value, this.evaluate(value, environment));
        } else if (arg.type === "KeywordSpreadExpression") {
          const spread = this.evaluate((arg as unknown as { argument: Statement }).argument, environment);
          if (spread.type !== "ObjectValue" && spread.type !== "KeywordArgumentsValue") throw new Error(`Argument after ** must be a mapping, not ${spread.type}`);
          for (const [key, value] of spread.value as Map<string, TemplateValue>) addKeyword(key, value);
        }
      }
      return { positional, keyword, nodes };
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
      return super.evaluate(node({ type: "StringLiteral", value }), environment);
    }
  };
}

// Jinja's tojson takes one argument, `indent`.
function jsonIndent({ positional, keyword }: Arguments): number | undefined {
  if (positional.length + keyword.size > 1 || (keyword.size === 1 && !keyword.has("indent"))) throw new Error("tojson takes one argument, indent");
  const indent = positional[0] ?? keyword.get("indent");
  if (indent === undefined || indent.type === "NullValue") return undefined;
  if (!isInteger(indent)) throw new Error(`tojson's indent must be an integer, got ${indent.type}`);
  return indent.value;
}
