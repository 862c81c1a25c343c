import { ConfigurationError } from "../errors";
import type { Tool } from "../tools/tool";
import type { InputsFromState, OutputsToState, OutputsToString } from "../tools/toolOutputs";
import { describeKind } from "../util/describeValue";
import type { McpConfirm } from "./mcpConfirmationPolicy";
import type { McpLogMessage, McpWarning } from "./mcpNotices";

/** Per-tool options of an MCP tool, as for a native one. */
export interface McpToolOptions {
  /** state key → argument name: filled from state and hidden from the model, like a native tool's. */
  inputsFromState?: InputsFromState;
  outputsToState?: OutputsToState;
  outputsToString?: OutputsToString;
}

/** Options of `McpToolset.connect`. */
export interface McpToolsetOptions {
  /** The toolset's name in messages. Default: the name the server gives itself. */
  name?: string;
  /** Only these tools (the server's names). */
  include?: readonly string[];
  /** All tools but these (the server's names). */
  exclude?: readonly string[];
  /** Put before every tool name the model sees, to keep two servers' tools apart (e.g. `"fs_"`). */
  prefix?: string;
  /**
   * How long a call may go without an answer or a progress notification before it fails (and the
   * server is told to cancel it). Each progress notification starts it again. Default 60000 ms.
   */
  timeoutMs?: number;
  /** How long a call may take in all, however much progress it reports. Default 600000 ms (10 minutes). */
  maxTotalTimeoutMs?: number;
  /**
   * The most characters of a result the model gets (after binary data is described); a longer one
   * is cut, with a notice naming the tool, its size and this option. Default 100000.
   */
  maxResultChars?: number;
  /**
   * Run this server's calls one at a time, in the order the model made them, even when the Agent
   * runs a step's calls at once: for servers that are not safe under concurrent calls (the memory
   * server loses writes). Default false.
   */
  sequential?: boolean;
  /** Which calls `toolset.confirmationPolicy` asks about: `"destructive"` (default), `"writes"` or `"all"`. */
  confirm?: McpConfirm;
  /** Options of single tools, by the server's name. */
  tools?: Readonly<Record<string, McpToolOptions>>;
  /** Told when the tools were read again (the server said they changed, or it came back after a drop), or why reading them failed. */
  onToolsChanged?: (change: { readonly tools: readonly Tool[]; readonly error?: undefined } | { readonly error: Error }) => void;
  /** Receives the server's log messages. Default: the debug channel (`NODE_DEBUG=toolwright-mcp`). */
  onLog?: (message: McpLogMessage) => void;
  /** Told when a tool is left out (runs only as a task, name clash, unusable), once per tool. Default: the debug channel. */
  onWarning?: (warning: McpWarning) => void;
}

const known = ["name", "include", "exclude", "prefix", "timeoutMs", "maxTotalTimeoutMs", "maxResultChars", "sequential", "confirm", "tools", "onToolsChanged", "onLog", "onWarning"];

/** Checks `McpToolset.connect`'s options before anything starts; a misspelt option is an error, not ignored. */
export function checkOptions(options: unknown, subject: string): void {
  if (typeof options !== "object" || options === null) throw new ConfigurationError(subject, `${subject} needs an options object, got ${describeKind(options)}.`);
  const value = options as McpToolsetOptions;
  const unknownOption = Object.keys(value).find((key) => !known.includes(key));
  if (unknownOption !== undefined) throw new ConfigurationError(subject, `${subject} has unknown option '${unknownOption}'; the options are ${known.slice(0, -1).join(", ")} and ${known.at(-1)}.`);
  if (value.name !== undefined && (typeof value.name !== "string" || value.name === "")) {
    throw new ConfigurationError(subject, `${subject} has a name that is not a non-empty string, got ${describeKind(value.name)}.`);
  }
  for (const key of ["include", "exclude"] as const) {
    const list: unknown = value[key];
    if (list !== undefined && (!Array.isArray(list) || list.some((item) => typeof item !== "string"))) {
      throw new ConfigurationError(subject, `${subject} has ${key} that is not an array of tool names, got ${describeKind(list)}.`);
    }
  }
  if (value.prefix !== undefined && (typeof value.prefix !== "string" || !/^[A-Za-z0-9_-]*$/.test(value.prefix))) {
    throw new ConfigurationError(subject, `${subject} has a prefix that is not letters, digits, '_' and '-', got ${describeKind(value.prefix)}.`);
  }
  for (const key of ["timeoutMs", "maxTotalTimeoutMs"] as const) {
    const ms: unknown = value[key];
    if (ms !== undefined && (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0)) {
      throw new ConfigurationError(subject, `${subject} has a ${key} that is not a positive number of milliseconds, got ${describeKind(ms)}.`);
    }
  }
  if (value.maxResultChars !== undefined && (!Number.isSafeInteger(value.maxResultChars) || value.maxResultChars < 1)) {
    throw new ConfigurationError(subject, `${subject} has a maxResultChars that is not a whole number of characters of at least 1, got ${describeKind(value.maxResultChars)}.`);
  }
  if (value.sequential !== undefined && typeof value.sequential !== "boolean") {
    throw new ConfigurationError(subject, `${subject} has a sequential that is not true or false, got ${describeKind(value.sequential)}.`);
  }
  if (value.confirm !== undefined && !["destructive", "writes", "all"].includes(value.confirm)) {
    throw new ConfigurationError(subject, `${subject} has a confirm that is not "destructive", "writes" or "all", got ${describeKind(value.confirm)}.`);
  }
  if (value.tools !== undefined && (typeof value.tools !== "object" || value.tools === null || Array.isArray(value.tools))) {
    throw new ConfigurationError(subject, `${subject} has tools options that are not an object of { toolName: { inputsFromState?, outputsToState?, outputsToString? } }, got ${describeKind(value.tools)}.`);
  }
  for (const [name, toolOptions] of Object.entries(value.tools ?? {})) {
    const unknown = typeof toolOptions === "object" && toolOptions !== null ? Object.keys(toolOptions).find((key) => !["inputsFromState", "outputsToState", "outputsToString"].includes(key)) : "(not an object)";
    if (unknown !== undefined) {
      throw new ConfigurationError(subject, `${subject} has tools.${name} with ${unknown === "(not an object)" ? `a value that is not an object, got ${describeKind(toolOptions)}` : `unknown option '${unknown}'`}; the options are inputsFromState, outputsToState and outputsToString.`);
    }
  }
  for (const key of ["onToolsChanged", "onLog", "onWarning"] as const) {
    if (value[key] !== undefined && typeof value[key] !== "function") {
      throw new ConfigurationError(subject, `${subject} has an ${key} that is not a function, got ${describeKind(value[key])}.`);
    }
  }
}
