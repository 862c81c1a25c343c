import type { GeneratedParameter } from "../src/tools/generatedEntry";
import type { JsonSchema } from "../src/tools/jsonSchema";

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
  /** `file:line:col` of the decorator or `defineTool` call, relative to the working directory. */
  readonly source: string;
  readonly name: string;
  readonly description: string;
  readonly parameters: readonly GeneratedParameter[];
  readonly schema: JsonSchema;
  readonly strict: boolean;
  readonly strictReason?: string;
  readonly dates: readonly string[];
  readonly options: {
    readonly inputsFromState: Readonly<Record<string, string>>;
    readonly outputsToState: Readonly<Record<string, { readonly source?: string }>>;
  };
}
