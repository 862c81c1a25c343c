import { runInNewContext } from "node:vm";
import { fromUIMessages } from "toolwright/ui";
import { describeKind } from "../../src/util/describeValue";
import { isPlainObject } from "../../src/util/isPlainObject";

describe("isPlainObject", () => {
  it("takes object literals, parsed JSON and prototype-less objects", () => {
    expect([{}, JSON.parse('{"a":1}'), Object.create(null)].map(isPlainObject)).toEqual([true, true, true]);
  });

  it("refuses arrays, dates, class instances and non-objects", () => {
    class Ticket {}
    expect([[], new Date(0), new Ticket(), new Map(), "x", 1, null, undefined].map(isPlainObject)).toEqual([false, false, false, false, false, false, false, false]);
  });

  it("takes a plain object of another realm and refuses its class instances and dates", () => {
    const [plain, parsed, instance, date, array] = runInNewContext('[{ a: 1 }, JSON.parse("{}"), new (class Ticket {})(), new Date(0), []]') as unknown[];
    expect([plain, parsed, instance, date, array].map(isPlainObject)).toEqual([true, true, false, false, false]);
  });
});

describe("describeKind", () => {
  it("calls a plain object of another realm an object, and its class instance by its class", () => {
    const [plain, instance] = runInNewContext("[{ a: 1 }, new (class Ticket {})()]") as unknown[];
    expect([describeKind(plain), describeKind(instance), describeKind({})]).toEqual(["an object", "a Ticket", "an object"]);
  });
});

describe("fromUIMessages", () => {
  it("reads useChat's messages parsed in another realm, as Request.json() gives them under jest", async () => {
    const body = (await new Request("http://127.0.0.1/api/chat", { method: "POST", body: JSON.stringify({ messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Hi." }] }] }) }).json()) as { messages: unknown };
    expect(fromUIMessages(body.messages).messages.map((message) => message.text)).toEqual(["Hi."]);
  });
});
