import type { StreamingChunk } from "../chat/streaming";
import { parsedArguments } from "./parsedArguments";
import { toolOutputValue, type UIMediaMode } from "./toolOutputValue";
import type { NestedAgentPart, ToolPreliminaryOutput } from "./toolPreliminaryOutput";

type MutableToolPart = { -readonly [K in keyof Extract<NestedAgentPart, { type: "tool" }>]: Extract<NestedAgentPart, { type: "tool" }>[K] };
type MutableTextPart = { type: "text" | "reasoning"; agent: string; text: string };

// Text of a sub-run is sent after this many characters at most (or sooner, with its next other event):
// each send repeats everything so far, so sending every delta would cost the square of the text.
const textFlushChars = 1024;

/**
 * What an agent tool's sub-run (and the agents it calls in turn) did so far, built from the chunks
 * tagged with `agent`, as the calling tool part's preliminary output.
 */
export class NestedAgentProgress {
  readonly #agent: string;
  readonly #media: UIMediaMode;
  readonly #parts: Array<MutableTextPart | MutableToolPart> = [];
  // The tool parts of each nested agent's current model call, by the call's position.
  readonly #streaming = new Map<string, MutableToolPart>();
  #unsent = 0;

  constructor(agent: string, media: UIMediaMode) {
    this.#agent = agent;
    this.#media = media;
  }

  /** Takes in one of the sub-run's chunks; true when the output should be sent now. */
  add(chunk: StreamingChunk & { readonly agent: string }): boolean {
    const agent = chunk.agent;
    switch (chunk.type) {
      case "text":
      case "reasoning": {
        if (typeof chunk.delta !== "string") return false;
        const last = this.#parts.at(-1);
        if (last && last.type === chunk.type && last.agent === agent) last.text += chunk.delta;
        else this.#parts.push({ type: chunk.type, agent, text: chunk.delta });
        this.#unsent += chunk.delta.length;
        if (this.#unsent < textFlushChars) return false;
        break;
      }
      case "toolCallDelta": {
        const slot = `${agent}\u0000${chunk.index}`;
        let part = this.#streaming.get(slot);
        if (!part) {
          part = { type: "tool", agent, toolCallId: typeof chunk.id === "string" ? chunk.id : `#${chunk.index}`, toolName: typeof chunk.toolName === "string" ? chunk.toolName : "", state: "input-streaming", input: "" };
          this.#streaming.set(slot, part);
          this.#parts.push(part);
        }
        if (typeof chunk.argumentsDelta === "string") part.input = `${String(part.input)}${chunk.argumentsDelta}`;
        break;
      }
      case "finish":
        for (const [slot, part] of this.#streaming) {
          if (!slot.startsWith(`${agent}\u0000`)) continue;
          if (part.state === "input-streaming") {
            const parsed = parsedArguments(String(part.input));
            part.state = "input-available";
            part.input = parsed.ok ? parsed.value : part.input;
          }
          this.#streaming.delete(slot);
        }
        break;
      case "toolProgress":
        return false;
      case "toolResult": {
        const id = typeof chunk.toolCall?.id === "string" ? chunk.toolCall.id : `#${chunk.index}`;
        let part = this.#parts.find((p): p is MutableToolPart => p.type === "tool" && p.agent === agent && p.toolCallId === id && p.state !== "output-available" && p.state !== "output-error");
        if (!part) {
          part = { type: "tool", agent, toolCallId: id, toolName: String(chunk.toolCall?.toolName ?? ""), state: "input-available", input: chunk.toolCall?.arguments };
          this.#parts.push(part);
        }
        if (chunk.result?.error) {
          part.state = "output-error";
          part.errorText = String(chunk.result.result);
        } else if (chunk.result) {
          part.state = "output-available";
          part.output = toolOutputValue(chunk.result, this.#media);
        }
        break;
      }
      default:
        return false;
    }
    return true;
  }

  /** True when text came in since the output was last sent. */
  get dirty(): boolean {
    return this.#unsent > 0;
  }

  /** The preliminary output as it stands (a copy), and marks it sent. */
  output(): ToolPreliminaryOutput {
    this.#unsent = 0;
    return { type: "agent", agent: this.#agent, parts: this.#parts.map((part) => ({ ...part })) };
  }
}
