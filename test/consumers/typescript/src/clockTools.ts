import { tool } from "toolwright";

/** One tool, so each TypeScript version compiles the decorator and the generated module. */
export class ClockTools {
  /**
   * Add minutes to a time of day.
   * @param time The time, as HH:MM.
   * @param minutes How many minutes to add.
   */
  @tool({ name: "add_minutes" })
  addMinutes(time: string, minutes: number): { time: string } {
    const [hours, mins] = time.split(":").map(Number);
    const total = (((hours * 60 + mins + minutes) % 1440) + 1440) % 1440;
    return { time: `${String(Math.floor(total / 60)).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}` };
  }
}
