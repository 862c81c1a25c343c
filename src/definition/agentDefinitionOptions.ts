import type { ChatGenerator } from "../chat/chatGenerator";
import type { StreamingCallback } from "../chat/streaming";
import type { AgentOptions } from "../agent/agentTypes";
import type { OutputSchema } from "../agent/finalOutput";
import type { AgentTracing } from "../observe/agentTracing";
import type { AgentHooks } from "../observe/runEvents";
import type { Middleware } from "../run/middleware";
import type { StateSchema } from "../state/stateSchema";
import type { AgentDefinition } from "./agentDefinition";
import type { AgentRegistry } from "./agentRegistry";

/** Options of `Agent.fromJSON` and `loadAgent`: what a definition may name, and the run-time wiring no definition holds. */
export interface AgentFromJSONOptions<S extends StateSchema = StateSchema> {
  /** Everything that is code the definition may name (classes, tools, handlers, …). */
  registry?: AgentRegistry;
  /**
   * The app's own state schema (zod): the definition's `stateSchema` must describe the same keys,
   * types and handlers, and the Agent uses the zod types, so its state is typed in code.
   */
  stateSchema?: S;
  /**
   * The environment variables a definition may read as secrets (`apiKey: { env }`, `snapshotKey`).
   * Default `["OPENAI_API_KEY"]`, the key the OpenAI SDK reads anyway.
   */
  allowedEnv?: readonly string[];
  /**
   * The endpoints a definition's `baseURL` may name (exactly). Default none: a definition from a
   * stranger cannot send your API key to its own server; without `baseURL` the generator uses
   * `OPENAI_BASE_URL` or OpenAI's API.
   */
  allowedBaseURLs?: readonly string[];
  /** Replaces the definition's chat generator (tests, offline runs): the definition's is checked, not built. */
  chatGenerator?: ChatGenerator;
  /** Middleware in code (guardrails, your own), run after the middleware the definition's `guardrails`, `budget` and `compaction` make. */
  middleware?: readonly Middleware[];
  /** Lifecycle callbacks (a definition holds no code). */
  hooks?: AgentHooks;
  /** Tracing, e.g. `openTelemetry()` from `toolwright/otel`. */
  tracing?: AgentTracing;
  /** Receives the runs' streaming chunks. */
  streamingCallback?: StreamingCallback;
}

/** What a definition makes: the Agent's options, and the checked definition it keeps for `toJSON`. */
export interface DefinedAgent {
  readonly options: AgentOptions<StateSchema, string, OutputSchema | undefined>;
  readonly definition: AgentDefinition;
}

/** Options of `agent.toJSON(...)`. */
export interface AgentToJSONOptions {
  /** Names the code the Agent uses (tools, handlers, strategies, generators) by identity. */
  registry?: AgentRegistry;
  /** The environment variable the rebuilt Agent reads its `snapshotKey` from (a key itself is never written). */
  snapshotKeyEnv?: string;
}
