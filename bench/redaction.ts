import { redactValues } from "../src/util/redact";
import { fmt, median, timeRuns } from "./measure";

/** Redacting a tool's 100 KB error message against 10,000 injected leaves (the documented limit), as on a tool failure. */
export async function benchRedaction(): Promise<string[]> {
  const records = Array.from({ length: 1_000 }, (_, i) => ({
    id: `cust-${i}-${(i * 7919).toString(36)}`,
    email: `user${i}@example.com`,
    token: Buffer.from(`token-${i}-secret`).toString("base64url"),
    city: ["Lisboa", "Zürich", "Tōkyō", "São Paulo"][i % 4],
    visits: i * 13,
    tags: [`t${i % 17}`, `segment-${i % 5}`],
    since: new Date(1_700_000_000_000 + i * 86_400_000),
  }));
  const message = Array.from({ length: 1_600 }, (_, i) => `line ${i}: lookup failed for ${i % 50 === 0 ? records[i % 1000]!.email.toUpperCase() : "someone else"};`).join(" ").slice(0, 100_000);
  const values = [{ label: "customers", value: records }];
  const ms = median(await timeRuns(() => redactValues(message, values), 9, 3));
  return [`redaction, 100 KB message against 10,000 injected leaves: ${fmt(ms)} ms`];
}
