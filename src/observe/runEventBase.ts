/** What every lifecycle event names: the run it belongs to. */
export interface RunEventBase {
  /** The run's id: `run({ runId })`, else the random id made for the run. */
  readonly runId: string;
  /** The Agent's `name`, when it has one. */
  readonly agentName: string | undefined;
}
