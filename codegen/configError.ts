import { UsageError } from "../decorators/errors";

/** Bad codegen options or setup: reported as one line, exit code 2. */
export class CodegenConfigError extends UsageError {
  constructor(message: string) {
    super(message);
  }
}
