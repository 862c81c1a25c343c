/**
 * How big images and files may be: the providers' own limits, so that what toolwright accepts a
 * provider can take (OpenAI: 20 MB per image and 50 MB per request of files; Anthropic: 5 MB per
 * image; Gemini inline data: 20 MB per request). Each part is checked when it is made, and a
 * message's parts together when the message is made.
 */
export const mediaLimits = Object.freeze({
  /** The most bytes one image or file may hold (decoded). */
  maxPartBytes: 20 * 1024 * 1024,
  /** The most bytes the images and files of one message may hold together (decoded). */
  maxMessageBytes: 50 * 1024 * 1024,
  /** A URL reference may be this many characters long. */
  maxUrlLength: 8_192,
  /** A file name may be this many characters long. */
  maxFilenameLength: 255,
});
