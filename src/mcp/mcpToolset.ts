import type { Tool as McpToolInfo } from "@modelcontextprotocol/sdk/types.js";
import { ConfigurationError } from "../errors";
import type { JsonSchema } from "../tools/jsonSchema";
import { Tool, type ToolContext, toolInternals } from "../tools/tool";
import type { InputsFromState, OutputsToState, OutputsToString } from "../tools/toolOutputs";
import { Toolset } from "../tools/toolset";
import { linkedAbort } from "../util/abort";
import { describeKind } from "../util/describeValue";
import { listAllTools, McpConnection, type McpServerSpec } from "./mcpConnection";
import { mcpToolOutput } from "./mcpResult";
import { modelToolName } from "./mcpToolNames";

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
  /** How long a call may take before it fails (and the server is told to cancel it). Default 60000 ms. */
  timeoutMs?: number;
  /** Options of single tools, by the server's name. */
  tools?: Readonly<Record<string, McpToolOptions>>;
  /** Told when the tools were read again (the server said they changed, or it came back after a drop), or why reading them failed. */
  onToolsChanged?: (change: { readonly tools: readonly Tool[]; readonly error?: undefined } | { readonly error: Error }) => void;
}

/**
 * The tools of an MCP server as a Toolset: give it to an Agent like any other. The model sees each
 * tool's input schema (marked strict when it qualifies), arguments are validated before the call,
 * results come back as text or JSON (`structuredContent`), and `isError` results become error tool
 * messages. A dropped connection fails the calls in flight and reconnects on the next call; when the
 * server's tool list changes, the Agent gets the new tools at its next run.
 *
 * @example
 * const files = await McpToolset.connect({ command: "npx", args: ["@modelcontextprotocol/server-filesystem", dir] }, { prefix: "fs_" });
 * const agent = new Agent({ chatGenerator, tools: [files] });
 * // …
 * await files.close();
 */
export class McpToolset extends Toolset {
  readonly #connection: McpConnection;
  readonly #options: McpToolsetOptions;
  readonly #subject: string;
  #refreshing: Promise<void> | undefined;
  #refreshAgain: Promise<void> | undefined;

  private constructor(connection: McpConnection, options: McpToolsetOptions, subject: string, tools: readonly Tool[], name: string | undefined) {
    super(tools, name === undefined ? {} : { name });
    this.#connection = connection;
    this.#options = options;
    this.#subject = subject;
    Object.freeze(this);
  }

  /** Connects to the server, reads its tools and checks the options against them. */
  static async connect(server: McpServerSpec, options: McpToolsetOptions = {}): Promise<McpToolset> {
    const subject = `McpToolset${typeof options?.name === "string" && options.name !== "" ? ` '${options.name}'` : ""}`;
    checkOptions(options, subject);
    let toolset: McpToolset | undefined;
    // A change the server announces before the toolset exists (while its tools are being listed) is
    // read once the toolset is there: the list may predate it.
    let changedEarly = false;
    const connection = new McpConnection(server, subject, () => {
      if (toolset) void toolset.refresh().catch(() => undefined);
      else changedEarly = true;
    });
    try {
      const listed = await connection.use((client) => listAllTools(client));
      const name = options.name ?? connection.serverName;
      const toolsetSubject = name === undefined ? "McpToolset" : `McpToolset '${name}'`;
      checkNamesExist(listed, options, toolsetSubject);
      toolset = new McpToolset(connection, options, toolsetSubject, [], name);
      toolset.replaceTools(toolset.#build(listed));
      if (changedEarly) void toolset.refresh().catch(() => undefined);
      return toolset;
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
  }

  /** Reads the server's tools again (done for you when the server says they changed). */
  async refresh(): Promise<void> {
    // A refresh asked for while one is reading may come from a change that reading missed: it reads
    // again after it (once, however many ask meanwhile).
    if (this.#refreshing) return (this.#refreshAgain ??= this.#refreshing.catch(() => undefined).then(() => ((this.#refreshAgain = undefined), this.refresh())));
    this.#refreshing = (async () => {
      try {
        const tools = this.#build(await this.#connection.use((client) => listAllTools(client)));
        this.replaceTools(tools);
        this.#options.onToolsChanged?.({ tools });
      } catch (error) {
        this.#options.onToolsChanged?.({ error: error as Error });
        throw error;
      } finally {
        this.#refreshing = undefined;
      }
    })();
    return this.#refreshing;
  }

  /** Ends the connection (and the server's process, for a command). Calls after it fail. */
  async close(): Promise<void> {
    await this.#connection.close();
  }

  #build(listed: readonly McpToolInfo[]): Tool[] {
    const { include, exclude, prefix = "", tools: perTool = {} } = this.#options;
    const chosen = listed.filter((info) => (include === undefined || include.includes(info.name)) && !exclude?.includes(info.name));
    const byModelName = new Map<string, string>();
    return chosen.map((info) => {
      const name = modelToolName(prefix, info.name);
      if (name === undefined) {
        throw new ConfigurationError(
          this.#subject,
          `${this.#subject}: the server's tool '${info.name}' has no valid name for a model (1-64 letters, digits, '_' or '-' with the prefix '${prefix}'); leave it out with exclude: [${JSON.stringify(info.name)}] or shorten the prefix.`,
        );
      }
      const clash = byModelName.get(name);
      if (clash !== undefined) {
        throw new ConfigurationError(this.#subject, `${this.#subject}: the server's tools '${clash}' and '${info.name}' both become '${name}' for the model; leave one out with exclude.`);
      }
      byModelName.set(name, info.name);
      // Own keys only: a server's tool named `constructor` or `__proto__` must not find Object.prototype's.
      return this.#tool(name, info, Object.hasOwn(perTool, info.name) ? perTool[info.name]! : {});
    });
  }

  #tool(name: string, info: McpToolInfo, options: McpToolOptions): Tool {
    const connection = this.#connection;
    const server = this.name ?? "MCP server";
    const timeout = this.#options.timeoutMs ?? 60_000;
    try {
      const tool = new Tool({
        name,
        description: info.description ?? info.title ?? "",
        parameters: inputParameters(info.inputSchema as JsonSchema),
        inputsFromState: options.inputsFromState,
        outputsToState: options.outputsToState,
        outputsToString: options.outputsToString,
        source: `MCP server '${server}', tool '${info.name}'`,
        function: async (args: Record<string, unknown>, context: ToolContext) => {
          // Connecting (again, after a drop) fails with its own message.
          await connection.client();
          // A signal of the call's own: the SDK adds an abort listener to the signal of each request
          // and never removes it, so the run's signal would collect one per call (and announce a
          // cancel of every finished call when the run is aborted).
          const call = linkedAbort(context.signal);
          try {
            const result = await connection.use((client) => client.callTool({ name: info.name, arguments: args }, undefined, { signal: call.signal, timeout }));
            return mcpToolOutput(result as Parameters<typeof mcpToolOutput>[0], server, info.name);
          } catch (error) {
            throw callError(error, context.signal, server, info.name, timeout);
          } finally {
            call.dispose();
          }
        },
      });
      // The schema is compiled now, not at the first call: a schema the validator cannot use (an
      // unknown dialect, a broken $ref) is an error of connect, naming the tool, rather than of a run.
      toolInternals(tool).validator.validate({});
      return tool;
    } catch (error) {
      if (!(error instanceof ConfigurationError)) throw error;
      throw new ConfigurationError(this.#subject, `${this.#subject}: the server's tool '${info.name}' cannot be used: ${error.message} Fix its options or leave it out with exclude.`, { cause: error });
    }
  }
}

// The server's input schema without its `$schema`: MCP servers commonly name draft-07 (what
// zod-to-json-schema writes), a dialect the validator (draft 2020-12) refuses to compile, and the
// model has no use for it. The keywords of such schemas read the same in 2020-12.
function inputParameters(schema: JsonSchema): JsonSchema {
  if (typeof schema !== "object" || schema === null || !("$schema" in schema)) return schema;
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

// What a failed call tells the model: an abort as it is (the run or the timeout ended it), else
// which server and tool, and what went wrong.
function callError(error: unknown, signal: AbortSignal, server: string, tool: string, timeoutMs: number): unknown {
  if (signal.aborted || (error as Error)?.name === "McpToolError") return error;
  const code = (error as { code?: unknown })?.code;
  const message = (error as Error)?.message ?? String(error);
  if (code === -32001) return new Error(`MCP server '${server}' did not answer the call to '${tool}' within ${timeoutMs} ms (timeoutMs); the server was told to cancel it.`, { cause: error });
  if (code === -32000) {
    return new Error(`MCP server '${server}' closed the connection during the call to '${tool}'; the call may or may not have run. The next call reconnects.`, { cause: error });
  }
  return new Error(`MCP server '${server}' refused the call to '${tool}': ${message}`, { cause: error });
}

function checkOptions(options: unknown, subject: string): void {
  if (typeof options !== "object" || options === null) throw new ConfigurationError(subject, `${subject} needs an options object, got ${describeKind(options)}.`);
  const value = options as McpToolsetOptions;
  // A misspelt option (timeout for timeoutMs) would otherwise be silently ignored.
  const known = ["name", "include", "exclude", "prefix", "timeoutMs", "tools", "onToolsChanged"];
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
  if (value.timeoutMs !== undefined && (typeof value.timeoutMs !== "number" || !Number.isFinite(value.timeoutMs) || value.timeoutMs <= 0)) {
    throw new ConfigurationError(subject, `${subject} has a timeoutMs that is not a positive number of milliseconds, got ${describeKind(value.timeoutMs)}.`);
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
  if (value.onToolsChanged !== undefined && typeof value.onToolsChanged !== "function") {
    throw new ConfigurationError(subject, `${subject} has an onToolsChanged that is not a function, got ${describeKind(value.onToolsChanged)}.`);
  }
}

// Names in include, exclude and tools must be the server's: a typo would otherwise silently do nothing.
function checkNamesExist(listed: readonly McpToolInfo[], options: McpToolsetOptions, subject: string): void {
  const names = listed.map((info) => info.name);
  const named = [...(options.include ?? []).map((n) => ["include", n]), ...(options.exclude ?? []).map((n) => ["exclude", n]), ...Object.keys(options.tools ?? {}).map((n) => ["tools", n])];
  for (const [where, name] of named) {
    if (!names.includes(name!)) {
      throw new ConfigurationError(subject, `${subject} names '${name}' in ${where}, which is not one of the server's tools: ${names.join(", ") || "none"}.`);
    }
  }
}
