// toolwright/yaml: agent definitions in YAML files. Needs the `yaml` package (an optional peer dependency).
export { loadAgent, parseAgent } from "./loadAgent";
export { agentToYaml } from "./agentToYaml";
