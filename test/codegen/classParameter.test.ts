import { main } from "../../codegen/cli";
import { formatDiagnostic } from "../../codegen/diagnostics";
import { watchToolSchemas } from "../../codegen/watch";
import { captured, TempProject } from "./helpers/tempProject";

const billingTools = `import { tool } from "toolwright";

export class Money {
  amount = 0;
  currency = "EUR";

  format(): string {
    return this.amount + " " + this.currency;
  }

  get cents(): number {
    return this.amount * 100;
  }
}

/** A plain data class: properties only. */
export class Address {
  street = "";
  city = "";
}

export interface Refund {
  reason: string;
  total: Money;
}

export class BillingTools {
  /** Charge a customer. */
  @tool
  charge(customer: string, price: Money, shipTo: Address): string {
    return customer + price.format() + shipTo.city;
  }

  /** Refund a charge. */
  @tool
  refund(refund: Refund): string {
    return refund.reason;
  }
}
`;

const warnings = [
  "src/billingTools.ts:24:3 - warning TW304: BillingTools.refund(refund).total is typed as the class Money, which has methods (format, cents), but the method will receive a plain object with Money's data properties and none of its methods; type it as an interface of the data, or build the Money from that object inside the method.",
  "src/billingTools.ts:30:28 - warning TW304: BillingTools.charge(price) is typed as the class Money, which has methods (format, cents), but the method will receive a plain object with Money's data properties and none of its methods; type it as an interface of the data, or build the Money from that object inside the method.",
];

async function run(argv: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  const out = captured();
  const err = captured();
  const code = await main(argv, out, err, cwd);
  return { code, out: out.text, err: err.text };
}

describe("TW304 (a parameter typed as a class with methods)", () => {
  let project: TempProject;
  beforeEach(() => {
    project = new TempProject({ "src/billingTools.ts": billingTools });
  });
  afterEach(() => project.dispose());

  it("prints a warning at file:line:col, writes the module and exits 0; a data-only class gets none", async () => {
    expect(await run(["codegen"], project.dir)).toEqual({ code: 0, out: "wrote src/tools.generated.ts (2 tools, 2 warnings).\n", err: `${warnings.join("\n")}\n` });
    expect(project.read("src/tools.generated.ts")).toContain("// BillingTools.charge\n");
  });

  it("prints the warning with --check without changing its exit code", async () => {
    await run(["codegen"], project.dir);
    expect(await run(["codegen", "--check"], project.dir)).toEqual({
      code: 0,
      out: "src/tools.generated.ts is up to date (2 tools, 2 warnings).\n",
      err: `${warnings.join("\n")}\n`,
    });
  });

  it("prints warnings beside errors in position order, counting both", async () => {
    project.edit("src/billingTools.ts", "refund(refund: Refund)", "refund(refund: unknown)");
    const result = await run(["codegen"], project.dir);
    expect(result).toEqual({
      code: 1,
      out: "",
      err: [
        warnings[1],
        "src/billingTools.ts:36:10 - error TW302: BillingTools.refund(refund) is 'unknown', which gives the model no schema; give it a type, or add @asType refund any to the method's JSDoc to accept any JSON value.",
        "",
        "Found 1 error and 1 warning.",
        "",
      ].join("\n"),
    });
  });

  it("reports the warning to --watch and keeps generating", () => {
    const watcher = watchToolSchemas({ cwd: project.dir }, () => undefined, false);
    try {
      expect(watcher.initial.analysis.warnings.map(formatDiagnostic)).toEqual(warnings);
      expect(watcher.initial.written).toBe(true);
      project.edit("src/billingTools.ts", "price: Money", "price: { amount: number }");
      const event = watcher.regenerate([project.path("src/billingTools.ts")]);
      expect(event.analysis.warnings.map(formatDiagnostic)).toEqual([warnings[0]]);
      expect(event.written).toBe(true);
    } finally {
      watcher.close();
    }
  });
});
