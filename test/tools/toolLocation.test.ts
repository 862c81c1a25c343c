import { main } from "../../codegen/cli";
import { clearSignatureSources } from "../../src/tools/signatureChange";
import { Agent, ConfigurationError } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { z } from "zod";
import { loadFresh } from "../codegen/helpers/loadFresh";
import { captured, TempProject } from "../codegen/helpers/tempProject";

const billingTools = `import { tool, defineTool } from "toolwright";

export class BillingTools {
  /** Refund an amount. */
  @tool({ inputsFromState: { customer_id: "customerId" } })
  refund(amount: number, customerId: string): string {
    return customerId + amount;
  }

  /** Charge an amount. */
  @tool({ timeoutMs: 0 })
  charge(amount: number): string {
    return String(amount);
  }
}

/** Convert an amount. */
export const convert = defineTool((amount: number, to: "EUR" | "USD"): string => \`\${amount} \${to}\`);
`;

type Loaded = { BillingTools: new () => object; convert: object };

// The project's generated module and tools, loaded fresh, as a tsx process would load them.
function load(project: TempProject): Loaded {
  return loadFresh<Loaded>(project, "src/billingTools.ts");
}

function agentError(tools: object[], stateSchema?: Record<string, { type: z.ZodType }>): ConfigurationError {
  try {
    new Agent({ chatGenerator: new ScriptedChatGenerator([]), tools, ...(stateSchema && { stateSchema }) });
  } catch (error) {
    return error as ConfigurationError;
  }
  throw new Error("expected a ConfigurationError");
}

async function codegen(project: TempProject, ...flags: string[]): Promise<{ code: number; out: string }> {
  const out = captured();
  const code = await main(["codegen", ...flags], out, captured(), project.dir);
  return { code, out: out.text };
}

describe("toolLocation", () => {
  let project: TempProject;
  const cwd = process.cwd();
  beforeEach(async () => {
    project = new TempProject({ "src/billingTools.ts": billingTools.replace("@tool({ timeoutMs: 0 })", "@tool") });
    expect((await codegen(project)).code).toBe(0);
    process.chdir(project.dir);
  });
  afterEach(() => {
    process.chdir(cwd);
    project.dispose();
  });

  it("gives a state key error the tool's file:line:col", () => {
    const { BillingTools } = load(project);
    expect(agentError([new BillingTools()], { customer: { type: z.string() } }).message).toBe(
      "Tool 'refund' reads state key 'customer_id' through inputsFromState, but the Agent's stateSchema has no such key; add 'customer_id' to stateSchema or fix the key. State keys: customer, messages. (BillingTools.refund (src/billingTools.ts:6:3))",
    );
  });

  it("gives a decorator option error the tool's file:line:col", async () => {
    project.edit("src/billingTools.ts", "@tool\n  charge", "@tool({ timeoutMs: 0 })\n  charge");
    expect((await codegen(project)).code).toBe(0);
    const { BillingTools } = load(project);
    const error = agentError([new BillingTools()]);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toBe(
      "Tool 'charge' has timeoutMs number 0: it must be a whole number of milliseconds from 1 to 2147483647, or left out for the Agent's toolTimeoutMs (BillingTools.charge (src/billingTools.ts:12:3)).",
    );
  });

  it("follows a tool that moved without making the generated module stale", async () => {
    project.edit("src/billingTools.ts", "export class BillingTools {", "// The billing tools.\n\nexport class BillingTools {");
    expect(await codegen(project, "--check")).toEqual({ code: 0, out: "src/tools.generated.ts is up to date (3 tools).\n" });
    const { BillingTools, convert } = load(project);
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([]), tools: [new BillingTools(), convert], stateSchema: { customer_id: { type: z.string() } } });
    expect(agent.tools.map((t) => t.source)).toEqual([
      "BillingTools.refund (src/billingTools.ts:8:3)",
      "BillingTools.charge (src/billingTools.ts:14:3)",
      "convert (src/billingTools.ts:20:24)",
    ]);
  });

  it("gives the file alone when the source cannot be read (production)", () => {
    const { BillingTools } = load(project);
    const env = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    try {
      clearSignatureSources();
      expect(agentError([new BillingTools()], { customer: { type: z.string() } }).message).toMatch(/\(BillingTools\.refund \(src\/billingTools\.ts\)\)$/);
    } finally {
      process.env.NODE_ENV = env;
    }
  });
});
