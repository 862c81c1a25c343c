import type { GeneratedParameter } from "../src/tools/generatedEntry";
import type { JsonSchema } from "../src/tools/jsonSchema";
import type { ToolAnnotations } from "../src/tools/toolAnnotations";
import type { PrintedParameters } from "./typeResolver/printType";

/** Everything codegen knows about one tool: the shared model every stage fills in. */
export interface ToolModel {
  readonly kind: "method" | "function";
  /** The class name (methods) or the exported const name (functions). */
  readonly ownerName: string;
  /** The method or function name. */
  readonly member: string;
  readonly isStatic: boolean;
  /** The file that declares the owner (absolute). */
  readonly file: string;
  /**
   * The file that declares the tool, relative to the working directory. No line and column: moving
   * a tool within its file must not make the generated module stale (diagnostics keep them).
   */
  readonly source: string;
  /** `ToolSignature.hash` of the parameter list and return type as written, when the runtime's scanner finds it again (see `toolSignature`). */
  readonly signature?: string;
  readonly name: string;
  readonly description: string;
  readonly parameters: readonly GeneratedParameter[];
  /** Every parameter with a type the generated module can write, for its check that the method still accepts them. */
  readonly parameterTypes: PrintedParameters;
  readonly schema: JsonSchema;
  readonly strict: boolean;
  readonly strictReason?: string;
  readonly dates: readonly string[];
  /** The JSON Schema of the declared return type (see `returnSchema`); undefined when it has none. */
  readonly outputSchema?: JsonSchema;
  /** `"media"` when the tool returns images or files (see `resultKind`): the runtime sends them as parts. */
  readonly resultKind?: "media";
  /** JSDoc `@title`. */
  readonly title?: string;
  /** JSDoc annotation hints (`@readOnlyHint`, …). */
  readonly annotations?: ToolAnnotations;
  readonly options: {
    readonly inputsFromState: Readonly<Record<string, string>>;
    readonly outputsToState: Readonly<Record<string, { readonly source?: string }>>;
  };
}
