import { CallbackError } from "../errors";
import type { HookPoint } from "./middleware";

/** A middleware's hook threw, or returned something that is not an action of its hook point. */
export class MiddlewareError extends CallbackError {
  /** The middleware's `name`. */
  readonly middleware: string;
  readonly hook: HookPoint;

  constructor(options: { readonly middleware: string; readonly hook: HookPoint; readonly message: string; readonly cause?: unknown }) {
    super(`Middleware '${options.middleware}' ${options.message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.middleware = options.middleware;
    this.hook = options.hook;
  }
}
