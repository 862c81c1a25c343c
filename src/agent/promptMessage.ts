import type { ChatMessage } from "../chat/chatMessage";
import { ConfigurationError } from "../errors";
import type { PromptTemplate } from "../prompt/isPromptTemplate";

/** The role each prompt option's message has. */
const roles = { systemPrompt: "system", userPrompt: "user" } as const;

/**
 * Checks a prompt template's `{% message %}` blocks when the Agent (or a run) is given it, as
 * Haystack main's `_validate_prompt_message_blocks` (haystack/components/agents/utils.py) does:
 * at most one block, and a literal role must be the prompt's own (`user` for userPrompt, `system`
 * for systemPrompt). A template without blocks is one message of that role, as Haystack's
 * `_template_for_role` wraps it.
 */
export function checkPromptBlocks(subject: string, name: "systemPrompt" | "userPrompt", template: PromptTemplate): void {
  const blocks = template.messageBlocks;
  const role = roles[name];
  if (blocks.length > 1) {
    throw new ConfigurationError(subject, `${subject} was given a ${name} template with ${blocks.length} {% message %} blocks (lines ${blocks.map((block) => block.line).join(", ")}); a ${name} is one ${role} message: keep one block, and pass other messages in the run's messages.`, { optionPath: [name] });
  }
  const literal = blocks[0]?.role;
  if (literal !== undefined && literal !== role) {
    throw new ConfigurationError(subject, `${subject} was given a ${name} template whose {% message %} block (line ${blocks[0]!.line}) has role '${literal}'; a ${name} is a ${role} message: write {% message role="${role}" %}.`, { optionPath: [name] });
  }
}

/**
 * Renders a prompt template with a `{% message %}` block to its one message, checked as Haystack
 * main's `_render_prompt_messages` checks it: exactly one message, of the prompt's role (a block
 * in a loop, or with its role from a variable, can make other counts and roles).
 */
export function promptMessage(subject: string, name: "systemPrompt" | "userPrompt", template: PromptTemplate, values: Readonly<Record<string, unknown>>): ChatMessage {
  const rendered = template.renderMessages(values);
  const role = roles[name];
  if (rendered.length !== 1) {
    throw new ConfigurationError(subject, `${subject} has a ${name} template that rendered ${rendered.length} messages; it must render exactly one ${role} message: make its {% message %} block run once.`, { optionPath: [name] });
  }
  if (rendered[0]!.role !== role) {
    throw new ConfigurationError(subject, `${subject} has a ${name} template that rendered ${article(rendered[0]!.role)} ${rendered[0]!.role} message; it must render a ${role} message: give its {% message %} block role="${role}".`, { optionPath: [name] });
  }
  return rendered[0]!;
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? "an" : "a";
}
