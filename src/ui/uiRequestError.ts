import { UsageError } from "../errors";

/** The HTTP status a refused chat request answers with: malformed (400), conflicting with the run (409), too large (413), or refused content (422). */
export type UIRequestStatus = 400 | 409 | 413 | 422;

/**
 * A request from a chat UI (what `useChat` posts, an approval, a resume) that is refused: answer it
 * with `status` and `message`; nothing was run or changed. Everything from the browser is treated as
 * hostile, so the message names the part at fault: `messages[2].parts[0].url`.
 */
export class UIRequestError extends UsageError {
  /** The HTTP status to answer with. */
  readonly status: UIRequestStatus;
  /** Where in the request the problem is (`messages[2].parts[0]`), when it is in one place. */
  readonly path: string | undefined;

  constructor(status: UIRequestStatus, message: string, options?: { path?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.path = options?.path;
  }
}
