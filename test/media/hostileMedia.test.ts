// Hostile input into every way an image or a file is made: random bytes, base64 that is and is not
// base64, MIME types, details, meta, file names and URLs, into the ImageContent and FileContent
// constructors and into ChatMessage.fromJSON with image and file parts. Each call gives a valid part
// or a ConfigurationError naming its subject and one of the rules below; never another error, and
// never the data's base64 inside the message (messages reach logs and models).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { ChatMessage, ConfigurationError, FileContent, ImageContent, mediaLimits } from "toolwright";

/** What an error may say after its subject: every rule the media constructors and ChatMessage.fromJSON check. */
const knownRules: readonly RegExp[] = [
  /^needs base64 data as a string, got /,
  /^was given data that is not valid base64 \(standard alphabet /,
  /^holds \d+ bytes, over the limit of 20971520 bytes per image or file; /,
  /^needs the bytes as a Buffer or Uint8Array, got /,
  /^needs a file path, got /,
  /^could not read '/,
  /^was given '.*', which is not a file\.$/s,
  /^needs a URL as a string, got /,
  /^was given a URL of \d+ characters, over the limit of 8192\.$/,
  /^was given \d+ characters of what looks like base64, not a URL; /,
  /^was given ".*", which is not a URL; /s,
  /^was given a [^ ]+: URL; give an http\(s\) URL /,
  /^needs mimeType as a string, got /,
  /^was given mimeType ".*", which is not (an image|a valid) MIME type\.$/s,
  /^was given mimeType [^ ]+, but the data is .* \(by its first bytes\); /,
  /^could not tell the data's type from its first bytes; give mimeType\.$/,
  /^was given detail /,
  /^needs (meta|extra) as a plain object, got /,
  /^has (meta|extra) nested more than 64 levels deep\.$/,
  /^was given filename /,
  /^needs (meta|extra) as plain JSON \(objects, arrays, strings, finite numbers, booleans and null\), but (meta|extra)\b.* is .*\.$/s,
  /^needs an object \{ base64_(image|data), /,
];

// The subjects a part's errors name: the constructor, or where in a message's JSON the part is.
const partSubject = /^(?:(?:ImageContent|FileContent)\.from(?:Base64|Bytes|File|Url|JSON)|ChatMessage\.fromJSON content\[\d+\](?:\.tool_call_result\.result\[\d+\])?\.(?:image|file))$/;
const messageRule = /^ChatMessage\.fromJSON received a value that is not a ChatMessage JSON object: /;

/** Checks an error from hostile input: its class, subject, rule, one sentence, and that it holds none of `data` (base64). */
function checkRefusal(error: unknown, data: readonly string[]): void {
  if (!(error instanceof ConfigurationError) || error.constructor !== ConfigurationError) throw new Error(`not a ConfigurationError: ${String(error)}`, { cause: error });
  const { subject, message } = error;
  if (subject === "ChatMessage.fromJSON") {
    expect(message).toMatch(messageRule);
  } else {
    expect(subject).toMatch(partSubject);
    expect(message.startsWith(`${subject} `)).toBe(true);
    const rule = message.slice(subject.length + 1);
    if (!knownRules.some((known) => known.test(rule))) throw new Error(`an unknown rule: ${message}`);
  }
  expect(message.endsWith(".")).toBe(true);
  for (const text of data) {
    for (let i = 0; i + 16 <= text.length; i++) if (message.includes(text.slice(i, i + 16))) throw new Error(`the message holds the data's base64: ${message}`);
  }
}

/** The base64 an input holds: base64 text itself, the payload of a data: URL, the base64 of bytes. */
function base64Of(...inputs: unknown[]): string[] {
  const found: string[] = [];
  for (const input of inputs) {
    if (input instanceof Uint8Array) found.push(Buffer.from(input).toString("base64"));
    else if (typeof input === "string" && /^[A-Za-z0-9+/=]+$/.test(input)) found.push(input);
    else if (typeof input === "string" && input.startsWith("data:")) found.push(input.slice(input.indexOf(",") + 1));
  }
  return found;
}

// How many calls made a part and how many were refused, so that each property is seen to reach both.
const tally = { made: 0, refused: 0 };

beforeEach(() => {
  tally.made = 0;
  tally.refused = 0;
});

function attempt<T>(make: () => T, data: readonly string[]): T | undefined {
  try {
    const made = make();
    tally.made++;
    return made;
  } catch (error) {
    checkRefusal(error, data);
    tally.refused++;
    return undefined;
  }
}

function expectBothOutcomes(): void {
  expect(tally.made).toBeGreaterThan(10);
  expect(tally.refused).toBeGreaterThan(10);
}

// Haystack's IMAGE_MIME_TYPES, which ImageContent accepts so that Haystack's messages load.
const imageMimes = new Set([
  "image/bmp", "image/x-pcx", "application/postscript", "image/gif", "image/png", "image/jp2", "image/icns", "image/x-icon", "image/jpeg",
  "video/mpeg", "image/tiff", "image/mpo", "image/palm", "application/pdf", "image/x-portable-anymap", "image/vnd.adobe.photoshop",
  "image/sgi", "image/x-tga", "image/webp", "image/xbm", "image/xpm", "image/jpg",
]);

/** Checks a part made from hostile input: its kind, a type it may hold, and its bytes agree with its base64. */
function checkPart(part: ImageContent | FileContent, bytes?: Uint8Array): void {
  expect(ImageContent.isImageContent(part) || FileContent.isFileContent(part)).toBe(true);
  if (part.url !== undefined) {
    expect(part.url.startsWith("https:") || part.url.startsWith("http:")).toBe(true);
    return;
  }
  const base64 = ImageContent.isImageContent(part) ? part.base64Image! : part.base64Data!;
  expect(Buffer.from(part.bytes!).toString("base64")).toBe(base64);
  expect(part.byteLength).toBeLessThanOrEqual(mediaLimits.maxPartBytes);
  if (bytes !== undefined) expect(Buffer.from(part.bytes!).equals(Buffer.from(bytes))).toBe(true);
  if (ImageContent.isImageContent(part)) expect(imageMimes.has(part.mimeType!)).toBe(true);
  expect(part.describe()).toEqual(expect.objectContaining({ type: part.kind, bytes: part.byteLength, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }));
}

const signatures = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  [0xff, 0xd8, 0xff],
  [...Buffer.from("GIF89a")],
  [...Buffer.from("RIFF\0\0\0\0WEBP")],
  [0x42, 0x4d],
  [0x49, 0x49, 0x2a, 0x00],
  [...Buffer.from("%PDF-1.7")],
];

const junk = fc.constantFrom<unknown>(null, undefined, 0, Number.NaN, true, [], {}, Symbol("s"), 10n, new Date(0), () => 1, new Map(), Buffer.from("x"));

const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 48 }),
  fc.tuple(fc.constantFrom(...signatures), fc.uint8Array({ maxLength: 48 })).map(([head, tail]) => Uint8Array.from([...head, ...tail])),
);

const base64Text = fc.oneof(
  bytes.map((b) => Buffer.from(b).toString("base64")),
  fc.base64String({ maxLength: 64 }),
  fc.string({ maxLength: 64 }),
  fc.tuple(bytes, fc.constantFrom(" ", "\n", "-", "_", "=", "%", "é", "\u0000"), fc.nat()).map(([b, mark, at]) => {
    const text = Buffer.from(b).toString("base64");
    const i = at % (text.length + 1);
    return text.slice(0, i) + mark + text.slice(i);
  }),
  bytes.map((b) => Buffer.from(b).toString("base64").replace(/=+$/, "")),
  bytes.map((b) => `data:image/png;base64,${Buffer.from(b).toString("base64")}`),
);

const mime = fc.oneof(
  fc.constantFrom(undefined, "image/png", "IMAGE/PNG", "image/jpeg", "image/jpg", "image/gif", "image/webp", "application/pdf", "text/plain", "text/csv", "text/xml", "", "image/", "/png", "image/png; charset=x", "video/mpeg", "x".repeat(300)),
  fc.string({ maxLength: 40 }),
);

const detail = fc.oneof(fc.constantFrom(undefined, null, "auto", "high", "low", "LOW", "", "ultra"), junk);

const deep: unknown = JSON.parse(`${'{"a":'.repeat(100)}1${"}".repeat(100)}`);
const meta = fc.oneof(
  fc.constantFrom(undefined, null, deep, Object.create(null) as object),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
  fc.jsonValue({ maxDepth: 2 }),
  fc.anything({ maxDepth: 2, withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withNullPrototype: true, withBoxedValues: true, withSparseArray: true }),
  junk,
);

const filename = fc.oneof(fc.constantFrom(undefined, null, "invoice.pdf", "", "a/b.pdf", "a\\b.pdf", "x\u0000y", "n".repeat(255), "n".repeat(256), "..", " "), fc.string({ maxLength: 40 }), junk);

const url = fc.oneof(
  fc.webUrl(),
  fc.string({ maxLength: 80 }),
  fc.tuple(fc.constantFrom("image/png", "image/jpeg", "application/pdf", "text/plain", "IMAGE/PNG", "x/y"), base64Text).map(([m, b]) => `data:${m};base64,${b}`),
  fc.constantFrom("javascript:alert(1)", "file:///etc/passwd", "ftp://example.com/a.png", "data:image/png,raw", `https://example.com/${"a".repeat(9000)}`, "http://[::1", "//example.com/x.png", "https://example.com/cat.png"),
  base64Text,
);

/** Mostly a value that should pass, sometimes a hostile one: so that each property reaches both outcomes. */
function mostly<T>(valid: fc.Arbitrary<T>, hostile: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: hostile, weight: 1 });
}

const signed = fc.tuple(fc.constantFrom(...signatures), fc.uint8Array({ maxLength: 48 })).map(([head, tail]) => Uint8Array.from([...head, ...tail]));
const b64In = mostly(signed.map((b) => Buffer.from(b).toString("base64")), fc.oneof(base64Text, junk));
const bytesIn = mostly(signed, fc.oneof(bytes, base64Text, junk));
const urlIn = mostly(fc.webUrl(), fc.oneof(url, junk));
const mimeIn = mostly(fc.constant(undefined), fc.oneof(mime, junk));
const detailIn = mostly(fc.constantFrom(undefined, "auto", "low", "high"), detail);
const metaIn = mostly(fc.constantFrom(undefined, {}, { source: "scan" }), meta);
const filenameIn = mostly(fc.constantFrom(undefined, "chart.png", "invoice.pdf"), filename);

describe("ImageContent and FileContent on hostile input", () => {
  it("give a valid image or a known ConfigurationError from fromBase64, fromBytes and fromUrl", () => {
    fc.assert(
      fc.property(b64In, bytesIn, urlIn, mimeIn, detailIn, metaIn, (b64, raw, link, mimeType, d, m) => {
        const options = { mimeType, detail: d, meta: m } as never;
        const made = [
          attempt(() => ImageContent.fromBase64(b64 as string, options), base64Of(b64)),
          attempt(() => ImageContent.fromBytes(raw as Uint8Array, options), base64Of(raw)),
          attempt(() => ImageContent.fromUrl(link as string, options), base64Of(link)),
        ];
        for (const part of made) if (part !== undefined) checkPart(part);
        if (made[1] !== undefined) checkPart(made[1], raw as Uint8Array);
      }),
      { numRuns: 300 },
    );
    expectBothOutcomes();
  });

  it("give a valid file or a known ConfigurationError from fromBase64, fromBytes and fromUrl", () => {
    fc.assert(
      fc.property(b64In, bytesIn, urlIn, mimeIn, filenameIn, metaIn, (b64, raw, link, mimeType, name, extra) => {
        const options = { mimeType, filename: name, extra } as never;
        const made = [
          attempt(() => FileContent.fromBase64(b64 as string, options), base64Of(b64)),
          attempt(() => FileContent.fromBytes(raw as Uint8Array, options), base64Of(raw)),
          attempt(() => FileContent.fromUrl(link as string, options), base64Of(link)),
        ];
        for (const part of made) if (part !== undefined) checkPart(part);
      }),
      { numRuns: 300 },
    );
    expectBothOutcomes();
  });

  it("give a valid part or a known ConfigurationError from fromJSON, Haystack's dicts with hostile fields", () => {
    const imageJSON = fc.record({ base64_image: b64In, url: urlIn, mime_type: mimeIn, detail: detailIn, meta: metaIn, validation: mostly(fc.boolean(), junk) }, { requiredKeys: [] });
    const fileJSON = fc.record({ base64_data: b64In, url: urlIn, mime_type: mimeIn, filename: filenameIn, extra: metaIn, validation: mostly(fc.boolean(), junk) }, { requiredKeys: [] });
    fc.assert(
      fc.property(mostly(imageJSON, junk), mostly(fileJSON, junk), (image, file) => {
        const fields = (json: unknown) => (typeof json === "object" && json !== null ? Object.entries(json).flatMap(([key, value]) => (["base64_image", "base64_data", "url"].includes(key) ? [value] : [])) : []);
        const made = [attempt(() => ImageContent.fromJSON(image), base64Of(...fields(image))), attempt(() => FileContent.fromJSON(file), base64Of(...fields(file)))];
        for (const part of made) if (part !== undefined) checkPart(part);
      }),
      { numRuns: 300 },
    );
    expectBothOutcomes();
  });

  it("give a valid part or a known ConfigurationError from fromFile, on random contents and paths", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwright-hostile-media-"));
    try {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(mostly(signed, bytes) as fc.Arbitrary<Uint8Array>, mostly(fc.constant("file"), fc.constantFrom<unknown>("missing", "dir", "", null, 1)), mimeIn, filenameIn, async (content, where, mimeType, name) => {
          const file = path.join(dir, `f${n++}`);
          fs.writeFileSync(file, content);
          const target = where === "file" ? file : where === "missing" ? path.join(dir, "missing", "x.png") : where === "dir" ? dir : where;
          for (const make of [() => ImageContent.fromFile(target as string, { mimeType } as never), () => FileContent.fromFile(target as string, { mimeType, filename: name } as never)]) {
            const part = await make().catch((error: unknown) => void (checkRefusal(error, base64Of(content)), tally.refused++));
            if (part) (checkPart(part, content), tally.made++);
          }
        }),
        { numRuns: 100 },
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expectBothOutcomes();
  });
});

describe("ChatMessage.fromJSON on hostile image and file parts", () => {
  it("gives a message whose parts are valid, or a known ConfigurationError", () => {
    const imageJSON = fc.record({ base64_image: b64In, mime_type: mimeIn, detail: detailIn, meta: metaIn, validation: mostly(fc.boolean(), junk) }, { requiredKeys: ["base64_image"] });
    const fileJSON = fc.record({ base64_data: b64In, url: urlIn, mime_type: mimeIn, filename: filenameIn, extra: metaIn, validation: fc.boolean() }, { requiredKeys: ["base64_data"] });
    const mediaPart = fc.oneof(fc.record({ image: mostly(imageJSON, junk) }), fc.record({ file: mostly(fileJSON, junk) }));
    const part = fc.oneof(
      mediaPart,
      fc.record({ text: fc.string({ maxLength: 8 }) }),
      fc.array(fc.oneof(mediaPart, fc.record({ text: fc.string({ maxLength: 8 }) })), { maxLength: 3 }).map((result) => ({ tool_call_result: { result, origin: { tool_name: "chart", arguments: {}, id: "c1" }, error: false } })),
    );
    fc.assert(
      fc.property(fc.constantFrom("user", "tool", "assistant"), fc.array(part, { maxLength: 3 }), (role, content) => {
        const data: string[] = [];
        JSON.stringify(content, (key, value: unknown) => (["base64_image", "base64_data", "url"].includes(key) && data.push(...base64Of(value)), typeof value === "bigint" ? 0 : value));
        const message = attempt(() => ChatMessage.fromJSON({ role, content }), data);
        if (message === undefined) return;
        for (const media of [...message.images, ...message.files]) checkPart(media);
        expect(ChatMessage.fromJSON(JSON.parse(JSON.stringify(message.toJSON())))).toEqual(message);
      }),
      { numRuns: 300 },
    );
    expectBothOutcomes();
  });
});

describe("decodeBase64", () => {
  // 30 MiB of characters that are not base64: refused for its length, before any character is read or decoded.
  const huge = "!".repeat(30 * 1024 * 1024);
  const sizeRule = "holds 23592960 bytes, over the limit of 20971520 bytes per image or file; send a smaller or compressed one (providers refuse larger ones too).";

  afterEach(() => jest.restoreAllMocks());

  it.each([
    ["ImageContent.fromBase64", () => ImageContent.fromBase64(huge)],
    ["FileContent.fromBase64", () => FileContent.fromBase64(huge)],
    ["ImageContent.fromUrl", () => ImageContent.fromUrl(`data:image/png;base64,${huge}`)],
    ["ChatMessage.fromJSON content[0].image", () => ChatMessage.fromJSON({ role: "user", content: [{ image: { base64_image: huge, mime_type: "image/png" } }] })],
  ])("refuses a 30 MB base64 string given to %s by its length, without decoding it", (subject, make) => {
    const decode = jest.spyOn(Buffer, "from");

    expect(make).toThrow(new ConfigurationError(subject, `${subject} ${sizeRule}`));
    expect(decode).not.toHaveBeenCalled();
  });

  it("refuses a file over the limit from its size, unread", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwright-hostile-media-"));
    try {
      const file = path.join(dir, "big.png");
      fs.writeFileSync(file, Buffer.from(signatures[0]!));
      fs.truncateSync(file, mediaLimits.maxPartBytes + 1);

      await expect(ImageContent.fromFile(file)).rejects.toThrow(new ConfigurationError("ImageContent.fromFile", "ImageContent.fromFile holds 20971521 bytes, over the limit of 20971520 bytes per image or file; send a smaller or compressed one (providers refuse larger ones too)."));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("ImageContent on the likely mistakes", () => {
  const pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mP8/x8AAwMCAO+ip1sAAAAASUVORK5CYII=";

  it("names base64 given to fromBytes by its length, without echoing it", () => {
    expect(() => ImageContent.fromBytes(pngBase64 as never)).toThrow(
      new ConfigurationError("ImageContent.fromBytes", "ImageContent.fromBytes needs the bytes as a Buffer or Uint8Array, got a string of 92 characters; give base64 to fromBase64."),
    );
  });

  it("names base64 given to fromUrl as base64, without echoing it", () => {
    expect(() => ImageContent.fromUrl(pngBase64)).toThrow(
      new ConfigurationError("ImageContent.fromUrl", "ImageContent.fromUrl was given 92 characters of what looks like base64, not a URL; give base64 to fromBase64, or a data:<mime>;base64, URL."),
    );
    expect(() => ImageContent.fromUrl("not a url")).toThrow('ImageContent.fromUrl was given "not a url", which is not a URL; give an http(s) URL, a data: URL, or the bytes.');
  });

  it("refuses a path that does not exist with a ConfigurationError that keeps the file system's error", async () => {
    const missing = path.join(os.tmpdir(), "toolwright-no-such-dir", "chart.png");

    const error = await ImageContent.fromFile(missing).catch((e: unknown) => e as ConfigurationError);

    expect(error).toEqual(new ConfigurationError("ImageContent.fromFile", `ImageContent.fromFile could not read '${missing}' (ENOENT); give the path of an existing file.`));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).cause).toMatchObject({ code: "ENOENT" });
  });

  it("refuses base64 whose last character carries bits beyond the data, which would decode to other base64", () => {
    expect(() => FileContent.fromBase64("AB==")).toThrow(
      'FileContent.fromBase64 was given data that is not valid base64 (standard alphabet A-Z a-z 0-9 + /, padded with = to a multiple of 4 characters, no whitespace or data: prefix); encode the bytes with Buffer.from(bytes).toString("base64").',
    );
    expect(() => FileContent.fromBase64("AAB=")).toThrow("FileContent.fromBase64 was given data that is not valid base64");
    expect(FileContent.fromBase64("AA==", { mimeType: "application/octet-stream" }).bytes).toEqual(Uint8Array.from([0]));
    expect(FileContent.fromBase64("AAE=", { mimeType: "application/octet-stream" }).bytes).toEqual(Uint8Array.from([0, 1]));
  });

  it("refuses meta that JSON cannot carry unchanged, naming where", () => {
    expect(() => ImageContent.fromBase64(pngBase64, { meta: { taken: { at: new Date(0) } } })).toThrow(
      new ConfigurationError("ImageContent.fromBase64", "ImageContent.fromBase64 needs meta as plain JSON (objects, arrays, strings, finite numbers, booleans and null), but meta.taken.at is a Date."),
    );
    expect(() => FileContent.fromBytes(Buffer.from("a,b\n"), { mimeType: "text/csv", extra: { rows: [1, Number.NaN] } })).toThrow(
      "FileContent.fromBytes needs extra as plain JSON (objects, arrays, strings, finite numbers, booleans and null), but extra.rows[1] is number NaN.",
    );
    expect(() => ImageContent.fromBase64(pngBase64, { meta: { pixels: new Uint32Array([1]) } })).toThrow("but meta.pixels is a Uint32Array.");
    expect(ImageContent.fromBase64(pngBase64, { meta: { source: "scan", note: undefined } }).toJSON().meta).toEqual({ source: "scan" });
  });
});
