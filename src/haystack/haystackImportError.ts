import { ConfigurationError, type DefinitionError } from "../errors";

/**
 * A YAML `importHaystackAgent` cannot convert: not a Haystack Agent (or a pipeline holding one), or
 * an Agent whose parts break the form Haystack's `to_dict` writes. Lists every problem found, each
 * a `DefinitionError` located in the file, not only the first.
 */
export class HaystackImportError extends ConfigurationError {
  /** Every problem, in the order found. */
  readonly problems: readonly DefinitionError[];

  constructor(file: string, problems: readonly DefinitionError[]) {
    const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
    super(file, `${file} is not a Haystack Agent YAML that can be converted (${count}):\n${problems.map((problem) => `  ${problem.message}`).join("\n")}`);
    this.problems = Object.freeze([...problems]);
  }
}
