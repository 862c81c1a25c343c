import { ToolwrightError } from "../errors";

/** A UI message stream ended because its consumer read too slowly: more than `maxBufferedBytes` waited unread. */
export class UIStreamError extends ToolwrightError {
  /** The limit that was passed, in bytes. */
  readonly maxBufferedBytes: number;

  constructor(maxBufferedBytes: number) {
    super(`UI message stream held more than ${maxBufferedBytes} bytes its client had not read, so the run was stopped; read the stream as it comes, or raise maxBufferedBytes.`);
    this.maxBufferedBytes = maxBufferedBytes;
  }
}
