import { tickets, type SupportState, type Ticket } from "./ticketDesk";
import { tool, type State } from "toolwright";

// #region jsdoc
class SupportTools {
  /**
   * Close one of the customer's tickets.
   * @title Close a ticket
   * @destructiveHint false
   * @idempotentHint
   * @returns The ticket, closed.
   */
  @tool({ name: "close_ticket" })
  closeTicket(ticketId: string, state: State<SupportState>): Ticket {
    return tickets.close(state.get("customer_id") ?? "", ticketId);
  }
}
// #endregion

export { SupportTools };
