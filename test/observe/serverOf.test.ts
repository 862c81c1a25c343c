import { serverOf } from "../../src/observe/serverOf";

describe("serverOf", () => {
  it("gives an http(s) URL's host and port, or its scheme's default port", () => {
    expect(serverOf("https://api.openai.com/v1")).toEqual({ address: "api.openai.com", port: 443 });
    expect(serverOf("http://127.0.0.1:11434/v1")).toEqual({ address: "127.0.0.1", port: 11434 });
    expect(serverOf("http://localhost/v1")).toEqual({ address: "localhost", port: 80 });
  });

  it("gives an IPv6 address without its brackets", () => {
    expect(serverOf("http://[::1]:8080/v1")).toEqual({ address: "::1", port: 8080 });
  });

  it("gives neither for what is not an http(s) URL of at most 2,048 characters", () => {
    for (const value of [undefined, 42, "", "not a url", "ftp://files.example.com/", `https://example.com/${"a".repeat(2048)}`]) {
      expect(serverOf(value)).toEqual({ address: undefined, port: undefined });
    }
  });

  it("cuts a host name to 64 characters", () => {
    expect(serverOf(`https://${"h".repeat(100)}.example.com/`).address).toBe(`${"h".repeat(64)}…(112 characters)`);
  });
});
