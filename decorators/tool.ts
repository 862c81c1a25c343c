import "reflect-metadata";
import { ToolDecoratorError } from "./errors";
import { recordDecoration } from "./metadataStorage";
import type { ToolDecoratorOptions } from "./toolOptions";

type AnyMethod = (...args: any[]) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any -- any method signature

/** The decorator `@tool` returns: works with `experimentalDecorators` and with TypeScript 5 standard decorators. */
export interface ToolMethodDecorator {
  (target: object, propertyKey: string | symbol, descriptor?: PropertyDescriptor): void;
  <T extends AnyMethod>(value: T, context: ClassMethodDecoratorContext): void;
}

/**
 * Marks a method as a tool the model can call. The method's parameter types and JSDoc become its
 * JSON Schema at build time (`toolwright codegen`); parameters typed `State` and those named in
 * `inputsFromState` are filled by the runtime and never shown to the model.
 *
 * Works on instance methods (give the Agent the instance) and static methods (give it the class),
 * sync or async, with `experimentalDecorators` or standard decorators.
 *
 * @example
 * class SupportTools {
 *   // (JSDoc here: the summary becomes the description, each `@param` a property description)
 *   @tool({ inputsFromState: { customer_id: "customerId" }, outputsToState: { tickets: { source: "tickets" } } })
 *   async searchTickets(query: string, customerId: string, limit = 5) { … }
 * }
 */
export function tool(options?: ToolDecoratorOptions): ToolMethodDecorator;
export function tool(target: object, propertyKey: string | symbol, descriptor?: PropertyDescriptor): void;
export function tool<T extends AnyMethod>(value: T, context: ClassMethodDecoratorContext): void;
export function tool(...args: unknown[]): ToolMethodDecorator | void {
  if (isDecoratorCall(args)) return (decorate as (...a: unknown[]) => void)({}, ...args);
  const options = (args[0] ?? {}) as ToolDecoratorOptions;
  if (typeof options !== "object" || options === null) {
    throw new ToolDecoratorError("@tool", `@tool(options) takes an options object such as { name: "search" }, got ${typeof options}.`);
  }
  return ((...decoratorArgs: unknown[]) => (decorate as (...a: unknown[]) => void)(options, ...decoratorArgs)) as ToolMethodDecorator;
}

function isDecoratorCall(args: unknown[]): boolean {
  if (args.length >= 2 && (typeof args[1] === "string" || typeof args[1] === "symbol")) return true; // legacy
  return args.length === 2 && typeof args[1] === "object" && args[1] !== null && "kind" in args[1]; // standard
}

function decorate(options: ToolDecoratorOptions, ...args: unknown[]): void {
  if (typeof args[1] === "object" && args[1] !== null && "kind" in args[1]) {
    decorateStandard(options, args[0] as AnyMethod, args[1] as DecoratorContext);
  } else {
    decorateLegacy(options, args[0] as object, args[1] as string | symbol, args[2] as PropertyDescriptor | undefined);
  }
}

function decorateLegacy(options: ToolDecoratorOptions, target: object, key: string | symbol, descriptor: PropertyDescriptor | undefined): void {
  const isStatic = typeof target === "function";
  const className = isStatic ? (target as { name: string }).name : (target.constructor?.name ?? "(anonymous class)");
  const member = `${className}.${String(key)}`;
  if (typeof key === "symbol") throw misuse(member, "a symbol-named member");
  if (!descriptor) throw misuse(member, "a property");
  if (descriptor.get || descriptor.set) throw misuse(member, descriptor.get ? "a getter" : "a setter");
  if (typeof descriptor.value !== "function") throw misuse(member, "a property");
  recordDecoration(descriptor.value as AnyMethod, { kind: "method", memberName: key, isStatic, mode: "legacy", options, fn: descriptor.value as AnyMethod });
}

// Standard decorators do not know the class while they run; misuse is reported as soon as the
// class is known: at class definition for static members, at construction for instance members.
function decorateStandard(options: ToolDecoratorOptions, value: AnyMethod, context: DecoratorContext): void {
  const name = String(context.name);
  const what =
    context.kind === "method"
      ? typeof context.name === "symbol"
        ? "a symbol-named member"
        : context.private
          ? "a #private method"
          : undefined
      : describeKind(context.kind);
  if (what) {
    const fail = (owner: unknown) => {
      const className = typeof owner === "function" ? owner.name : ((owner as { constructor?: { name?: string } })?.constructor?.name ?? "(anonymous class)");
      throw misuse(`${className}.${name}`, what);
    };
    if (context.kind === "class") throw misuse(name, what);
    if ("addInitializer" in context) {
      (context as { addInitializer(fn: (this: unknown) => void): void }).addInitializer(function (this: unknown) {
        fail(this);
      });
    }
    return;
  }
  const methodContext = context as ClassMethodDecoratorContext;
  recordDecoration(value, { kind: "method", memberName: name, isStatic: methodContext.static, mode: "standard", options, fn: value });
}

function describeKind(kind: DecoratorContext["kind"]): string {
  switch (kind) {
    case "getter":
      return "a getter";
    case "setter":
      return "a setter";
    case "field":
      return "a field";
    case "accessor":
      return "an accessor";
    case "class":
      return "a class";
    default:
      return `a ${kind}`;
  }
}

function misuse(member: string, what: string): ToolDecoratorError {
  return new ToolDecoratorError(member, `@tool on ${member}: ${member} is ${what}, but @tool only marks methods; put it on a (public, string-named) method.`);
}
