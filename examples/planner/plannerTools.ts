import { z } from "zod";
import { type Integer, type State, type StateSchema, tool } from "toolwright";

/** One step of a plan. */
export const PlanStep = z.object({ id: z.number().int(), title: z.string(), hours: z.number(), after: z.array(z.number().int()) });
export type PlanStep = z.infer<typeof PlanStep>;

/** The planner's state: the steps so far and, once finalized, the plan's summary. */
export const plannerState = {
  steps: { type: z.array(PlanStep) },
  summary: { type: z.string() },
  deadline: { type: z.date() },
} satisfies StateSchema;

export type PlannerState = typeof plannerState;

const hoursBySize = { small: 2, medium: 6, large: 16 } as const;

/** Tools of a planner that builds a plan step by step and ends by finalizing it. */
export class PlannerTools {
  /**
   * Estimate how long a task takes.
   * @param task What has to be done.
   * @param size How big the task is.
   */
  @tool({ name: "estimate" })
  estimate(task: string, size: "small" | "medium" | "large"): { task: string; hours: number } {
    return { task, hours: hoursBySize[size] };
  }

  /**
   * Add a step to the plan.
   * @param title What the step does.
   * @param hours The estimate for the step.
   * @param after Ids of steps that must be done first.
   */
  @tool({ name: "add_step", outputsToState: { steps: { source: "step" } } })
  addStep(title: string, hours: number, state: State<PlannerState>, after: Integer[] = []): { step: PlanStep } {
    const steps = state.get("steps", []);
    const missing = after.filter((id) => !steps.some((s) => s.id === id));
    if (missing.length > 0) throw new Error(`step ${missing.join(", ")} does not exist yet; add it first`);
    return { step: { id: steps.length + 1, title, hours, after } };
  }

  /**
   * Finish: check the plan fits the deadline and record its summary. Ends the run.
   * @param summary One or two sentences for the person who asked.
   */
  @tool({ name: "finalize_plan", outputsToState: { summary: { source: "summary" } } })
  finalizePlan(summary: string, state: State<PlannerState>): { summary: string; totalHours: number } {
    const steps = state.get("steps", []);
    if (steps.length === 0) throw new Error("the plan has no steps; add steps before finalizing");
    const totalHours = steps.reduce((sum, s) => sum + s.hours, 0);
    const deadline = state.get("deadline");
    if (deadline && totalHours > hoursUntil(deadline)) throw new Error(`the plan needs ${totalHours} working hours, more than there are before ${deadline.toISOString().slice(0, 10)}`);
    return { summary, totalHours };
  }
}

// Working hours (8 a day) from a fixed "today", so the example's output does not depend on the date.
function hoursUntil(deadline: Date): number {
  const today = Date.UTC(2026, 10, 23);
  return Math.max(0, Math.floor((deadline.getTime() - today) / 86_400_000)) * 8;
}
