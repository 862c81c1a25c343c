import type * as Jinja from "@huggingface/jinja";

/** The `@huggingface/jinja` module. */
export type JinjaPackage = typeof Jinja;

let loaded: JinjaPackage | undefined;

/**
 * `@huggingface/jinja`, required the first time a template compiles: importing toolwright does not
 * load it, and an app without prompt templates never does.
 */
export function jinja(): JinjaPackage {
  return (loaded ??= require("@huggingface/jinja") as JinjaPackage);
}
