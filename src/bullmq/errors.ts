import { ToolwrightError } from "../../decorators/errors";

/** No run with this id is in Redis: it was never started, or it ended (or stayed paused) longer ago than its time to live. */
export class RunNotFoundError extends ToolwrightError {
  readonly runId: string;

  constructor(runId: string, message: string) {
    super(message);
    this.runId = runId;
  }
}

/**
 * The run is not in a state that allows the request: resuming a run that is not paused (another
 * replica's resume of the same pause won, or it was cancelled), or starting a run whose id is taken.
 */
export class RunStateError extends ToolwrightError {
  readonly runId: string;
  /** The run's status when the request was refused. */
  readonly status: string;

  constructor(runId: string, status: string, message: string) {
    super(message);
    this.runId = runId;
    this.status = status;
  }
}
