import "../../examples/service/tools.generated";
import { mkdtemp, rm } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { refundDeskAgent } from "../../examples/service/main";
import { buildPage } from "../../examples/web/buildPage";
import { createWebServer } from "../../examples/web/server";
import { GatedDeskModel } from "./gatedDeskModel";

// Every assertion below reads what toolwright/ui streams (text, tool parts, approval requests,
// data-state) or what fromUIMessages reads back, except "serves the bundled page".
describe("examples/web chat page", () => {
  let dir: string;
  let server: Server;
  let base: string;
  let browser: Browser;
  let page: Page;
  const model = new GatedDeskModel();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "toolwright-web-"));
    await buildPage(join(dir, "page"));
    server = createWebServer({ agent: refundDeskAgent(model), customerId: "c-42", pageDir: join(dir, "page") });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", headless: true, args: ["--no-sandbox"] });
  });

  beforeEach(async () => {
    page = await browser.newPage();
  });

  afterEach(async () => {
    await page.close();
  });

  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  // On a failed step the page's screenshot goes to the temp dir (kept: its path is in the error).
  async function step(name: string, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      const file = join(await mkdtemp(join(tmpdir(), "toolwright-web-failure-")), `${name.replace(/\W+/g, "-")}.png`);
      await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
      throw new Error(`Step '${name}' failed (screenshot: ${file}): ${(error as Error).message}`, { cause: error });
    }
  }

  async function send(text: string): Promise<void> {
    await page.getByLabel("Message").fill(text);
    await page.getByRole("button", { name: "Send" }).click();
  }

  const assistantTexts = () => page.locator("[data-testid=message-assistant] > p").allTextContents();
  const toolCard = (tool: string, state: string) => page.locator(`[data-testid=tool-card][data-tool=${tool}][data-state=${state}]`);

  it("serves the bundled page with no request leaving 127.0.0.1", async () => {
    const outside: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(base)) outside.push(request.url());
    });
    await step("load", async () => {
      await page.goto(base);
      await page.getByRole("heading", { name: "Refund desk" }).waitFor();
      expect(new URL(page.url()).searchParams.get("chat")).toMatch(/^[\w-]{36}$/);
      expect(await page.getByTestId("status").textContent()).toBe("ready");
    });
    expect(outside).toEqual([]);
  });

  it("streams the answer, asks to approve the refund, and shows the result and the state once approved", async () => {
    await step("ask", async () => {
      await page.goto(base);
      await send("Please refund order A-100");
      await toolCard("issue_refund", "approval-requested").waitFor();
      expect(await page.locator("[data-testid=message-user]").allTextContents()).toEqual(["Please refund order A-100"]);
      expect(await toolCard("lookup_order", "output-available").textContent()).toContain("Desk lamp");
      expect(await assistantTexts()).toEqual(["Let me refund that for you."]);
      expect(await toolCard("issue_refund", "approval-requested").getByLabel("arguments").textContent()).toContain('"amount": 49');
      expect(await page.getByTestId("state-refunds").textContent()).toContain("[]");
    });
    await step("approve", async () => {
      await page.getByRole("button", { name: "Approve" }).click();
      await page.getByText("Done: your refund of 49 for A-100 is on its way.").waitFor();
      expect(await toolCard("issue_refund", "output-available").getByLabel("result").textContent()).toContain("A-100");
      expect(JSON.parse((await page.getByTestId("state-refunds").locator("pre").textContent())!)).toEqual([{ orderId: "A-100", amount: 49 }]);
      expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(0);
    });
    await step("reload after the run", async () => {
      await page.reload();
      await page.getByText("Done: your refund of 49 for A-100 is on its way.").waitFor();
      expect(await assistantTexts()).toEqual(["Let me refund that for you.", "Done: your refund of 49 for A-100 is on its way."]);
      expect(await page.getByTestId("status").textContent()).toBe("ready");
    });
  });

  it("continues the run after a reload in the middle of the answer, nothing lost or doubled", async () => {
    const release = model.holdNextReply();
    await step("ask and stop mid-answer", async () => {
      await page.goto(base);
      await send("Please refund order A-101");
      await page.locator("[data-testid=message-assistant] > p", { hasText: "Let me" }).waitFor();
      expect(await assistantTexts()).toEqual(["Let me "]);
    });
    await step("reload and follow the same run", async () => {
      await page.reload();
      await page.locator("[data-testid=message-assistant] > p", { hasText: "Let me" }).waitFor();
      release();
      await toolCard("issue_refund", "approval-requested").waitFor();
      expect(await page.locator("[data-testid=message-user]").allTextContents()).toEqual(["Please refund order A-101"]);
      expect(await assistantTexts()).toEqual(["Let me refund that for you."]);
      expect(await page.locator("[data-testid=tool-card]").count()).toBe(2);
    });
    await step("approve after the reload", async () => {
      await page.getByRole("button", { name: "Approve" }).click();
      await page.getByText("Done: your refund of 189 for A-101 is on its way.").waitFor();
      expect(JSON.parse((await page.getByTestId("state-refunds").locator("pre").textContent())!)).toEqual([{ orderId: "A-101", amount: 189 }]);
    });
  });

  it("shows a rejected refund as rejected and the desk's answer", async () => {
    await step("reject", async () => {
      await page.goto(base);
      await send("Please refund order A-100");
      await page.getByRole("button", { name: "Reject" }).click();
      await page.locator("[data-testid=message-assistant] > p", { hasText: "I could not refund A-100" }).waitFor();
      // The adapter may send the refusal as the call's error or as the AI SDK's output-denied.
      const refund = page.locator("[data-testid=tool-card][data-tool=issue_refund]");
      expect(["output-error", "output-denied"]).toContain(await refund.getAttribute("data-state"));
      expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(0);
      expect(await assistantTexts()).toEqual(["Let me refund that for you.", "I could not refund A-100: Rejected in the chat by the customer."]);
      expect(JSON.parse((await page.getByTestId("state-refunds").locator("pre").textContent())!)).toEqual([]);
    });
  });
});
