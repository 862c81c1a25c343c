import type { Node, Type } from "ts-morph";
import type { JsonSchema } from "../../src/tools/jsonSchema";
import type { Diagnostics } from "../diagnostics";
import type { ToolwrightSymbols } from "../toolwrightSymbols";

/** Marks a schema node whose value the method receives as a `Date` (removed before emitting). */
export const dateMarker = Symbol("toolwright.date");

/** A schema node under construction; `dateMarker` flags Date values. */
export type SchemaNode = JsonSchema & { [dateMarker]?: true };

/** State of resolving the parameter types of one tool. */
export interface ResolveContext {
  readonly diagnostics: Diagnostics;
  readonly toolwright: ToolwrightSymbols;
  /** The parameter being resolved: where property types are read and, by default, where diagnostics point. */
  readonly anchor: Node;
  /** Where diagnostics point inside the parameter's type: the declaration of the property being resolved. */
  readonly reportAt?: Node;
  /** Definitions of recursive types, by name. */
  readonly defs: Map<string, SchemaNode>;
  /** Object types being resolved, outermost first, with the def name once one refers back. */
  readonly stack: Array<{ type: Type; defName?: string }>;
  /** Def names already given to types. */
  readonly defNames: Map<Type, string>;
}

/** The node a diagnostic about the type being resolved points at: the property's declaration, else the parameter. */
export function reportNode(ctx: ResolveContext): Node {
  return ctx.reportAt ?? ctx.anchor;
}
