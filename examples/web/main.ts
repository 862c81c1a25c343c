import { join } from "node:path";
import { chooseChatGenerator } from "../shared/chooseChatGenerator";
import { refundDeskAgent } from "../service/main";
import { RefundDeskModel } from "../service/ruleModel";
import { buildPage } from "./buildPage";
import { createWebServer } from "./server";

/** `npm run example:web`: bundles the chat page, then serves it over the refund desk. */
async function main(): Promise<void> {
  const pageDir = join(__dirname, "page");
  const bytes = await buildPage(pageDir);
  const { chatGenerator, label } = chooseChatGenerator(() => new RefundDeskModel());
  const server = createWebServer({ agent: refundDeskAgent(chatGenerator), customerId: "c-42", pageDir });
  const port = Number(process.env.PORT ?? 3000);
  server.listen(port, "127.0.0.1", () => {
    console.log(`chat page bundled (${Math.round(bytes / 1024)} KiB, ${pageDir})`);
    console.log(`refund desk chat on http://127.0.0.1:${port}/ (model: ${label})`);
    console.log("try: Please refund order A-100");
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
