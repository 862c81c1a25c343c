import { CallbackError } from "../errors";

/** A guardrail broke its contract (it returned something that is not a verdict); the middleware running it ends the run with a `MiddlewareError` whose cause this is. */
export class GuardrailError extends CallbackError {
  /** The guardrail's name. */
  readonly guardrail: string;

  constructor(guardrail: string, message: string) {
    super(message);
    this.guardrail = guardrail;
  }
}
