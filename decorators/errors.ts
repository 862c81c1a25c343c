/** `@tool` was put on something that is not a method (a field, a getter, a symbol-named or #private member). */
export class ToolDecoratorError extends Error {
  /** `Class.member`, as written in the source. */
  readonly member: string;

  constructor(member: string, message: string) {
    super(message);
    this.name = new.target.name;
    this.member = member;
  }
}
