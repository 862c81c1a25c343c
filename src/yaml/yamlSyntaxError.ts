import type { YAMLError } from "yaml";
import type { DefinitionError } from "../errors";
import { depthLimitReason } from "./yamlLimits";
import type { YamlSource } from "./yamlSource";

/**
 * A parser error or warning of the `yaml` package as a `DefinitionError` for the whole
 * definition, at the line and column the parser reported: its message and a fix.
 */
export function yamlSyntaxError(error: YAMLError, source: YamlSource): DefinitionError {
  return source.error([], syntaxReason(error), error.pos[0]);
}

function syntaxReason(error: YAMLError): string {
  const message = error.message.replace(/\.$/, "");
  switch (error.code) {
    case "MULTIPLE_DOCS":
      return "holds a second YAML document here; a definition file holds one document, so remove this one (from this line on) or move it to a file of its own.";
    case "RESOURCE_EXHAUSTION":
      return depthLimitReason;
    case "TAB_AS_INDENT":
      return `is not valid YAML: ${message}; indent with spaces.`;
    case "BAD_DIRECTIVE":
      return `has a directive the YAML parser does not read: ${message}; remove the directive line.`;
    default:
      return `is not valid YAML: ${message}; fix the YAML at this line and column.`;
  }
}
