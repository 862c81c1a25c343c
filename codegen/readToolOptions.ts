import { Node, type ObjectLiteralExpression } from "ts-morph";
import type { Diagnostics } from "./diagnostics";

/** The options codegen reads from `@tool({...})` or `defineTool(fn, {...})`. */
export interface ReadToolOptions {
  readonly name?: string;
  readonly description?: string;
  /** The node of the `name` value, for diagnostics. */
  readonly nameNode?: Node;
  readonly inputsFromState: Record<string, string>;
  readonly outputsToState: Record<string, { source?: string }>;
  /** Nodes of the mapped parameter names, for diagnostics. */
  readonly inputNodes: Record<string, Node>;
  /** Nodes of the `source` values (or of the whole entry when it has none), for diagnostics. */
  readonly outputNodes: Record<string, Node>;
}

// The keys whose values codegen reads; `handler`, `outputsToString` and other keys may be any expression.
const readTopLevel = new Set(["name", "description", "inputsFromState", "outputsToState"]);
const readAll = () => true;

/**
 * Reads the options codegen needs. Each must be a literal (handlers may be any expression);
 * anything else is a TW101 diagnostic naming the option and `label`. `kind` picks the fix text
 * (`@tool({ ... })` or `defineTool(fn, { ... })`).
 */
export function readToolOptions(argument: Node | undefined, label: string, diagnostics: Diagnostics, kind: "method" | "function" = "method"): ReadToolOptions | undefined {
  const result: ReadToolOptions = { inputsFromState: {}, outputsToState: {}, inputNodes: {}, outputNodes: {} };
  if (!argument) return result;
  if (!Node.isObjectLiteralExpression(argument)) {
    const written = kind === "method" ? "@tool({ ... })" : "defineTool(fn, { ... })";
    diagnostics.at(argument, "TW101", `The options of ${label} must be an object literal written in place, so codegen can read them; move the values into ${written}.`);
    return undefined;
  }
  let ok = true;
  const onError = () => (ok = false);
  const fail = (node: Node, what: string, literal: "string" | "object") => {
    diagnostics.at(node, "TW101", `${what} of ${label} must be ${literal === "string" ? "a string" : "an object"} literal, so codegen can read it; write the ${literal} in place.`);
    ok = false;
  };
  for (const [key, value] of properties(argument, label, diagnostics, onError, (k) => readTopLevel.has(k))) {
    if (key === "name" || key === "description") {
      const text = stringLiteral(value);
      if (text === undefined) fail(value, `The ${key} option`, "string");
      else {
        (result as { name?: string; description?: string })[key] = text;
        if (key === "name") (result as { nameNode?: Node }).nameNode = value;
      }
    } else if (key === "inputsFromState") {
      if (!Node.isObjectLiteralExpression(value)) {
        fail(value, "inputsFromState", "object");
        continue;
      }
      for (const [stateKey, parameter] of properties(value, label, diagnostics, onError, readAll)) {
        const text = stringLiteral(parameter);
        if (text === undefined) fail(parameter, `inputsFromState.${stateKey}`, "string");
        else {
          result.inputsFromState[stateKey] = text;
          result.inputNodes[stateKey] = parameter;
        }
      }
    } else if (key === "outputsToState") {
      if (!Node.isObjectLiteralExpression(value)) {
        fail(value, "outputsToState", "object");
        continue;
      }
      for (const [stateKey, config] of properties(value, label, diagnostics, onError, readAll)) {
        if (!Node.isObjectLiteralExpression(config)) {
          fail(config, `outputsToState.${stateKey}`, "object");
          continue;
        }
        const entry: { source?: string } = {};
        let node: Node = config;
        for (const [option, optionValue] of properties(config, label, diagnostics, onError, (k) => k === "source")) {
          if (option !== "source") continue;
          const text = stringLiteral(optionValue);
          if (text === undefined) fail(optionValue, `outputsToState.${stateKey}.source`, "string");
          else {
            entry.source = text;
            node = optionValue;
          }
        }
        result.outputsToState[stateKey] = entry;
        result.outputNodes[stateKey] = node;
      }
    }
  }
  return ok ? result : undefined;
}

// The key/value pairs of an object literal. Spreads and computed keys hide keys codegen needs;
// a shorthand hides the value of a key codegen reads (`reads`), and is fine for any other key.
function properties(object: ObjectLiteralExpression, label: string, diagnostics: Diagnostics, onError: () => void, reads: (key: string) => boolean): Array<[string, Node]> {
  const pairs: Array<[string, Node]> = [];
  for (const property of object.getProperties()) {
    if (Node.isPropertyAssignment(property)) {
      const nameNode = property.getNameNode();
      if (Node.isComputedPropertyName(nameNode)) {
        diagnostics.at(property, "TW101", `The computed key ${nameNode.getText()} in the options of ${label} cannot be read by codegen; write the key as a plain name or string.`);
        onError();
        continue;
      }
      pairs.push([Node.isStringLiteral(nameNode) || Node.isNumericLiteral(nameNode) ? String(nameNode.getLiteralValue()) : nameNode.getText(), property.getInitializerOrThrow()]);
    } else if (Node.isSpreadAssignment(property)) {
      diagnostics.at(property, "TW101", `The spread '${property.getText()}' in the options of ${label} hides its keys from codegen; write each key: value in place.`);
      onError();
    } else if (Node.isShorthandPropertyAssignment(property) && reads(property.getName())) {
      const key = property.getName();
      diagnostics.at(property, "TW101", `The shorthand '${key}' in the options of ${label} hides its value from codegen; write ${key}: <value> in place.`);
      onError();
    }
  }
  return pairs;
}

function stringLiteral(node: Node): string | undefined {
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return node.getLiteralValue();
  return undefined;
}
