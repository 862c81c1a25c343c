import { runApprovalExample } from "./approval";
import { runGuardExample } from "./refundGuard";
import { runBudgetExample } from "./tokenBudget";

/** Runs the three middleware examples in turn with the scripted model, printing what happens. */
export async function runHooksExamples(print: (line: string) => void = console.log): Promise<void> {
  await runGuardExample(print);
  print("");
  await runBudgetExample(print);
  print("");
  await runApprovalExample(print);
}

if (require.main === module) {
  runHooksExamples().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
