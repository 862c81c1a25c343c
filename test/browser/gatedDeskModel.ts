import type { ChatGenerator, ChatGeneratorRequest, ChatGeneratorResponse } from "toolwright";
import { RefundDeskModel } from "../../examples/service/ruleModel";

/**
 * The refund desk's scripted model, which the test can stop in the middle of a reply: after
 * `holdNextReply()`, the next reply with text streams its first two words and then waits until the
 * returned function is called. Lets a test reload the page mid-stream without depending on speed.
 */
export class GatedDeskModel implements ChatGenerator {
  readonly #desk = new RefundDeskModel();
  #gate: Promise<void> | undefined;

  holdNextReply(): () => void {
    let open!: () => void;
    this.#gate = new Promise<void>((resolve) => (open = resolve));
    return open;
  }

  async run(request: ChatGeneratorRequest): Promise<ChatGeneratorResponse> {
    const forward = request.streamingCallback;
    if (!forward) return this.#desk.run(request);
    let words = 0;
    return this.#desk.run({
      ...request,
      streamingCallback: async (chunk) => {
        const gate = this.#gate;
        if (chunk.type === "text" && ++words === 3 && gate) {
          this.#gate = undefined;
          await gate;
        }
        return forward(chunk);
      },
    });
  }
}
