import { main } from "../../codegen/cli";
import { clearSignatureSources } from "../../src/tools/signatureChange";
import { Agent, ConfigurationError, StaleSchemaError } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { loadFresh } from "../codegen/helpers/loadFresh";
import { captured, TempProject } from "../codegen/helpers/tempProject";

const billingTools = `import { tool, defineTool } from "toolwright";

export class BillingTools {
  /** Refund an amount. */
  @tool
  refund(amount: string, note?: string): string {
    return amount.replace(",", ".") + (note ?? "");
  }
}

/** Convert an amount. */
export const convert = defineTool((amount: number, to: "EUR" | "USD"): string => \`\${amount} \${to}\`);
`;

const command = "npx toolwright codegen --project tsconfig.json --out src/tools.generated.ts";

// The project's generated module and tools, loaded fresh (as a tsx or SWC process would, types stripped).
function load(project: TempProject): { BillingTools: new () => object; convert: object } {
  return loadFresh(project, "src/billingTools.ts");
}

function agentError(tools: object[]): ConfigurationError {
  try {
    new Agent({ chatGenerator: new ScriptedChatGenerator([]), tools });
  } catch (error) {
    return error as ConfigurationError;
  }
  throw new Error("expected a ConfigurationError");
}

describe("signatureChange", () => {
  let project: TempProject;
  const cwd = process.cwd();
  beforeEach(async () => {
    project = new TempProject({ "src/billingTools.ts": billingTools });
    const out = captured();
    const err = captured();
    expect(await main(["codegen"], out, err, project.dir)).toBe(0);
    process.chdir(project.dir);
  });
  afterEach(() => {
    process.chdir(cwd);
    project.dispose();
  });

  it("accepts tools whose source still has the signatures codegen read, however it is formatted", () => {
    project.edit("src/billingTools.ts", "refund(amount: string, note?: string): string {", "refund(\n    amount: string, // what to refund\n    note?: string,\n  ): string {");
    const { BillingTools, convert } = load(project);
    expect(new Agent({ chatGenerator: new ScriptedChatGenerator([]), tools: [new BillingTools(), convert] }).tools.map((t) => t.name)).toEqual(["refund", "convert"]);
  });

  it("throws StaleSchemaError naming the tool, its new signature and the command when a parameter's type changed", () => {
    project.edit("src/billingTools.ts", "refund(amount: string,", "refund(amount: number,");
    project.edit("src/billingTools.ts", 'amount.replace(",", ".")', "String(amount)");
    const { BillingTools } = load(project);
    const error = agentError([new BillingTools()]);
    expect(error).toBeInstanceOf(StaleSchemaError);
    expect(error.message).toBe(
      `BillingTools.refund (src/billingTools.ts:6:3) has changed since src/tools.generated.ts was generated: its signature is now (amount: number, note?: string): string, which is not the one the generated schema was built from. Run \`${command}\` to regenerate it.`,
    );
  });

  it("throws StaleSchemaError when a return type changed", () => {
    project.edit("src/billingTools.ts", "note?: string): string {", "note?: string): number {");
    project.edit("src/billingTools.ts", 'return amount.replace(",", ".") + (note ?? "");', "return amount.length + (note ?? \"\").length;");
    const { BillingTools } = load(project);
    expect(agentError([new BillingTools()]).message).toBe(
      `BillingTools.refund (src/billingTools.ts:6:3) has changed since src/tools.generated.ts was generated: its signature is now (amount: string, note?: string): number, which is not the one the generated schema was built from. Run \`${command}\` to regenerate it.`,
    );
  });

  it("throws StaleSchemaError for a defineTool function whose parameter types changed", () => {
    project.edit("src/billingTools.ts", 'to: "EUR" | "USD"', 'to: "EUR" | "GBP"');
    const { convert } = load(project);
    const error = agentError([convert]);
    expect(error).toBeInstanceOf(StaleSchemaError);
    expect(error.message).toBe(
      `convert (src/billingTools.ts:12:24) has changed since src/tools.generated.ts was generated: its parameter or return types are not the ones the generated schema was built from. Run \`${command}\` to regenerate it.`,
    );
  });

  it("does not check when the source file cannot be read (production: only the built code)", () => {
    project.edit("src/billingTools.ts", "refund(amount: string,", "refund(amount: number,");
    const { BillingTools } = load(project);
    project.remove("src/billingTools.ts");
    clearSignatureSources();
    expect(new Agent({ chatGenerator: new ScriptedChatGenerator([]), tools: [new BillingTools()] }).tools.map((t) => t.name)).toEqual(["refund"]);
  });

  it("does not check under NODE_ENV=production", () => {
    project.edit("src/billingTools.ts", "refund(amount: string,", "refund(amount: number,");
    const { BillingTools } = load(project);
    const env = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    try {
      clearSignatureSources();
      expect(new Agent({ chatGenerator: new ScriptedChatGenerator([]), tools: [new BillingTools()] }).tools.map((t) => t.name)).toEqual(["refund"]);
    } finally {
      process.env.NODE_ENV = env;
    }
  });
});
