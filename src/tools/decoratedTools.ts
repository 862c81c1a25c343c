import { decorationOf, type ToolDecoration } from "../../decorators";
import { ConfigurationError, StaleSchemaError } from "../errors";
import { State } from "../state/state";
import { functionParameterNames } from "./functionParameters";
import type { GeneratedToolEntry } from "./generatedEntry";
import type { JsonSchema } from "./jsonSchema";
import { reviveDates } from "./reviveDates";
import { signatureChange } from "./signatureChange";
import { toolLocation } from "./toolLocation";
import { generatedEntriesOf, registeredModules, type RegisteredEntry } from "./schemaRegistry";
import { generatedSchema, Tool, type ToolOptions } from "./tool";

interface DecoratedMember {
  readonly decoration: ToolDecoration;
  /** The class that declares the method (or the `defineTool` handle). */
  readonly owner: unknown;
  /** Where `design:paramtypes` is recorded: the prototype, or the class for statics. */
  readonly metadataTarget: object | undefined;
  /** `Class.method`, or the function name. */
  readonly label: string;
}

/**
 * The tools of an object with `@tool` methods or of a `defineTool` result, joined with their
 * generated entries. An instance gives its instance methods and its class's static ones (called on
 * the class); a class gives its static methods, and is refused when it also has instance tools,
 * which need an instance. Undefined when the object has no tools. Throws `ConfigurationError` when
 * an entry is missing and `StaleSchemaError` when one no longer matches its method.
 */
export function decoratedTools(source: object): Tool[] | undefined {
  const handle = decorationOf(source);
  if (handle?.kind === "function") return [toolOf({ decoration: handle, owner: source, metadataTarget: undefined, label: handle.memberName }, undefined)];
  if (typeof source === "function") {
    const statics = decoratedMembers(source, true);
    const instance = decoratedMembers((source as { prototype?: object }).prototype ?? null, false);
    if (instance.length > 0 && statics.length > 0) throw mixedClass(source as { name?: string }, statics, instance);
    if (statics.length === 0) return undefined;
    return statics.map((member) => toolOf(member, source));
  }
  const constructor = (Object.getPrototypeOf(source) as { constructor?: unknown } | null)?.constructor;
  const instance = decoratedMembers(Object.getPrototypeOf(source) as object | null, false);
  const statics = typeof constructor === "function" && constructor !== Object ? decoratedMembers(constructor, true) : [];
  if (instance.length === 0 && statics.length === 0) return undefined;
  return [...instance.map((member) => toolOf(member, source)), ...statics.map((member) => toolOf(member, constructor))];
}

function mixedClass(cls: { name?: string }, statics: readonly DecoratedMember[], instance: readonly DecoratedMember[]): ConfigurationError {
  const name = cls.name || "(anonymous class)";
  const names = (members: readonly DecoratedMember[]) => members.map((m) => m.label).join(", ");
  return new ConfigurationError(
    name,
    `${name} has static @tool methods (${names(statics)}) and instance @tool methods (${names(instance)}), and the class alone cannot call the instance ones; pass an instance (new ${name}(…)), which gives both kinds.`,
  );
}

// The @tool methods found walking up from `start`: statics (start is a class) or instance methods (start is a prototype).
function decoratedMembers(start: object | null, isStatic: boolean): DecoratedMember[] {
  const found: DecoratedMember[] = [];
  const seen = new Set<string>();
  let level: object | null = start;
  while (level && level !== Object.prototype && level !== Function.prototype) {
    const owner = isStatic ? level : (level as { constructor: unknown }).constructor;
    const className = (owner as { name?: string })?.name || "(anonymous class)";
    for (const name of Object.getOwnPropertyNames(level)) {
      if (seen.has(name) || name === "constructor" || name === "prototype") continue;
      seen.add(name);
      const value = Object.getOwnPropertyDescriptor(level, name)?.value as unknown;
      const decoration = typeof value === "function" ? decorationOf(value) : undefined;
      if (decoration && decoration.kind === "method" && decoration.isStatic === isStatic) {
        found.push({ decoration, owner, metadataTarget: level, label: `${className}.${name}` });
      }
    }
    level = Object.getPrototypeOf(level);
  }
  return found;
}

function toolOf(member: DecoratedMember, target: unknown): Tool {
  const record = findEntry(member);
  const { entry } = record;
  const location = toolLocation(entry, member.decoration.kind === "function" ? undefined : (member.owner as { name?: string }).name);
  checkNotStale(member, record, location);
  const plan = entry.parameters;
  const dates = new Set(entry.dates ?? []);
  const fn = member.decoration.fn;
  // The Tool takes the full parameter list and hides what inputsFromState fills, like any Tool.
  // Injected parameters carry the type codegen read (checked against the state key and each value)
  // and are required unless optional, so a missing state value stops the call instead of passing undefined.
  const injected = plan.filter((p) => p.role === "stateKey");
  const parameters: JsonSchema = {
    ...entry.schema,
    properties: { ...entry.schema.properties, ...Object.fromEntries(injected.map((p) => [p.name, p.schema ?? {}])) },
    required: [...(entry.schema.required ?? []), ...injected.filter((p) => !p.optional).map((p) => p.name)],
  };
  const options: ToolOptions & { readonly [generatedSchema]: true } = {
    [generatedSchema]: true,
    name: entry.name,
    description: entry.description,
    parameters,
    inputsFromState: entry.options.inputsFromState,
    outputsToState: member.decoration.options.outputsToState,
    outputsToString: member.decoration.options.outputsToString,
    ...limitsOf(member.decoration.options),
    usesState: plan.some((p) => p.role === "state"),
    // An arrow function given to defineTool has no name of its own; codegen read the const's.
    source: `${member.label || entry.member} (${location})`,
    ...(entry.outputSchema !== undefined && { outputSchema: entry.outputSchema }),
    ...(entry.title !== undefined && { title: entry.title }),
    ...(entry.annotations !== undefined && { annotations: entry.annotations }),
    function: (args, context) => {
      const values = dates.size > 0 ? (reviveDates(args, entry.schema, dates) as Record<string, unknown>) : args;
      return fn.apply(target, plan.map((p) => (p.role === "state" ? context.state : Object.hasOwn(values, p.name) ? values[p.name] : undefined)));
    },
  };
  try {
    return new Tool(options);
  } catch (error) {
    // The Tool checks the decorator's options as it checks any Tool's; only here is the declaration known.
    if (!(error instanceof ConfigurationError)) throw error;
    throw new ConfigurationError(error.subject, `${error.message.replace(/\.$/, "")} (${options.source}).`, { cause: error, ...(error.optionPath && { optionPath: error.optionPath }) });
  }
}

function findEntry(member: DecoratedMember): RegisteredEntry {
  const { decoration } = member;
  // A defineTool handle is its own owner; a method is found by name within its class.
  const record = generatedEntriesOf(member.owner).find(
    (r) => r.entry.kind === decoration.kind && (decoration.kind === "function" || (r.entry.member === decoration.memberName && r.entry.static === decoration.isStatic)),
  );
  if (record) return record;
  const modules = registeredModules().map((m) => m.module);
  const what = decoration.kind === "function" ? `${member.label} is a defineTool function` : `${member.label} is a @tool method`;
  throw new ConfigurationError(
    member.label,
    `${what} with no generated schema: run \`npx toolwright codegen\` and import the generated module (for example ${generatedModuleImport()}) before creating the Agent. ` +
      (modules.length > 0 ? `Generated modules imported so far: ${modules.join(", ")}; none describes ${member.label}.` : "No generated module has been imported yet."),
  );
}

/**
 * The import of the generated module a message suggests, in the app's module system. An app whose
 * entry point is an ES module gets `import "./tools.generated.js"`: Node finds a relative ES import
 * only by its full file name, and TypeScript (node16, nodenext, bundler), tsx and bundlers map the
 * `.js` to the `.ts` source. A CommonJS app gets `import "./tools.generated"`.
 */
function generatedModuleImport(): string {
  // toolwright is CommonJS: `require.main` is the app's entry module when that is CommonJS, and
  // undefined when Node started from an ES module.
  return require.main === undefined ? 'import "./tools.generated.js"' : 'import "./tools.generated"';
}

function checkNotStale(member: DecoratedMember, record: RegisteredEntry, location: string): void {
  const minified = minifiedParameterNames(member, record.entry);
  if (minified) {
    throw new ConfigurationError(
      member.label,
      `${member.label} (${location}) has parameters named (${minified.join(", ")}) where ${record.module.module} has (${record.entry.parameters.map((p) => p.name).join(", ")}): ` +
        "the build minified the parameter names, which toolwright reads to match arguments to parameters, so running codegen again cannot help; " +
        "keep parameter names when minifying: with esbuild use --minify-whitespace --minify-syntax without --minify-identifiers (--keep-names keeps only function and class names), " +
        "with terser set mangle: false.",
    );
  }
  const problem = staleness(member, record.entry);
  if (!problem) return;
  // An arrow function given to defineTool has no name of its own; codegen read the const's.
  const label = member.label || record.entry.member;
  throw new StaleSchemaError(
    label,
    `${label} (${location}) has changed since ${record.module.module} was generated: ${problem}. Run \`${record.module.command}\` to regenerate it.`,
  );
}

// Minifiers rename parameters to one or two characters (`e`, `t`, `n`, `$`, `_a`); codegen read the
// source names. The same count, all short, differing from a plan with a longer name, is a minifier's work.
function minifiedParameterNames(member: DecoratedMember, entry: GeneratedToolEntry): string[] | undefined {
  const planned = entry.parameters.map((p) => p.name);
  const actual = functionParameterNames(member.decoration.fn);
  if (!actual || actual.length !== planned.length || actual.join(",") === planned.join(",")) return undefined;
  return actual.every((name) => name.length <= 2) && planned.some((name) => name.length > 2) ? actual : undefined;
}

function staleness(member: DecoratedMember, entry: GeneratedToolEntry): string | undefined {
  const { decoration } = member;
  const planned = entry.parameters.map((p) => p.name);
  const actual = functionParameterNames(decoration.fn);
  if (actual && actual.join(",") !== planned.join(",")) {
    return `its parameters are now (${actual.join(", ")}), the generated plan has (${planned.join(", ")})`;
  }
  const statePosition = stateParameterProblem(member, entry);
  if (statePosition) return statePosition;
  const className = decoration.kind === "function" ? undefined : (member.owner as { name?: string }).name;
  const changed = signatureChange(entry, className);
  if (changed) return changed;
  const options = decoration.options;
  // An arrow function given to defineTool has no name of its own; the const's name is the default.
  const name = options.name ?? (decoration.memberName || entry.member);
  if (name !== entry.name) return `its tool name is now '${name}', the generated entry has '${entry.name}'`;
  if (options.description !== undefined && options.description !== entry.description) return "its description option changed";
  if (!sameRecord(options.inputsFromState ?? {}, entry.options.inputsFromState)) return "its inputsFromState option changed";
  const outputs = Object.fromEntries(Object.entries(options.outputsToState ?? {}).map(([k, v]) => [k, v?.source ?? null]));
  const generatedOutputs = Object.fromEntries(Object.entries(entry.options.outputsToState).map(([k, v]) => [k, v.source ?? null]));
  if (!sameRecord(outputs, generatedOutputs)) return "its outputsToState option changed";
  return undefined;
}

const definitelyNotState = new Set<unknown>([String, Number, Boolean, Array, Date, BigInt, Symbol]);

// With emitDecoratorMetadata, design:paramtypes says where the State parameter is.
function stateParameterProblem(member: DecoratedMember, entry: GeneratedToolEntry): string | undefined {
  if (!member.metadataTarget || typeof Reflect.getMetadata !== "function") return undefined;
  const types = Reflect.getMetadata("design:paramtypes", member.metadataTarget, member.decoration.memberName) as unknown[] | undefined;
  if (!Array.isArray(types)) return undefined;
  if (types.length !== entry.parameters.length) return `it now has ${types.length} parameters, the generated plan has ${entry.parameters.length}`;
  for (const [i, type] of types.entries()) {
    const role = entry.parameters[i]!.role;
    if (type === State && role !== "state") return `parameter ${i + 1} (${entry.parameters[i]!.name}) is now typed State, the generated plan has it as ${role}`;
    // Metadata is positive evidence only: `import type { State }` gives Function, unions give Object.
    if (role === "state" && definitelyNotState.has(type)) {
      return `parameter ${i + 1} (${entry.parameters[i]!.name}) is no longer typed State`;
    }
  }
  return undefined;
}

function sameRecord(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && a[k] === b[k]);
}

// The decorator's limits, left out when not given, so the Tool checks them (naming the tool) like any Tool's.
function limitsOf(options: ToolDecoration["options"]): Pick<ToolOptions, "timeoutMs" | "retries" | "maxResultChars" | "idempotent"> {
  const { timeoutMs, retries, maxResultChars, idempotent } = options;
  return { ...(timeoutMs !== undefined && { timeoutMs }), ...(retries !== undefined && { retries }), ...(maxResultChars !== undefined && { maxResultChars }), ...(idempotent !== undefined && { idempotent }) };
}
