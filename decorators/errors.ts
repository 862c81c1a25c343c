/**
 * Every error toolwright throws extends `ToolwrightError`: `name` is the class name, the original
 * error is `cause`, and structured fields sit beside the message. It lives here, in the layer
 * everything else depends on, so that decorator errors are ToolwrightErrors too.
 */
export class ToolwrightError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** `@tool` was put on something that is not a method (a field, a getter, a symbol-named or #private member). */
export class ToolDecoratorError extends ToolwrightError {
  /** `Class.member`, as written in the source. */
  readonly member: string;

  constructor(member: string, message: string) {
    super(message);
    this.member = member;
  }
}
