import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const repoRoot = path.resolve(__dirname, "..", "..", "..");

/** The tsconfig of a temporary project: its `src/` files, with `toolwright` mapped to this repository's source. */
export const tempTsconfig = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2022"],
    module: "commonjs",
    strict: true,
    esModuleInterop: true,
    skipLibCheck: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    useDefineForClassFields: false,
    noEmit: true,
    types: ["node"],
    typeRoots: [path.join(repoRoot, "node_modules", "@types")],
    paths: { toolwright: [path.join(repoRoot, "dist", "src", "index.d.ts")] },
  },
  include: ["src/**/*.ts"],
};

/** A project in a fresh directory under the OS temp dir: write, edit and remove files by relative path. */
export class TempProject {
  /** The project directory (absolute). */
  readonly dir: string;

  constructor(files: Record<string, string>, packageJson: Record<string, unknown> = { name: "temp-project", private: true }) {
    this.dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "toolwright-codegen-")));
    this.write("tsconfig.json", JSON.stringify(tempTsconfig, null, 2));
    this.write("package.json", JSON.stringify(packageJson, null, 2));
    for (const [file, text] of Object.entries(files)) this.write(file, text);
  }

  /** The absolute path of a project file. */
  path(file: string): string {
    return path.join(this.dir, file);
  }

  write(file: string, text: string): void {
    fs.mkdirSync(path.dirname(this.path(file)), { recursive: true });
    fs.writeFileSync(this.path(file), text);
  }

  read(file: string): string {
    return fs.readFileSync(this.path(file), "utf8");
  }

  exists(file: string): boolean {
    return fs.existsSync(this.path(file));
  }

  /** Replaces `from` (which must occur) with `to` in a file. */
  edit(file: string, from: string, to: string): void {
    const text = this.read(file);
    if (!text.includes(from)) throw new Error(`${file} does not contain ${JSON.stringify(from)}`);
    this.write(file, text.replace(from, to));
  }

  remove(file: string): void {
    fs.rmSync(this.path(file));
  }

  /** Removes the whole directory. */
  dispose(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A writable stream that keeps what is written, for asserting a CLI's exact output. */
export class CapturedStream {
  text = "";

  write(chunk: string | Uint8Array): boolean {
    this.text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return true;
  }
}

/** `CapturedStream` typed as the stream `main` expects. */
export function captured(): CapturedStream & NodeJS.WritableStream {
  return new CapturedStream() as CapturedStream & NodeJS.WritableStream;
}

/** Two decorated tools of a support desk, the source the codegen tests generate from. */
export const supportToolsSource = `import { tool } from "toolwright";

export class SupportTools {
  /** Search the ticket archive. */
  @tool
  search(query: string): string[] {
    return [query];
  }

  /** Close a ticket. */
  @tool({ name: "close_ticket" })
  close(ticketId: string): string {
    return ticketId;
  }
}
`;
