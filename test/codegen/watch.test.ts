import * as fs from "node:fs";
import { formatDiagnostic } from "../../codegen/diagnostics";
import { type ToolSchemaWatcher, type WatchEvent, watchToolSchemas } from "../../codegen/watch";
import { TempProject } from "./helpers/tempProject";

const files = {
  "src/query.ts": `export interface Query {
  text: string;
}
`,
  "src/searchTools.ts": `import { tool } from "toolwright";
import type { Query } from "./query";

export class SearchTools {
  @tool
  search(query: Query): string {
    return query.text;
  }
}
`,
  "src/billingTools.ts": `import { tool } from "toolwright";

export class BillingTools {
  @tool
  invoices(customer: string): string {
    return customer;
  }
}
`,
  "src/closeTools.ts": `import { tool } from "toolwright";

export class CloseTools {
  @tool
  close(ticketId: string): string {
    return ticketId;
  }
}
`,
};

const options = (project: TempProject) => ({ cwd: project.dir, project: "tsconfig.json", out: "src/tools.generated.ts" });

describe("watchToolSchemas", () => {
  describe("regenerate", () => {
    let project: TempProject;
    let watcher: ToolSchemaWatcher;
    let events: WatchEvent[];
    const module = () => project.read("src/tools.generated.ts");

    beforeAll(() => {
      project = new TempProject(files);
      events = [];
      watcher = watchToolSchemas(options(project), (event) => events.push(event), false);
    });
    afterAll(() => {
      watcher.close();
      project.dispose();
    });

    it("analyses every file and writes the module first", () => {
      expect(events).toEqual([watcher.initial]);
      expect(watcher.initial.written).toBe(true);
      expect(watcher.initial.analysis.tools.map((t) => t.name).sort()).toEqual(["close", "invoices", "search"]);
      expect(module()).toBe(watcher.initial.analysis.content);
    });

    it("re-analyses only a changed file and the files that import it, and rewrites the module", () => {
      project.edit("src/query.ts", "text: string;", "text: string;\n  limit: number;");

      const event = watcher.regenerate([project.path("src/query.ts")]);

      expect([...event.analysedFiles].sort()).toEqual([project.path("src/query.ts"), project.path("src/searchTools.ts")]);
      expect(event.analysis.diagnostics).toEqual([]);
      expect(event.written).toBe(true);
      expect(module()).toBe(event.analysis.content);
      expect(module()).toContain('"limit":{"type":"number"}');
      expect(events.at(-1)).toBe(event);
    });

    it("re-analyses a changed file alone when nothing imports it", () => {
      project.edit("src/billingTools.ts", "invoices(customer: string)", "listInvoices(customer: string)");

      const event = watcher.regenerate(["src/billingTools.ts"]);

      expect(event.analysedFiles).toEqual([project.path("src/billingTools.ts")]);
      expect(event.written).toBe(true);
      expect(module()).toContain('  this.listInvoices(listInvoices_customer); // BillingTools.listInvoices');
      expect(module()).not.toContain('"invoices"');
    });

    it("drops the tools of a deleted file", () => {
      project.remove("src/closeTools.ts");

      const event = watcher.regenerate([project.path("src/closeTools.ts")]);

      expect(event.analysedFiles).toEqual([]);
      expect(event.written).toBe(true);
      expect(event.analysis.tools.map((t) => t.name).sort()).toEqual(["listInvoices", "search"]);
      expect(module()).not.toContain("CloseTools");
    });

    it("reports the diagnostic of a file that gains an error and leaves the module untouched", () => {
      const before = module();
      const past = new Date("2001-02-03T04:05:06Z");
      fs.utimesSync(project.path("src/tools.generated.ts"), past, past);
      project.edit("src/billingTools.ts", "listInvoices(customer: string)", "listInvoices(customer: unknown)");

      const event = watcher.regenerate([project.path("src/billingTools.ts")]);

      expect(event.analysis.diagnostics.map(formatDiagnostic)).toEqual([
        "src/billingTools.ts:5:16 - error TW302: BillingTools.listInvoices(customer) is 'unknown', which gives the model no schema; give it a type, or add @asType customer any to the method's JSDoc to accept any JSON value.",
      ]);
      expect(event.analysis.content).toBeUndefined();
      expect(event.written).toBe(false);
      expect(module()).toBe(before);
      expect(fs.statSync(project.path("src/tools.generated.ts")).mtime.getTime()).toBe(past.getTime());

      project.edit("src/billingTools.ts", "listInvoices(customer: unknown)", "listInvoices(customer: string)");
      const fixed = watcher.regenerate([project.path("src/billingTools.ts")]);
      expect(fixed.analysis.diagnostics).toEqual([]);
      expect(fixed.written).toBe(false);
      expect(module()).toBe(before);
    });

    it("re-analyses the files that imported a deleted file", () => {
      project.remove("src/query.ts");

      const event = watcher.regenerate([project.path("src/query.ts")]);

      expect(event.analysedFiles).toEqual([project.path("src/searchTools.ts")]);
      expect(event.analysis.diagnostics.map(formatDiagnostic)).toEqual([
        "src/searchTools.ts:6:10 - error TW302: SearchTools.search(query) has type 'Query', which TypeScript cannot resolve, so codegen cannot tell the model what to send; fix the type or its import.",
      ]);
      expect(event.written).toBe(false);
    });
  });

  it("regenerates when a file changes on disk, until closed", async () => {
    const project = new TempProject({ "src/billingTools.ts": files["src/billingTools.ts"] });
    const watcher = watchToolSchemas(options(project), undefined, true);
    try {
      expect(project.read("src/tools.generated.ts")).toContain('  this.invoices(invoices_customer); // BillingTools.invoices');

      project.edit("src/billingTools.ts", "invoices(customer: string)", "listInvoices(customer: string)");

      const deadline = Date.now() + 3000;
      while (!project.read("src/tools.generated.ts").includes('"member":"listInvoices"') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(project.read("src/tools.generated.ts")).toContain('  this.listInvoices(listInvoices_customer); // BillingTools.listInvoices');
    } finally {
      watcher.close();
      project.dispose();
    }
  });

  it("keeps regenerating after editors' atomic saves (write a temporary file, rename it over the original)", async () => {
    const project = new TempProject({ "src/billingTools.ts": files["src/billingTools.ts"] });
    const watcher = watchToolSchemas(options(project), undefined, true);
    const atomicSave = (from: string, to: string) => {
      const text = project.read("src/billingTools.ts").replace(from, to);
      fs.writeFileSync(project.path("src/.billingTools.ts.swp"), text);
      fs.renameSync(project.path("src/.billingTools.ts.swp"), project.path("src/billingTools.ts"));
    };
    const waitFor = async (text: string) => {
      const deadline = Date.now() + 3000;
      while (!project.read("src/tools.generated.ts").includes(text) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      return project.read("src/tools.generated.ts");
    };
    try {
      atomicSave("invoices(customer: string)", "listInvoices(customer: string)");
      expect(await waitFor('this.listInvoices(')).toContain('  this.listInvoices(listInvoices_customer); // BillingTools.listInvoices');

      atomicSave("listInvoices(customer: string)", "findInvoices(customer: string)");
      expect(await waitFor('this.findInvoices(')).toContain('  this.findInvoices(findInvoices_customer); // BillingTools.findInvoices');

      atomicSave("findInvoices(customer: string)", "searchInvoices(customer: string)");
      expect(await waitFor('this.searchInvoices(')).toContain('  this.searchInvoices(searchInvoices_customer); // BillingTools.searchInvoices');
    } finally {
      watcher.close();
      project.dispose();
    }
  });
});
