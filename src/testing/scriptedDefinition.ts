import { ChatMessage } from "../chat/chatMessage";
import { ConfigurationError, DefinitionError } from "../errors";
import { describeKind } from "../util/describeValue";
import { isPlainObject } from "../util/isPlainObject";
import { ScriptedChatGenerator } from "./scriptedChatGenerator";

type Path = readonly (string | number)[];

const example = 'script: [{ role: "assistant", content: [{ text: "Hello." }] }]';

/**
 * Builds a `ScriptedChatGenerator` from the options of its definition (what `toJSON()` wrote, found
 * at `path`), which are untrusted: `{ script }`, an array with one entry per model call, each a
 * message's JSON (`ChatMessage.toJSON()`, Haystack's dict shape) or an array of them. Throws
 * DefinitionError at the path of the first problem.
 *
 * @example
 * const model = scriptedChatGeneratorFromDefinition({ script: [ChatMessage.fromAssistant("Hi.").toJSON()] }, ["chatGenerator", "options"]);
 */
export function scriptedChatGeneratorFromDefinition(options: unknown, path: Path): ScriptedChatGenerator {
  if (!isPlainObject(options)) throw new DefinitionError(path, `must be an object of ScriptedChatGenerator options, e.g. { ${example} }, got ${describeKind(options)}.`);
  for (const key of Object.keys(options)) {
    if (key !== "script") throw new DefinitionError([...path, key], "is not an option of ScriptedChatGenerator; its one option is script.");
  }
  const at = [...path, "script"];
  if (!Object.hasOwn(options, "script")) throw new DefinitionError(at, `is missing; give the replies, one entry per model call, e.g. ${example}.`);
  const script = options.script;
  if (!Array.isArray(script)) throw new DefinitionError(at, `must be an array with one entry per model call, each a ChatMessage JSON object or an array of them, e.g. ${example}, got ${describeKind(script)}.`);
  const entries: Array<ChatMessage | ChatMessage[]> = [];
  for (let i = 0; i < script.length; i++) {
    const entry: unknown = script[i];
    if (!Array.isArray(entry)) {
      entries.push(messageFromJSON(entry, [...at, i]));
      continue;
    }
    const replies: ChatMessage[] = [];
    for (let j = 0; j < entry.length; j++) replies.push(messageFromJSON(entry[j], [...at, i, j]));
    entries.push(replies);
  }
  return new ScriptedChatGenerator(entries);
}

function messageFromJSON(json: unknown, at: Path): ChatMessage {
  try {
    return ChatMessage.fromJSON(json);
  } catch (error) {
    if (error instanceof ConfigurationError) throw new DefinitionError(at, error.message, { cause: error });
    throw error;
  }
}
