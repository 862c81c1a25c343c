import { runBudgetExample } from "./budget";
import { runCompactionExample } from "./compaction";
import { runFallbackExample } from "./fallback";
import { runGuardrailExample } from "./guardrail";

/** Runs the guarded-agent examples in turn with the scripted model (no API key), printing what happens. */
export async function runGuardedExamples(print: (line: string) => void = console.log): Promise<void> {
  await runGuardrailExample(print);
  print("");
  await runBudgetExample(print);
  print("");
  await runCompactionExample(print);
  print("");
  await runFallbackExample(print);
}

if (require.main === module) {
  runGuardedExamples().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
