import { LineCounter } from "yaml";
import { DefinitionError } from "../errors";

/** A position in a file: 1-based line and column (columns count UTF-16 code units, as editors do). */
export interface YamlPosition {
  readonly line: number;
  readonly column: number;
}

/** The text of a definition file with its name and line starts: turns offsets into positions and errors. */
export class YamlSource {
  /** Fed to `parseDocument`, which records where each line starts. */
  readonly lineCounter = new LineCounter();

  constructor(
    /** The file's text (without a leading byte-order mark). */
    readonly text: string,
    /** The file name used in messages: `agent.yaml`. */
    readonly file: string,
  ) {}

  /** The line and column of a character offset in `text` (once `parseDocument` has counted the lines). */
  position(offset: number): YamlPosition {
    const { line, col } = this.lineCounter.linePos(Math.max(0, Math.min(offset, this.text.length)));
    return { line, column: col };
  }

  /** A `DefinitionError` at `path`, located at `offset` in this file. */
  error(path: readonly (string | number)[], reason: string, offset: number): DefinitionError {
    return new DefinitionError(path, reason).at({ file: this.file, ...this.position(offset) });
  }

  /** The source text of a range on one line, cut to `max` characters, for messages. */
  excerpt(range: readonly [number, number, ...number[]], max = 40): string {
    const text = this.text.slice(range[0], Math.min(range[1], range[0] + max * 8)).replace(/\s*\n\s*/g, " ");
    return text.length > max ? `${text.slice(0, max - 3)}...` : text;
  }
}
