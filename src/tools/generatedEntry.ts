import type { JsonSchema } from "./jsonSchema";
import type { ToolAnnotations } from "./toolAnnotations";

/** How one parameter of a decorated method is filled, as `toolwright codegen` classified it. */
export interface GeneratedParameter {
  readonly name: string;
  /** `llm`: from the model's arguments; `state`: the live State; `stateKey`: a state value. */
  readonly role: "llm" | "state" | "stateKey";
  /** The state key, for `stateKey` parameters. */
  readonly stateKey?: string;
  /** True when the parameter has `?` or a default. */
  readonly optional: boolean;
  /** The literal default, when the parameter has one. */
  readonly default?: unknown;
  /**
   * For `stateKey` parameters: the JSON Schema of the parameter's type, so that the Agent can check
   * the state key's type against it (`new Agent`) and the injected value (each call).
   */
  readonly schema?: JsonSchema;
}

/** One tool as the generated module describes it. Written by `toolwright codegen`; do not write by hand. */
export interface GeneratedToolEntry {
  /** A decorated method, or a function made a tool with `defineTool`. */
  readonly kind: "method" | "function";
  /** The class (for methods) or the `defineTool` result (for functions), read lazily. */
  readonly owner: () => unknown;
  /** The method's or function's name in the source. */
  readonly member: string;
  /** True for a static method. */
  readonly static: boolean;
  /** The tool name the model sees. */
  readonly name: string;
  readonly description: string;
  /** Every parameter, in order. */
  readonly parameters: readonly GeneratedParameter[];
  /** The JSON Schema of the `llm` parameters. */
  readonly schema: JsonSchema;
  /** Whether the schema is strict-compatible, and why not. */
  readonly strict: boolean;
  readonly strictReason?: string;
  /** JSON Pointers into `schema` of values the method receives as `Date`s. */
  readonly dates?: readonly string[];
  /**
   * The JSON Schema of the (awaited) declared return type; left out for `void`, `any`, `unknown`
   * and types with no JSON form. Objects in it are open: a method may return more than its type names.
   */
  readonly outputSchema?: JsonSchema;
  /**
   * `"media"` when the declared return type is an `ImageContent`, a `FileContent` or an array of
   * `string | ImageContent | FileContent`: the runtime sends the result as a tool message with
   * parts (it decides by the value, so this records what the type promises). Left out otherwise.
   */
  readonly resultKind?: "media";
  /** From the JSDoc tag `@title`. */
  readonly title?: string;
  /** From the JSDoc tags `@readOnlyHint`, `@destructiveHint`, `@idempotentHint`, `@openWorldHint`. */
  readonly annotations?: ToolAnnotations;
  /** The decorator options codegen read, to detect a module generated before they changed. */
  readonly options: {
    readonly inputsFromState: Readonly<Record<string, string>>;
    readonly outputsToState: Readonly<Record<string, { readonly source?: string }>>;
  };
  /**
   * A hash of the parameter list and return type as the source writes them (`toolSignature`): where
   * the source file is readable, the runtime hashes it again and throws `StaleSchemaError` when it
   * differs, which catches a changed type that type-stripping runners (tsx, SWC) never check.
   */
  readonly signature?: string;
  /** The file the tool is declared in (`src/tools/support.ts`); without line and column, so moving a tool does not make the module stale (the runtime finds them in the source: `toolLocation`). */
  readonly source: string;
}

/** What the generated module says about itself when it registers. */
export interface GeneratedModuleInfo {
  /** The generated file, relative to the project: `src/tools.generated.ts`. */
  readonly module: string;
  /** The command that regenerates it. */
  readonly command: string;
}
