import type { Breakpoint } from "../agent/breakpoint";
import type { AgentSnapshot } from "../agent/snapshot";
import type { ConfirmationStrategy } from "../hitl/confirmationTypes";
import type { Middleware } from "./middleware";
import { breakpointFeature } from "./features/breakpoints";
import { checkpointFeature } from "./features/checkpoints";
import { confirmationFeature } from "./features/confirmations";
import { middlewareFeature } from "./features/middlewareFeature";
import type { RunFeatures } from "./runContext";
import type { RunFeature } from "./runContext";

/** What a run was given that acts at its hook points. */
export interface FeatureOptions {
  readonly breakpoint: Breakpoint | undefined;
  readonly middleware: readonly Middleware[];
  readonly confirmationStrategies: ReadonlyMap<string, ConfirmationStrategy> | undefined;
  readonly confirmationContext: unknown;
  readonly onCheckpoint: ((snapshot: AgentSnapshot) => void | Promise<void>) | undefined;
}

/**
 * The features at each hook point, in the order they act: the breakpoint first (it shows the run as
 * it stands), then middleware in the order given, then confirmation strategies (a person is asked
 * only about calls the middleware let through), and checkpoints.
 */
export function attachFeatures(options: FeatureOptions): RunFeatures {
  const features: RunFeature[] = [];
  if (options.breakpoint) features.push(breakpointFeature(options.breakpoint));
  for (const m of options.middleware) features.push(middlewareFeature(m));
  if (options.confirmationStrategies) features.push(confirmationFeature(options.confirmationStrategies, options.confirmationContext));
  if (options.onCheckpoint) features.push(checkpointFeature(options.onCheckpoint));
  if (features.length === 0) return noFeatures;
  const at = <K extends keyof RunFeature>(point: K) => features.filter((feature) => feature[point] !== undefined);
  return { beforeModel: at("beforeModel"), afterModel: at("afterModel"), beforeTools: at("beforeTools"), beforeTool: at("beforeTool"), afterTool: at("afterTool"), checkpoint: at("checkpoint") };
}

const noFeatures: RunFeatures = { beforeModel: [], afterModel: [], beforeTools: [], beforeTool: [], afterTool: [], checkpoint: [] };
