import { isMap, isScalar, isSeq, type Scalar, type YAMLMap, type YAMLSeq } from "yaml";

const corePrefix = "tag:yaml.org,2002:";

// The core schema's tags and what a value carrying one must be.
const coreTags: Readonly<Record<string, { readonly fits: (node: Scalar | YAMLMap | YAMLSeq) => boolean; readonly what: string }>> = {
  str: { fits: (node) => isScalar(node) && typeof node.value === "string", what: "a string" },
  int: { fits: (node) => isScalar(node) && Number.isInteger(node.value), what: "an integer" },
  float: { fits: (node) => isScalar(node) && typeof node.value === "number", what: "a number" },
  bool: { fits: (node) => isScalar(node) && typeof node.value === "boolean", what: "true or false" },
  null: { fits: (node) => isScalar(node) && node.value === null, what: "null" },
  map: { fits: (node) => isMap(node), what: "a mapping" },
  seq: { fits: (node) => isSeq(node), what: "a sequence" },
};

const coreTagList = Object.keys(coreTags).map((name) => `!!${name}`).join(", ");

/**
 * Why a node's explicit tag is refused, or `undefined` when it has none or a core tag that fits.
 * A definition is plain data: `!!js/function`, `!!binary`, `!!set`, `!custom` and every other
 * tag would ask for a value JSON cannot hold, so only the YAML 1.2 core tags are read.
 */
export function yamlTagProblem(node: Scalar | YAMLMap | YAMLSeq, excerpt: string): string | undefined {
  const tag = node.tag;
  if (tag === undefined) return undefined;
  const core = tag.startsWith(corePrefix) ? coreTags[tag.slice(corePrefix.length)] : undefined;
  if (!core) return `has the tag ${tagAsWritten(tag)}; a definition is plain data, so only the core tags (${coreTagList}) are read: remove the tag.`;
  if (core.fits(node)) return undefined;
  const found = isScalar(node) ? (excerpt === "" ? "the empty value" : `'${excerpt}'`) : isMap(node) ? "a mapping" : "a sequence";
  return `has the tag ${tagAsWritten(tag)}, but ${found} is not ${core.what}; remove the tag or change the value.`;
}

/** A resolved tag in YAML's short forms: `!!binary` for the YAML tags, `!name` local, `!<uri>` otherwise. */
function tagAsWritten(tag: string): string {
  if (tag.startsWith(corePrefix)) return `!!${tag.slice(corePrefix.length)}`;
  return tag.startsWith("!") ? tag : `!<${tag}>`;
}
