// The child side of runBounded: node tsx boundedRun.ts <module> <export> <JSON arguments>; prints the result as JSON.
async function main(): Promise<void> {
  const [file, exported, args] = process.argv.slice(2) as [string, string, string];
  const module = (await import(file)) as Record<string, (...args: unknown[]) => unknown>;
  const result = await module[exported]!(...(JSON.parse(args) as unknown[]));
  process.stdout.write(JSON.stringify(result));
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(String((error as Error)?.stack ?? error));
  process.exit(1);
});
