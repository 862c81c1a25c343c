/** Bad codegen options or setup: reported as one line, exit code 2. */
export class CodegenConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
