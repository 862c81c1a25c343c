import { Node, type ObjectLiteralExpression } from "ts-morph";
import type { Diagnostics } from "./diagnostics";

/** The options codegen reads from `@tool({...})` or `defineTool(fn, {...})`. */
export interface ReadToolOptions {
  readonly name?: string;
  readonly description?: string;
  readonly inputsFromState: Record<string, string>;
  readonly outputsToState: Record<string, { source?: string }>;
  /** Nodes of the mapped parameter names, for diagnostics. */
  readonly inputNodes: Record<string, Node>;
  readonly outputNodes: Record<string, Node>;
}

/**
 * Reads the options codegen needs. Each must be a literal (handlers may be any expression);
 * anything else is a TW101 diagnostic naming the option and `label`.
 */
export function readToolOptions(argument: Node | undefined, label: string, diagnostics: Diagnostics): ReadToolOptions | undefined {
  const result: ReadToolOptions = { inputsFromState: {}, outputsToState: {}, inputNodes: {}, outputNodes: {} };
  if (!argument) return result;
  if (!Node.isObjectLiteralExpression(argument)) {
    diagnostics.at(argument, "TW101", `The options of ${label} must be an object literal written in place, so codegen can read them; move the values into @tool({ ... }).`);
    return undefined;
  }
  let ok = true;
  const fail = (node: Node, what: string) => {
    diagnostics.at(node, "TW101", `${what} of ${label} must be a literal, so codegen can read it; write the value in place.`);
    ok = false;
  };
  for (const [key, value] of properties(argument, label, diagnostics, () => (ok = false))) {
    if (key === "name" || key === "description") {
      const text = stringLiteral(value);
      if (text === undefined) fail(value, `The ${key} option`);
      else (result as { name?: string; description?: string })[key] = text;
    } else if (key === "inputsFromState") {
      if (!Node.isObjectLiteralExpression(value)) {
        fail(value, "inputsFromState");
        continue;
      }
      for (const [stateKey, parameter] of properties(value, label, diagnostics, () => (ok = false))) {
        const text = stringLiteral(parameter);
        if (text === undefined) fail(parameter, `inputsFromState.${stateKey}`);
        else {
          result.inputsFromState[stateKey] = text;
          result.inputNodes[stateKey] = parameter;
        }
      }
    } else if (key === "outputsToState") {
      if (!Node.isObjectLiteralExpression(value)) {
        fail(value, "outputsToState");
        continue;
      }
      for (const [stateKey, config] of properties(value, label, diagnostics, () => (ok = false))) {
        if (!Node.isObjectLiteralExpression(config)) {
          fail(config, `outputsToState.${stateKey}`);
          continue;
        }
        const entry: { source?: string } = {};
        for (const [option, optionValue] of properties(config, label, diagnostics, () => (ok = false))) {
          if (option !== "source") continue;
          const text = stringLiteral(optionValue);
          if (text === undefined) fail(optionValue, `outputsToState.${stateKey}.source`);
          else entry.source = text;
        }
        result.outputsToState[stateKey] = entry;
        result.outputNodes[stateKey] = config;
      }
    }
  }
  return ok ? result : undefined;
}

// The key/value pairs of an object literal; spreads, computed keys and methods are not literals.
function properties(object: ObjectLiteralExpression, label: string, diagnostics: Diagnostics, onError: () => void): Array<[string, Node]> {
  const pairs: Array<[string, Node]> = [];
  for (const property of object.getProperties()) {
    if (Node.isPropertyAssignment(property)) {
      const nameNode = property.getNameNode();
      if (Node.isComputedPropertyName(nameNode)) {
        diagnostics.at(property, "TW101", `A computed key in the options of ${label} cannot be read by codegen; write the key as a plain name or string.`);
        onError();
        continue;
      }
      pairs.push([Node.isStringLiteral(nameNode) || Node.isNumericLiteral(nameNode) ? String(nameNode.getLiteralValue()) : nameNode.getText(), property.getInitializerOrThrow()]);
    } else if (Node.isShorthandPropertyAssignment(property) || Node.isSpreadAssignment(property)) {
      const key = Node.isShorthandPropertyAssignment(property) ? property.getName() : "...";
      if (key === "handler") continue;
      diagnostics.at(property, "TW101", `'${property.getText()}' in the options of ${label} is not a literal codegen can read; write key: value in place.`);
      onError();
    }
  }
  return pairs;
}

function stringLiteral(node: Node): string | undefined {
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return node.getLiteralValue();
  return undefined;
}
