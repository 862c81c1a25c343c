import { ConfigurationError, DefinitionError } from "../errors";
import { describeKind } from "../util/describeValue";
import { isPlainObject } from "../util/isPlainObject";
import type { ChatGenerator } from "./chatGenerator";
import type { ChatGeneratorTypeContext } from "./chatGeneratorTypes";
import { checkGeneratorList, FallbackChatGenerator } from "./fallbackChatGenerator";

type Path = readonly (string | number)[];

const example = "{ generators: [{ type: OpenAIChatGenerator, options: { model: gpt-4o-mini } }, { type: OpenAIResponsesChatGenerator, options: { model: gpt-4o } }] }";

/**
 * Builds a `FallbackChatGenerator` from the options of its definition (untrusted, found at `path`):
 * `{ generators: [{ type, options? }, …] }`, each inner generator read by `context.resolve` as the
 * definition's own generator is (registry, registered types, trust rules), at
 * `path.generators[i]`. `shouldFallBack` is code only: the generator uses the default policy.
 * Throws DefinitionError at the path of the first problem, the constructor's included.
 */
export function fallbackChatGeneratorFromDefinition(options: unknown, path: Path, context: ChatGeneratorTypeContext): FallbackChatGenerator {
  const list = generatorList(options, path);
  const generators: ChatGenerator[] = list.map((definition, i) => context.resolve(definition, [...path, "generators", i]));
  return located(path, () => new FallbackChatGenerator({ generators }));
}

/** Checks a `FallbackChatGenerator` definition's options and its inner generators (`context.check`) without building them. */
export function checkFallbackChatGeneratorDefinition(options: unknown, path: Path, context: ChatGeneratorTypeContext): void {
  for (const [i, definition] of generatorList(options, path).entries()) context.check(definition, [...path, "generators", i]);
}

function generatorList(options: unknown, path: Path): readonly unknown[] {
  if (!isPlainObject(options)) throw new DefinitionError(path, `must be an object of FallbackChatGenerator options, e.g. ${example}, got ${describeKind(options)}.`);
  for (const key of Object.keys(options)) {
    if (key === "shouldFallBack") {
      throw new DefinitionError([...path, key], "is code only (a function), which a definition cannot hold: the default policy (isTransientFailure) is used; for your own, build the FallbackChatGenerator in code and register it in registry.chatGenerators.");
    }
    if (key !== "generators") throw new DefinitionError([...path, key], "is not an option of FallbackChatGenerator; its one option in a definition is generators.");
  }
  const generators = options.generators;
  located(path, () => checkGeneratorList(generators));
  return generators as readonly unknown[];
}

// The constructor's checks, located at the option they are about.
function located<T>(path: Path, construct: () => T): T {
  try {
    return construct();
  } catch (error) {
    if (!(error instanceof ConfigurationError) || error instanceof DefinitionError) throw error;
    throw new DefinitionError([...path, ...(error.optionPath ?? [])], error.message, { cause: error });
  }
}
