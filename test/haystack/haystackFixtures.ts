// What Haystack itself did, recorded by test/haystack/recorder/record.py on Haystack main and
// v2.31.0 (see the README there); tests read a fixture by version and scenario name.
import * as fs from "node:fs";
import * as path from "node:path";

/** The Haystack versions the fixtures were recorded on. */
export const haystackVersions = ["main", "v2.31.0"] as const;

/** A fixture folder: Haystack main (3.2.0-rc0) or the v2.31.0 release. */
export type HaystackVersion = (typeof haystackVersions)[number];

/** An exception Haystack raised: its class, message and cause. */
export interface HaystackError {
  class: string;
  message: string;
  cause?: HaystackError;
}

/** A message as Haystack's `ChatMessage.to_dict()` writes it. */
export interface HaystackMessageDict {
  role: string;
  meta: Record<string, unknown>;
  name: string | null;
  content: Array<Record<string, unknown>>;
}

/** A tool result part of a Haystack message dict. */
export interface HaystackToolCallResult {
  result: unknown;
  origin: { tool_name: string; arguments: unknown; id: string | null; extra: Record<string, unknown> | null };
  error: boolean;
}

interface FixtureBase {
  scenario: string;
  haystack: { version: string; commit: string };
  /** Set when the version lacks the behaviour: why. */
  unsupported?: string;
}

/** An Agent run on scripted replies: the construction error, the run error, or the result. */
export interface AgentFixture extends FixtureBase {
  input: { messages: HaystackMessageDict[]; run_kwargs: Record<string, unknown> };
  /** The scripted replies, one list per model call. */
  script: HaystackMessageDict[][];
  construction_error?: HaystackError;
  run_error?: HaystackError;
  /** How many times the Agent called the generator. */
  model_calls?: number;
  /** Every output of `Agent.run` but `last_message`; state values as JSON. */
  result?: { messages: HaystackMessageDict[]; exit_reason?: string; step_count?: number; token_usage?: Record<string, number>; tool_call_counts?: Record<string, number> } & Record<string, unknown>;
  result_keys?: string[];
  note?: string;
  /** state-value-of-another-type: what State did with an initial key its schema lacks. */
  unknown_initial_key?: "accepted" | HaystackError;
}

/** `ChatMessage.from_dict` of one serialized form: what `to_dict` wrote back, or the error. */
export interface MessageFromDictFixture extends FixtureBase {
  input: Record<string, unknown>;
  to_dict?: HaystackMessageDict;
  texts?: string[];
  role?: string;
  error?: HaystackError;
  round_trip_equal?: boolean;
  arguments_type?: string;
  /** `to_openai_dict_format()` of the message read. */
  openai_dict?: { role: string; tool_calls?: Array<{ type: string; id: string; function: { name: string; arguments: string } }> };
}

/** `ChatPromptBuilder` on a template of `{% message %}` blocks. */
export interface PromptFixture extends FixtureBase {
  input: { template: string; variables: Record<string, string> };
  prompt?: HaystackMessageDict[];
  variables?: string[];
  error?: HaystackError;
}

/** A State with a custom handler through `State.to_dict()` and `State.from_dict`. */
export interface StateFixture extends FixtureBase {
  input: { schema: Record<string, { type: string; handler: string | null }>; data: Record<string, unknown> };
  to_dict: { schema: Record<string, { type: string; handler: string }>; data: { serialization_schema: Record<string, unknown>; serialized_data: Record<string, unknown> } };
  /** main: from_dict refused the custom handler's module until it was allowed. */
  from_dict_error?: HaystackError;
  from_dict_allowed_module?: string;
  from_dict_data: Record<string, unknown>;
  from_dict_types: Record<string, string>;
  from_dict_schema: Record<string, { type: string; handler: string | null }>;
  round_trip_to_dict_equal: boolean;
}

/** An Agent's `to_dict()` as Haystack's YAML marshaller wrote it, alone or as a Pipeline's component. */
export interface YamlFixture extends FixtureBase {
  /** Which way the version's Agent takes confirmation: 2.x's `confirmation_strategies`, or main's `hooks`. */
  form: "confirmation_strategies" | "hooks";
  /** The pipeline component holding the Agent (pipeline-yaml only). */
  component?: string;
  yaml: string;
}

/** Every recorded scenario and the shape of its fixture. */
export interface HaystackFixtures {
  "exit-tool-succeeds-other-exit-tool-fails": AgentFixture;
  "no-tools-empty-reply": AgentFixture;
  "tools-empty-reply": AgentFixture;
  "whitespace-only-reply": AgentFixture;
  "exit-condition-names-run-time-tool": AgentFixture;
  "read-after-write-reader-requested-first": AgentFixture;
  "unknown-tool-error-position": AgentFixture;
  "schema-merge-handler-throws": AgentFixture;
  "outputs-to-state-handler-throws": AgentFixture;
  "outputs-to-string-handler-throws": AgentFixture;
  "multi-output-outputs-to-string": AgentFixture;
  "raw-result-parts": AgentFixture;
  "raw-result-dict": AgentFixture;
  "chat-prompt-builder-message-blocks": PromptFixture;
  "agent-user-prompt-message-block": AgentFixture;
  "usage-summed-and-tool-call-counts": AgentFixture;
  "model-argument-overrides-inputs-from-state": AgentFixture;
  "parameter-named-like-state-key": AgentFixture;
  "arguments-not-matching-schema": AgentFixture;
  "tool-error-with-injected-value": AgentFixture;
  "state-value-of-another-type": AgentFixture;
  "outputs-to-state-without-source-non-dict-result": AgentFixture;
  "chat-message-pre-2.9-content-string": MessageFromDictFixture;
  "chat-message-2.9-to-2.12-underscore-form": MessageFromDictFixture;
  "chat-message-flat-parts": MessageFromDictFixture;
  "chat-message-flat-tool-result": MessageFromDictFixture;
  "tool-call-extra-round-trip": MessageFromDictFixture;
  "tool-call-raw-string-arguments": MessageFromDictFixture;
  "state-to-dict-from-dict": StateFixture;
  "agent-yaml": YamlFixture;
  "pipeline-yaml": YamlFixture;
}

/** A scenario's name (its fixture's file name). */
export type HaystackScenario = keyof HaystackFixtures;

const fixturesDir = path.join(__dirname, "fixtures");

/** Reads what Haystack `version` did in `scenario`; throws when the fixture is missing or names another scenario. */
export function haystackFixture<S extends HaystackScenario>(version: HaystackVersion, scenario: S): HaystackFixtures[S] {
  const file = path.join(fixturesDir, version, `${scenario}.json`);
  const fixture = JSON.parse(fs.readFileSync(file, "utf8")) as HaystackFixtures[S];
  if (fixture.scenario !== scenario) throw new Error(`Haystack fixture ${file} records scenario '${fixture.scenario}', not '${scenario}'; re-run test/haystack/recorder/record.py.`);
  return fixture;
}

/** The tool results among a recorded run's messages, in order. */
export function haystackToolResults(fixture: AgentFixture): HaystackToolCallResult[] {
  return (fixture.result?.messages ?? []).flatMap((message) => message.content.flatMap((part) => ("tool_call_result" in part ? [part.tool_call_result as HaystackToolCallResult] : [])));
}

/**
 * A Haystack dict without the `"extra": null` Haystack writes on a tool call without provider
 * data: toolwright writes no key then (docs/haystack.md, difference 11; Haystack reads both).
 */
export function withoutNullToolCallExtra<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutNullToolCallExtra) as T;
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) if (!(key === "extra" && inner === null && "tool_name" in value)) out[key] = withoutNullToolCallExtra(inner);
  return out as T;
}
