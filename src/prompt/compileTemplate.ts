import type { Program } from "@huggingface/jinja/dist/ast";
import { PromptTemplateError } from "../errors";
import { analyzeTemplate, type TemplatePlan } from "./analyzeTemplate";
import { jinja } from "./jinjaPackage";
import { lexTemplate, lineAt, TemplateLexError } from "./lexTemplate";
import { isRewrittenEnd, type MessageBlockTag, rewriteMessageBlocks } from "./messageBlocks";
import { formatCount } from "./renderErrors";
import { templateLimits } from "./templateLimits";

/** A template parsed and analysed, ready to render any number of times. */
export interface CompiledTemplate {
  readonly name: string;
  readonly program: Program;
  readonly plan: TemplatePlan;
  /** The template's `{% message %}` blocks as written; empty for a template that renders to text. */
  readonly blocks: readonly MessageBlockTag[];
  /** Whether it renders to messages: it has a `{% message %}` block or an `{% insert %}` tag. */
  readonly rendersMessages: boolean;
}

/**
 * Lexes (Jinja's default whitespace handling: no `trim_blocks`, no `lstrip_blocks`), parses with
 * `@huggingface/jinja`, and analyses a template. Throws a `PromptTemplateError` for a source over
 * `maxSourceLength`, a syntax error (with its line), or what the analysis rejects.
 */
export function compileTemplate(source: string, name: string): CompiledTemplate {
  if (source.length > templateLimits.maxSourceLength) {
    throw new PromptTemplateError(name, `${name} template is ${formatCount(source.length)} characters long, more than the limit of ${formatCount(templateLimits.maxSourceLength)}: shorten it, or pass long text as a variable.`);
  }
  let lexed;
  try {
    lexed = lexTemplate(source);
  } catch (error) {
    if (error instanceof TemplateLexError) throw syntaxError(name, error.line, error.message, error);
    throw error;
  }
  const rewritten = rewriteMessageBlocks(lexed, name);
  lexed = rewritten.lexed;
  // The parser reports no positions; the furthest token it read is where it stopped.
  let furthest = 0;
  const tokens = new Proxy(lexed.tokens, {
    get(target, key, receiver) {
      if (typeof key === "string") {
        const index = Number(key);
        if (Number.isInteger(index) && index > furthest) furthest = index;
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  let program: Program;
  try {
    program = jinja().parse(tokens as unknown as Parameters<ReturnType<typeof jinja>["parse"]>[0]);
  } catch (error) {
    if (isStackOverflow(error)) {
      throw new PromptTemplateError(name, `${name} template nests blocks and expressions more than ${templateLimits.maxSyntaxDepth} levels deep, the limit: split it into smaller expressions (a {% set %} for a part) and blocks.`, { cause: error });
    }
    if (furthest >= lexed.tokens.length) {
      const last = lineAt(lexed.source, lexed.source.length);
      throw new PromptTemplateError(name, `${name} template ends (on line ${last}) inside a block or an expression: close every {% if %}, {% for %}, {% macro %}, {{ and bracket it opens.`, { cause: error });
    }
    const line = lineAt(lexed.source, lexed.offsets[furthest] ?? lexed.source.length);
    if (isRewrittenEnd(lexed.tokens[furthest])) {
      throw new PromptTemplateError(name, `${name} template has {% endmessage %} on line ${line} inside a block its {% message %} block opened ({% if %}, {% for %}, …): close that block before {% endmessage %}.`, { cause: error });
    }
    throw syntaxError(name, line, error instanceof Error ? error.message : String(error), error);
  }
  const plan = analyzeTemplate(program, name);
  const rendersMessages = rewritten.blocks.length + rewritten.inserts > 0;
  if (plan.templatizesParts && rewritten.blocks.length === 0) {
    throw new PromptTemplateError(name, `${name} template uses templatize_part but has no {% message %} block: a part belongs to a message; write the template as {% message role="user" %}…{{ image | templatize_part }}…{% endmessage %}.`);
  }
  return { name, program, plan, blocks: rewritten.blocks, rendersMessages };
}

function syntaxError(name: string, line: number, message: string, cause: unknown): PromptTemplateError {
  return new PromptTemplateError(name, `${name} template has a syntax error on line ${line}: ${message.replace(/\.$/, "")}; fix the template's Jinja syntax.`, { cause });
}

function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError || (error instanceof Error && error.name === "RangeError");
}
