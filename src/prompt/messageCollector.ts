import { randomBytes } from "node:crypto";
import { ChatMessage, type ChatRole, type ContentInput } from "../chat/chatMessage";
import { PromptTemplateError } from "../errors";
import { FileContent } from "../media/fileContent";
import { ImageContent } from "../media/imageContent";
import { messageRoles } from "./messageBlocks";
import { pythonStrip } from "./pythonStrip";

/** The attributes of one `{% message %}` block, evaluated. */
export interface MessageAttributes {
  readonly role: unknown;
  readonly name: string | undefined;
  readonly meta: Record<string, unknown>;
  /** The block's line, for errors. */
  readonly line: number;
}

// A marker's form, compiled once (a pattern per render's nonce cost a regex compilation each
// render); a match holding another nonce is a value's own text, never a marker of this render.
const markerPattern = /\u0000([0-9a-f]{32}):(m|p)(\d+)\u0000/g;

/**
 * The messages and content parts one render of a message template makes. A block's or a part's
 * place in the output is a marker holding a nonce drawn for this render, as Haystack's
 * `ChatMessageExtension` marks parts with a nonce per environment: a variable's value cannot know
 * it, so no value can open, close or forge a block or a part (Haystack also escapes sentinel-like
 * text in values; here the text stays as it was, since it can never match).
 */
export class MessageCollector {
  readonly #nonce: string;
  readonly #messages: ChatMessage[] = [];
  readonly #parts: (ImageContent | FileContent)[] = [];

  constructor(private readonly template: string) {
    this.#nonce = randomBytes(16).toString("hex");
  }

  /** This render's markers in `text`, each with its kind (m or p) and index. */
  *#markers(text: string): Generator<{ readonly kind: string; readonly index: number; readonly at: number; readonly length: number }> {
    for (const match of text.matchAll(markerPattern)) {
      if (match[1] === this.#nonce) yield { kind: match[2]!, index: Number(match[3]), at: match.index, length: match[0].length };
    }
  }

  /** Records a `templatize_part` value (an image's or a file's JSON form) and returns its marker. */
  part(json: unknown): string {
    const media = mediaOf(json);
    if (media === undefined) {
      throw this.error(`passed a value to templatize_part that is not an image or a file: toolwright's templates make ImageContent and FileContent parts only (give the variable an ImageContent or FileContent); tool calls, tool results and reasoning have no template form`);
    }
    this.#parts.push(media);
    return `\u0000${this.#nonce}:p${this.#parts.length - 1}\u0000`;
  }

  /**
   * Builds the message of a block from its rendered body, as Haystack's
   * `_build_chat_message_json` does (text between parts stripped, empty text dropped, the roles'
   * rules of `_validate_build_chat_message`), and returns its marker.
   */
  message(body: string, attributes: MessageAttributes): string {
    const { line } = attributes;
    const at = `the {% message %} block on line ${line}`;
    if (typeof attributes.role !== "string" || !messageRoles.includes(attributes.role)) {
      throw this.error(`has ${at} whose role is ${JSON.stringify(attributes.role) ?? String(attributes.role)}: the role must be one of ${messageRoles.join(", ")}`);
    }
    const role = attributes.role as ChatRole;
    if (pythonStrip(body) === "") throw this.error(`has ${at} whose content is empty or only whitespace: give the message some text`);
    const parts: ContentInput[] = [];
    let cursor = 0;
    for (const marker of this.#markers(body)) {
      if (marker.kind === "m") throw this.error(`has ${at} with a message inside it (from a macro or a {% set %} block): message blocks do not nest; render each message at the top level`);
      const text = pythonStrip(body.slice(cursor, marker.at));
      if (text !== "") parts.push(text);
      parts.push(this.#parts[marker.index]!);
      cursor = marker.at + marker.length;
    }
    const rest = pythonStrip(body.slice(cursor));
    if (rest !== "") parts.push(rest);
    const options = { meta: attributes.meta, ...(attributes.name === undefined ? {} : { name: attributes.name }) };
    const texts = parts.filter((part): part is string => typeof part === "string");
    if (role !== "user" && texts.length < parts.length) {
      throw this.error(`has ${at} with role ${role} holding an image or a file: only user messages hold them`);
    }
    switch (role) {
      case "user":
        this.#messages.push(parts.length === 1 && texts.length === 1 ? ChatMessage.fromUser(texts[0]!, options) : ChatMessage.fromUser(parts, options));
        break;
      case "system":
      case "assistant":
        // Without parts the body is one text; Haystack's rule (one text part) holds by construction.
        this.#messages.push(role === "system" ? ChatMessage.fromSystem(texts[0]!, options) : ChatMessage.fromAssistant(texts[0]!, options));
        break;
      case "tool":
        throw this.error(`has ${at} with role tool: a tool message holds a tool call's result, which toolwright's templates cannot make (Haystack makes it with templatize_part); pass tool messages in the run's messages instead`);
    }
    return `\u0000${this.#nonce}:m${this.#messages.length - 1}\u0000`;
  }

  /**
   * Records the messages of Haystack main's `{% insert expression %}` (`_build_inserted_messages_json`)
   * and returns their markers: a ChatMessage (its template form) or a list of them; nothing for
   * an empty list or none.
   */
  insert(value: unknown): string {
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return "";
    const items = Array.isArray(value) ? value : [value];
    let markers = "";
    for (const item of items) {
      const message = messageOf(item);
      if (message === undefined) {
        throw this.error(`has an {% insert %} whose expression is not a ChatMessage or a list of ChatMessages (${Array.isArray(value) ? "an item is " : ""}${describeJson(item)}): insert the run's messages, such as {% insert messages %} or {% insert messages[-1:] %}`);
      }
      this.#messages.push(message);
      markers += `\u0000${this.#nonce}:m${this.#messages.length - 1}\u0000`;
    }
    return markers;
  }

  /**
   * The messages of a rendered output, in order. As Haystack's `ChatPromptBuilder`, which reads
   * the output line by line as message JSON, anything but whitespace outside the blocks is an
   * error; a part outside every block is too.
   */
  messages(output: string): ChatMessage[] {
    const messages: ChatMessage[] = [];
    let cursor = 0;
    const outside = (text: string): void => {
      const stray = pythonStrip(text.replace(markerPattern, (marker, nonce) => (nonce === this.#nonce ? "" : marker)));
      if (stray !== "") throw this.error(`has text outside its {% message %} blocks ('${stray.length > 40 ? `${stray.slice(0, 40)}…` : stray}'): put all text inside a block`);
      if (text.includes(`\u0000${this.#nonce}:p`)) throw this.error(`uses templatize_part outside its {% message %} blocks: move it into the message that holds the part`);
    };
    for (const marker of this.#markers(output)) {
      if (marker.kind === "p") continue;
      outside(output.slice(cursor, marker.at));
      messages.push(this.#messages[marker.index]!);
      cursor = marker.at + marker.length;
    }
    outside(output.slice(cursor));
    return messages;
  }

  private error(problem: string): PromptTemplateError {
    return new PromptTemplateError(this.template, `${this.template} template ${problem}.`);
  }
}

// An image's or a file's JSON form (what a template sees of an ImageContent or a FileContent).
function mediaOf(json: unknown): ImageContent | FileContent | undefined {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  const fields = json as Record<string, unknown>;
  if ("base64_image" in fields || ("url" in fields && "detail" in fields)) return ImageContent.fromJSON(fields, "templatize_part");
  if ("base64_data" in fields || ("url" in fields && "filename" in fields)) return FileContent.fromJSON(fields, "templatize_part");
  return undefined;
}

// A ChatMessage's template form (its toJSON() plus `text` and `role`) back as a message.
function messageOf(json: unknown): ChatMessage | undefined {
  if (typeof json !== "object" || json === null || Array.isArray(json) || !("content" in json) || !("role" in json)) return undefined;
  const { text: _text, ...form } = json as Record<string, unknown>;
  try {
    return ChatMessage.fromJSON(form);
  } catch {
    return undefined;
  }
}

function describeJson(value: unknown): string {
  if (value === null) return "None";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return `${typeof value === "string" ? "the string" : typeof value === "number" ? "the number" : "the value"} ${JSON.stringify(value).slice(0, 40)}`;
}
