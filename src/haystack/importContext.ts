import { DefinitionError, definitionPath } from "../errors";
import type { YamlDefinition } from "../yaml/yamlDocument";
import type { HandWorkItem, HandWorkKind } from "./haystackImportTypes";

/** A path in the Haystack YAML. */
export type YamlPath = readonly (string | number)[];

/** The state of one conversion: where the YAML's parts are, the problems found and the hand work listed. */
export class ImportContext {
  /** Every reason the YAML is not a Haystack agent, located; the conversion throws them together. */
  readonly problems: DefinitionError[] = [];
  /** What needs hand work, located. */
  readonly handWork: HandWorkItem[] = [];

  constructor(
    private readonly yaml: YamlDefinition,
    private readonly file: string,
  ) {}

  /** Records that the YAML breaks the Agent's form at `path`. */
  problem(path: YamlPath, reason: string): void {
    this.problems.push(new DefinitionError(path, reason).at({ file: this.file, ...this.yaml.locate(path) }));
  }

  /** Records a part to be done by hand. */
  todo(path: YamlPath, kind: HandWorkKind, message: string): void {
    this.handWork.push({ path: definitionPath(path), ...this.yaml.locate(path), kind, message });
  }
}

/** A mapping's own entries, or undefined for anything else. */
export function asMapping(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The last part of a dotted Python path: `haystack.tools.tool.Tool` → `Tool`. */
export function shortName(dotted: string): string {
  return dotted.slice(dotted.lastIndexOf(".") + 1);
}
