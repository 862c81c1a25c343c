import type {
  BinaryExpression,
  CallExpression,
  CallStatement,
  FilterExpression,
  FilterStatement,
  For,
  Identifier,
  If,
  KeywordArgumentExpression,
  Macro,
  MemberExpression,
  ObjectLiteral,
  Parameter,
  Program,
  SelectExpression,
  SetStatement,
  SliceExpression,
  Statement,
  Ternary,
  TestExpression,
  TupleLiteral,
  UnaryExpression,
} from "@huggingface/jinja/dist/ast";
import { PromptTemplateError } from "../errors";
import { insertFilterName, messageFilterName } from "./messageBlocks";
import { narrowing } from "./narrowing";
import { templateLimits } from "./templateLimits";
import { filterAliases, templateFilters, templateGlobals, templateTests } from "./templateNames";

/** What rendering needs to know about a template, found once when it compiles. */
export interface TemplatePlan {
  /** The free variables (read from the render's context), sorted. */
  readonly variables: readonly string[];
  /** The free variables that some use needs a value for (not only under `default` or `is defined`). */
  readonly required: ReadonlySet<string>;
  /** Member expressions that may come out undefined: under `default`, or tested with `is defined`. */
  readonly optionalMembers: ReadonlySet<Statement>;
  /** Expressions whose value is printed (`{{ … }}`). */
  readonly printed: ReadonlySet<Statement>;
  /**
   * Macros and call blocks, with the number of nodes in each: the interpreter walks a macro's body
   * every time it evaluates the definition (or the call block), so that work is paid for in steps.
   */
  readonly definitionSizes: ReadonlyMap<Statement, number>;
  /** Whether the template applies Haystack's `templatize_part` filter (message templates only). */
  readonly templatizesParts: boolean;
}

/**
 * Walks a parsed template once: finds its free variables (names not bound by `set`, `for`, a macro
 * or call block, and not a global), which of them a render needs (a name used only as
 * `x | default(…)` or in `x is defined` may be missing, and so may a name used where an enclosing
 * `if x is defined` / `x is defined and …` has tested it), and which member expressions may be
 * undefined. It also rejects what would only fail later: unknown filters and tests, `break` outside
 * a loop, and nesting deeper than `templateLimits.maxSyntaxDepth`. Jinja's aliases `d` and `count`
 * are renamed in place to `default` and `length`.
 */
export function analyzeTemplate(program: Program, template: string): TemplatePlan {
  const analyzer = new Analyzer(template);
  analyzer.block(program.body, new Scope(undefined), false, 0);
  const required = new Set<string>();
  for (const [name, needed] of analyzer.free) if (needed) required.add(name);
  return {
    variables: Object.freeze([...analyzer.free.keys()].sort()),
    required,
    optionalMembers: analyzer.optionalMembers,
    printed: analyzer.printed,
    definitionSizes: analyzer.definitionSizes,
    templatizesParts: analyzer.templatizesParts,
  };
}

const emptySet: ReadonlySet<string> = new Set();
const statementTypes = new Set(["If", "For", "Set", "Macro", "CallStatement", "FilterStatement", "Break", "Continue", "Comment"]);
const knownFilters = new Set(templateFilters);
const knownTests = new Set(templateTests);

// The names bound at one point of the template, and those an enclosing `is defined` test vouches for.
class Scope {
  private readonly names = new Set<string>();

  constructor(
    private readonly parent: Scope | undefined,
    private readonly defined: ReadonlySet<string> = emptySet,
  ) {}

  bind(name: string): void {
    this.names.add(name);
  }

  has(name: string): boolean {
    return this.names.has(name) || (this.parent?.has(name) ?? false);
  }

  isDefined(name: string): boolean {
    return this.defined.has(name) || (this.parent?.isDefined(name) ?? false);
  }

  bound(): ReadonlySet<string> {
    return this.names;
  }
}

class Analyzer {
  readonly free = new Map<string, boolean>();
  readonly optionalMembers = new Set<Statement>();
  readonly printed = new Set<Statement>();
  readonly definitionSizes = new Map<Statement, number>();
  templatizesParts = false;
  private visited = 0;

  constructor(private readonly template: string) {}

  block(body: readonly Statement[], scope: Scope, inLoop: boolean, depth: number): void {
    for (const node of body) {
      if (!statementTypes.has(node.type)) this.printed.add(node);
      this.statement(node, scope, inLoop, depth);
    }
  }

  private statement(node: Statement, scope: Scope, inLoop: boolean, depth: number): void {
    this.enter(depth);
    const inner = depth + 1;
    switch (node.type) {
      case "If": {
        const { test, body, alternate } = node as If;
        this.expression(test, scope, false, inner);
        const { ifTrue, ifFalse } = narrowing(test);
        const then = new Scope(scope, ifTrue);
        const otherwise = new Scope(scope, ifFalse);
        this.block(body, then, inLoop, inner);
        this.block(alternate, otherwise, inLoop, inner);
        // After the `if`, a name is bound only when both branches bind it.
        for (const name of then.bound()) if (otherwise.bound().has(name)) scope.bind(name);
        return;
      }
      case "For": {
        const { loopvar, iterable, body, defaultBlock } = node as For;
        const select = iterable.type === "SelectExpression" ? (iterable as SelectExpression) : undefined;
        this.expression(select ? select.lhs : iterable, scope, false, inner);
        const loop = new Scope(scope);
        this.bindTarget(loopvar, loop);
        loop.bind("loop");
        if (select) this.expression(select.test, loop, false, inner);
        this.block(body, loop, true, inner);
        this.block(defaultBlock, new Scope(scope), inLoop, inner);
        return;
      }
      case "Set": {
        const { assignee, value, body } = node as SetStatement;
        if (value) this.expression(value, scope, false, inner);
        else this.block(body, scope, inLoop, inner);
        if (assignee.type === "MemberExpression") this.expression((assignee as MemberExpression).object, scope, false, inner);
        else this.bindTarget(assignee, scope);
        return;
      }
      case "Macro": {
        const { name, args, body } = node as Macro;
        const before = this.visited;
        scope.bind(name.value);
        this.callable(args, ["varargs", "kwargs", "caller"], body, scope, inner);
        this.definitionSizes.set(node, this.visited - before);
        return;
      }
      case "CallStatement": {
        const { call, callerArgs, body } = node as CallStatement;
        const before = this.visited;
        this.expression(call, scope, false, inner);
        this.callable(callerArgs ?? [], ["varargs", "kwargs"], body, scope, inner);
        this.definitionSizes.set(node, this.visited - before);
        return;
      }
      case "FilterStatement": {
        const { filter, body } = node as FilterStatement;
        this.block(body, scope, inLoop, inner);
        this.filter(filter, scope, inner);
        return;
      }
      case "Break":
      case "Continue":
        if (!inLoop) throw this.error(`uses {% ${node.type.toLowerCase()} %} outside a {% for %} loop: move it into the loop's body`);
        return;
      case "Comment":
        return;
      default:
        this.expression(node, scope, false, depth);
    }
  }

  // `guard`: this expression is the operand of `default` or of an `is defined` test, so it may be undefined.
  private expression(node: Statement, scope: Scope, guard: boolean, depth: number): void {
    this.enter(depth);
    const inner = depth + 1;
    switch (node.type) {
      case "Identifier":
        return this.use((node as Identifier).value, scope, guard);
      case "MemberExpression": {
        const { object, property, computed } = node as MemberExpression;
        if (guard) this.optionalMembers.add(node);
        this.expression(object, scope, guard, inner);
        if (computed) this.expression(property, scope, false, inner);
        return;
      }
      case "SliceExpression": {
        const { start, stop, step } = node as SliceExpression;
        for (const part of [start, stop, step]) if (part) this.expression(part, scope, false, inner);
        return;
      }
      case "CallExpression": {
        const { callee, args } = node as CallExpression;
        this.expression(callee, scope, false, inner);
        for (const arg of args) this.expression(arg, scope, false, inner);
        return;
      }
      case "KeywordArgumentExpression":
        return this.expression((node as KeywordArgumentExpression).value, scope, false, inner);
      case "SpreadExpression":
      case "KeywordSpreadExpression":
        return this.expression((node as unknown as { argument: Statement }).argument, scope, false, inner);
      case "FilterExpression": {
        const { operand, filter } = node as FilterExpression;
        const name = this.filter(filter, scope, inner);
        return this.expression(operand, scope, name === "default", inner);
      }
      case "TestExpression": {
        const { operand, test } = node as TestExpression;
        if (!knownTests.has(test.value)) throw this.error(`uses the test '${test.value}', which toolwright's templates do not have: use one of ${templateTests.join(", ")}`);
        return this.expression(operand, scope, test.value === "defined" || test.value === "undefined", inner);
      }
      case "BinaryExpression": {
        const { operator, left, right } = node as BinaryExpression;
        this.expression(left, scope, false, inner);
        const { ifTrue, ifFalse } = narrowing(left);
        const rightScope = operator.value === "and" ? new Scope(scope, ifTrue) : operator.value === "or" ? new Scope(scope, ifFalse) : scope;
        return this.expression(right, rightScope, false, inner);
      }
      case "UnaryExpression":
        return this.expression((node as UnaryExpression).argument, scope, false, inner);
      case "Ternary": {
        const { condition, trueExpr, falseExpr } = node as Ternary;
        this.expression(condition, scope, false, inner);
        const { ifTrue, ifFalse } = narrowing(condition);
        this.expression(trueExpr, new Scope(scope, ifTrue), false, inner);
        return this.expression(falseExpr, new Scope(scope, ifFalse), false, inner);
      }
      case "SelectExpression": {
        const { lhs, test } = node as SelectExpression;
        this.expression(test, scope, false, inner);
        return this.expression(lhs, new Scope(scope, narrowing(test).ifTrue), false, inner);
      }
      case "ArrayLiteral":
      case "TupleLiteral":
        for (const item of (node as TupleLiteral).value) this.expression(item, scope, false, inner);
        return;
      case "ObjectLiteral":
        for (const [key, value] of (node as ObjectLiteral).value) {
          this.expression(key, scope, false, inner);
          this.expression(value, scope, false, inner);
        }
        return;
      case "StringLiteral":
      case "IntegerLiteral":
      case "FloatLiteral":
        return;
      default:
        throw this.error(`uses a construct (${node.type}) that toolwright's templates do not support: rewrite it with expressions, filters, if, for, set and macro`);
    }
  }

  // A macro's or call block's parameters and body, in a scope of its own.
  private callable(parameters: readonly Parameter[], implicit: readonly string[], body: readonly Statement[], scope: Scope, depth: number): void {
    const inner = new Scope(scope);
    for (const name of implicit) inner.bind(name);
    for (const parameter of parameters) inner.bind(parameter.type === "Identifier" ? (parameter as Identifier).value : (parameter as KeywordArgumentExpression).key.value);
    for (const parameter of parameters) if (parameter.type === "KeywordArgumentExpression") this.expression((parameter as KeywordArgumentExpression).value, inner, false, depth);
    this.block(body, inner, false, depth);
  }

  // Checks a filter's name (renaming Jinja's aliases) and walks its arguments; returns the name.
  private filter(filter: Identifier | CallExpression, scope: Scope, depth: number): string {
    const callee = filter.type === "CallExpression" ? (filter as CallExpression).callee : filter;
    if (callee.type !== "Identifier") throw this.error("applies a filter that is not a name: write value | name or value | name(arguments)");
    const id = callee as Identifier;
    id.value = filterAliases.get(id.value) ?? id.value;
    if (id.value === "templatize_part") this.templatizesParts = true;
    else if (id.value !== messageFilterName && id.value !== insertFilterName && !knownFilters.has(id.value)) throw this.error(`uses the filter '${id.value}', which toolwright's templates do not have: use one of ${templateFilters.join(", ")}`);
    if (filter.type === "CallExpression") for (const arg of (filter as CallExpression).args) this.expression(arg, scope, false, depth);
    return id.value;
  }

  private bindTarget(target: Statement, scope: Scope): void {
    if (target.type === "Identifier") scope.bind((target as Identifier).value);
    else if (target.type === "TupleLiteral") for (const item of (target as TupleLiteral).value) this.bindTarget(item, scope);
  }

  private use(name: string, scope: Scope, guard: boolean): void {
    if (scope.has(name) || templateGlobals.has(name)) return;
    const needed = !guard && !scope.isDefined(name);
    this.free.set(name, (this.free.get(name) ?? false) || needed);
  }

  private enter(depth: number): void {
    this.visited++;
    if (depth > templateLimits.maxSyntaxDepth) {
      throw this.error(`nests blocks and expressions more than ${templateLimits.maxSyntaxDepth} levels deep, the limit: split it into smaller expressions (a {% set %} for a part) and blocks`);
    }
  }

  private error(problem: string): PromptTemplateError {
    return new PromptTemplateError(this.template, `${this.template} template ${problem}.`);
  }
}
