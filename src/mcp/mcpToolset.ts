import type { Tool as McpToolInfo } from "@modelcontextprotocol/sdk/types.js";
import { ConfigurationError } from "../errors";
import type { ConfirmationPolicy } from "../hitl/confirmationTypes";
import type { JsonSchema } from "../tools/jsonSchema";
import { Tool, type ToolContext, type ToolProgress, toolInternals } from "../tools/tool";
import { type ToolLeftOut, Toolset } from "../tools/toolset";
import { UnsupportedPatternError } from "../tools/linearPattern";
import { AbortScope } from "../util/abortScope";
import { Semaphore } from "../util/semaphore";
import { isUnreachable, mcpCallError } from "./mcpCallError";
import { McpConfirmationPolicy } from "./mcpConfirmationPolicy";
import { errorText, listAllTools, McpConnection, type McpServerSpec } from "./mcpConnection";
import { logToDebug, type McpLogMessage, type McpWarning, warnToDebug } from "./mcpNotices";
import { type McpCallResult, mcpCallResult } from "./mcpResult";
import { isToolTitle } from "../tools/toolAnnotations";
import { limits } from "../util/limits";
import { readAnnotations, readTitle, setMcpToolDetails } from "./mcpToolDetails";
import { modelToolName } from "./mcpToolNames";
import { checkOptions, type McpToolOptions, type McpToolsetOptions } from "./mcpToolsetOptions";
import { McpServerError } from "./mcpServerError";

export type { McpToolOptions, McpToolsetOptions } from "./mcpToolsetOptions";

/** Options of one direct call (`toolset.call`). */
export interface McpCallOptions {
  /** Cancels the call (the server is told). */
  readonly signal?: AbortSignal;
  /** Receives the server's progress notifications for the call. */
  readonly onProgress?: (progress: ToolProgress) => void;
}

/**
 * The tools of an MCP server as a Toolset: give it to an Agent like any other. The model sees each
 * tool's input schema (marked strict when it qualifies), arguments are validated before the call,
 * results come back as text or JSON (`structuredContent`), a result with images, audio or embedded
 * files as parts (`ImageContent`, `FileContent`; see `McpCallResult.parts`), and `isError` results
 * become error tool messages. A dropped connection or a forgotten HTTP session is opened
 * again on the next call; when the server's tool list changes, the Agent gets the new tools at its
 * next run. Progress the server reports keeps a call alive and reaches the run's stream.
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
  // One permit with `sequential`: the server's calls run one at a time, in the order they come.
  readonly #queue: Semaphore | undefined;
  // What was said once is not said again (a tool list is read again and again).
  readonly #warned = new Set<string>();
  #refreshing: Promise<void> | undefined;
  #refreshAgain: Promise<void> | undefined;

  /**
   * Asks about calls to this toolset's tools by the server's annotations (`confirm`: destructive
   * ones by default) and about no other calls: give it to a confirmation strategy, e.g.
   * `confirmationStrategies: { "*": new BlockingConfirmationStrategy({ ask, policy: files.confirmationPolicy }) }`.
   */
  readonly confirmationPolicy: ConfirmationPolicy;

  private constructor(connection: McpConnection, options: McpToolsetOptions, subject: string, name: string | undefined, leftOut: { toolset?: McpToolset }) {
    super([], { ...(name !== undefined && { name }), onToolLeftOut: (event) => leftOut.toolset && leftOut.toolset.#toolLeftOut(event) });
    leftOut.toolset = this;
    this.#connection = connection;
    this.#options = options;
    this.#subject = subject;
    this.#queue = options.sequential ? new Semaphore(1) : undefined;
    this.confirmationPolicy = new McpConfirmationPolicy(() => this.tools, options.confirm ?? "destructive");
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
    const connection = new McpConnection(server, subject, {
      onToolListChanged: () => {
        if (toolset) void toolset.refresh().catch(() => undefined);
        else changedEarly = true;
      },
      onLog: (params) => toolset && toolset.#log(params),
    });
    try {
      const listed = await connection.use((client) => listAllTools(client));
      const name = options.name ?? connection.serverName;
      const toolsetSubject = name === undefined ? "McpToolset" : `McpToolset '${name}'`;
      checkNamesExist(listed, options, toolsetSubject);
      toolset = new McpToolset(connection, options, toolsetSubject, name, {});
      toolset.replaceTools(toolset.#build(listed, true));
      if (changedEarly) void toolset.refresh().catch(() => undefined);
      return toolset;
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Reads the server's tools again (done for you when the server says they changed). A connection
   * that was lost, or an HTTP session the server forgot (it restarted), is opened again first.
   */
  async refresh(): Promise<void> {
    // A refresh asked for while one is reading may come from a change that reading missed: it reads
    // again after it (once, however many ask meanwhile).
    if (this.#refreshing) return (this.#refreshAgain ??= this.#refreshing.catch(() => undefined).then(() => ((this.#refreshAgain = undefined), this.refresh())));
    this.#refreshing = (async () => {
      try {
        let listed: McpToolInfo[];
        try {
          listed = await this.#connection.use((client) => listAllTools(client));
        } catch (error) {
          throw new McpServerError({ subject: this.#subject, message: `${this.#subject} could not read the server's tools: ${errorText(error)}`, cause: error });
        }
        const tools = this.#build(listed, false);
        this.replaceTools(tools);
        this.#tell("onToolsChanged", { tools });
      } catch (error) {
        this.#tell("onToolsChanged", { error: error as Error });
        throw error;
      } finally {
        this.#refreshing = undefined;
      }
    })();
    return this.#refreshing;
  }

  /**
   * Calls a tool of the server directly, by the server's name, with arguments as they are (no
   * validation, no State), under the toolset's time limits, `sequential` and `maxResultChars`. The
   * result keeps the binary parts (images, audio, blobs) out of `output`, in `binary`.
   */
  async call(serverToolName: string, args: Record<string, unknown> = {}, options: McpCallOptions = {}): Promise<McpCallResult> {
    const signal = options.signal ?? new AbortController().signal;
    return this.#call(serverToolName, args, signal, (progress) => options.onProgress?.(progress));
  }

  /** Ends the connection (and the server's process, for a command). Calls after it fail. */
  async close(): Promise<void> {
    await this.#connection.close();
  }

  // The tools for the listed ones. At connect a tool that cannot be used is an error of connect; on
  // a later reading it is left out with a warning, and the rest are used.
  #build(listed: readonly McpToolInfo[], atConnect: boolean): Tool[] {
    const { include, exclude, prefix = "", tools: perTool = {} } = this.#options;
    const chosen = listed.filter((info) => (include === undefined || include.includes(info.name)) && !exclude?.includes(info.name));
    const byModelName = new Map<string, string>();
    const tools: Tool[] = [];
    for (const info of chosen) {
      if (info.execution?.taskSupport === "required") {
        this.#warn({ code: "taskRequired", tool: info.name, message: `${this.#subject}: the server's tool '${info.name}' runs only as an MCP task, which toolwright does not run; it is not offered to the model.` });
        continue;
      }
      try {
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
        // Own keys only: a server's tool named `constructor` or `__proto__` must not find Object.prototype's.
        tools.push(this.#tool(name, info, Object.hasOwn(perTool, info.name) ? perTool[info.name]! : {}));
        byModelName.set(name, info.name);
      } catch (error) {
        if (error instanceof UnsupportedPatternError) {
          // The server's to fix, not the app's: the tool is left out even at connect.
          this.#warn({ code: "unusable", tool: info.name, message: `${this.#subject}: the server's tool '${info.name}' has an input schema whose ${error.message}: patterns from a server run on RE2 so that no input can stall the process; it is left out, the other tools are used.` });
          continue;
        }
        if (atConnect || !(error instanceof ConfigurationError)) throw error;
        const code = error.message.includes("both become") ? "nameClash" : "unusable";
        this.#warn({ code, tool: info.name, message: `${error.message.slice(0, -1)}; it is left out, the other tools are used.` });
      }
    }
    return tools;
  }

  #tool(name: string, info: McpToolInfo, options: McpToolOptions): Tool {
    const server = this.name ?? "MCP server";
    const title = readTitle(info);
    const annotations = readAnnotations(info.annotations);
    try {
      const tool = new Tool({
        name,
        description: info.description ?? title ?? "",
        // Kept on the Tool, so serving it again over MCP (serveMcp) passes them on.
        ...(title !== undefined && isToolTitle(title) && { title }),
        ...(Object.keys(annotations).length > 0 && { annotations }),
        parameters: inputParameters(info.inputSchema as JsonSchema),
        inputsFromState: options.inputsFromState,
        outputsToState: options.outputsToState,
        outputsToString: options.outputsToString,
        source: `MCP server '${server}', tool '${info.name}'`,
        // The toolset cuts a long result itself, with a notice naming the server (maxResultChars);
        // the run's own cap leaves room for that notice rather than cutting it off.
        maxResultChars: (this.#options.maxResultChars ?? 100_000) + 1_000,
        // A result with images, audio or files is its parts (text, ImageContent, FileContent), for a model that reads them.
        function: async (args: Record<string, unknown>, context: ToolContext) => {
          const result = await this.#call(info.name, args, context.signal, (progress) => context.reportProgress(progress));
          return result.parts ?? result.output;
        },
      });
      // The schema is compiled now, not at the first call: a schema the validator cannot use (an
      // unknown dialect, a broken $ref) is an error of connect, naming the tool, rather than of a run.
      toolInternals(tool).validator.validate({});
      setMcpToolDetails(tool, {
        serverToolName: info.name,
        title,
        annotations,
        taskSupport: info.execution?.taskSupport === "optional" ? "optional" : "forbidden",
      });
      return tool;
    } catch (error) {
      if (!(error instanceof ConfigurationError)) throw error;
      if (error.cause instanceof UnsupportedPatternError) throw error.cause;
      throw new ConfigurationError(this.#subject, `${this.#subject}: the server's tool '${info.name}' cannot be used: ${error.message} Fix its options or leave it out with exclude.`, { cause: error });
    }
  }

  async #call(tool: string, args: Record<string, unknown>, signal: AbortSignal, onProgress: (progress: ToolProgress) => void): Promise<McpCallResult> {
    // Taken before anything is awaited, so that the calls queue in the order they were made.
    const permit = this.#queue?.acquire();
    const server = this.name ?? "MCP server";
    const { timeoutMs = 60_000, maxTotalTimeoutMs = 600_000, maxResultChars = 100_000 } = this.#options;
    let release: (() => void) | undefined;
    let totalTimedOut = false;
    // A signal of the call's own: the SDK adds an abort listener to the signal of each request and
    // never removes it, so the run's signal would collect one per call (and announce a cancel of
    // every finished call when the run is aborted). Its timer is the call's limit in all.
    const call = new AbortScope(signal, { timeoutMs: maxTotalTimeoutMs, onTimeout: () => ((totalTimedOut = true), new Error("maxTotalTimeoutMs")) });
    try {
      if (permit) release = await untilAborted(permit, call.signal);
      // Connecting (again, after a drop) fails with its own message, unless the server is not there.
      await this.#connection.client().catch((error: unknown) => {
        throw reported(isUnreachable(error) ? mcpCallError({ error, signal, server, tool, timeoutMs, maxTotalTimeoutMs, totalTimedOut }) : error);
      });
      const result = await this.#connection.use((client) =>
        client.callTool({ name: tool, arguments: args }, undefined, {
          signal: call.signal,
          timeout: timeoutMs,
          resetTimeoutOnProgress: true,
          onprogress: ({ progress, total, message }) => onProgress({ progress, ...(total !== undefined && { total }), ...(message !== undefined && { message }) }),
        }),
      );
      return mcpCallResult(result as Parameters<typeof mcpCallResult>[0], { server, tool, maxChars: maxResultChars, maxDepth: limits.maxArgumentDepth });
    } catch (error) {
      if (reportedErrors.has(error as object)) throw error;
      throw mcpCallError({ error, signal, server, tool, timeoutMs, maxTotalTimeoutMs, totalTimedOut });
    } finally {
      call.dispose();
      release?.();
    }
  }

  #log(params: { level: McpLogMessage["level"]; logger?: string; data?: unknown }): void {
    const message: McpLogMessage = Object.freeze({ server: this.name ?? "MCP server", level: params.level, ...(params.logger !== undefined && { logger: params.logger }), data: params.data });
    this.#tell("onLog", message);
  }

  #toolLeftOut({ tool, reason }: ToolLeftOut): void {
    const serverName = tool.source?.replace(/^.*, tool '(.*)'$/s, "$1") ?? tool.name;
    this.#warn({ code: "nameClash", tool: serverName, message: `${this.#subject}: the server's tool '${serverName}' is left out: ${reason.slice(0, -1)}; give the toolset a prefix or exclude one of them.` });
  }

  #warn(warning: McpWarning): void {
    if (this.#warned.has(warning.message)) return;
    this.#warned.add(warning.message);
    this.#tell("onWarning", Object.freeze(warning));
  }

  // The user's callbacks (or the debug channel): one that throws must not break a refresh, a call
  // or the SDK's notification handling.
  #tell<K extends "onToolsChanged" | "onLog" | "onWarning">(key: K, event: Parameters<NonNullable<McpToolsetOptions[K]>>[0]): void {
    const callback = (this.#options[key] ?? (key === "onLog" ? logToDebug : key === "onWarning" ? warnToDebug : undefined)) as ((event: unknown) => unknown) | undefined;
    try {
      const returned = callback?.(event);
      if (returned instanceof Promise) returned.catch(() => undefined);
    } catch {
      // A listener's failure is its own: nothing of the toolset depends on it.
    }
  }
}

// Errors already in their final words (not to be wrapped again as a refused call).
const reportedErrors = new WeakSet<object>();

function reported(error: unknown): unknown {
  if (typeof error === "object" && error !== null) reportedErrors.add(error);
  return error;
}

// Waits for a permit of the queue, or until the call is aborted (the permit, when it comes, is given back).
async function untilAborted(permit: Promise<() => void>, signal: AbortSignal): Promise<() => void> {
  if (signal.aborted) {
    void permit.then((release) => release());
    throw signal.reason;
  }
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      permit,
      new Promise<never>((_, reject) => {
        onAbort = () => {
          void permit.then((release) => release());
          reject(signal.reason);
        };
        signal.addEventListener("abort", onAbort, { once: true });
      }),
    ]);
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
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
