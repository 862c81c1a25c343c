import { z } from "zod";

/** A support ticket, as the state guide's schema stores it. */
export const Ticket = z.object({ id: z.string(), subject: z.string() });
export type Ticket = z.infer<typeof Ticket>;

/** A merge handler that keeps each id once, in first-seen order. */
export function dedupe(current: string[] | undefined, incoming: string[]): string[] {
  return [...new Set([...(current ?? []), ...incoming])];
}
