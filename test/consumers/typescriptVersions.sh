#!/usr/bin/env bash
# The TypeScript versions toolwright supports, tested: typescript/ (one @tool class, skipLibCheck false)
# gets, from typescriptVersions.json,
#   each ts-morph: codegen (ts-morph bundles its own TypeScript; it reads the app's tsconfig and source)
#   each typescript: that version's tsc compiles the decorators, the generated module and toolwright's own
#         .d.ts, then the app runs (a scripted model calls the tool; its result is asserted); again with
#         standard decorators (experimentalDecorators and emitDecoratorMetadata off)
#   the version below the floor: tsc fails on zod 4's .d.ts with the recorded error
#   ts-morph 26 (TypeScript 5.8) on TypeScript 5.9 syntax (`import defer`): TW108 naming the parser's version
# Installs into one app directory, one version after another.
# Usage: bash test/consumers/typescriptVersions.sh <toolwright tarball> <work directory>
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tarball="$1"
app="$2/typescript"
started=$SECONDS
step() { echo "consumers: typescript: $* ($((SECONDS - started)) s)"; }
fail() { echo "consumers: typescript: FAILED: $*" >&2; exit 1; }
list() { node -p "[].concat(require('$here/typescriptVersions.json').$1).join(' ')"; }
dev() { node -p "require('$root/package.json').devDependencies['$1']"; }
npmi() { npm install --no-audit --no-fund --loglevel=error "$@" >"$app/npm.txt" 2>&1 || { cat "$app/npm.txt" >&2; fail "npm install $*"; }; }
in_app() { (cd "$app" && "$@"); }

cp -r "$here/typescript" "$app"
step "install"
in_app npmi "$tarball" "zod@$(dev zod)"
in_app npmi -D "@types/node@$(dev @types/node)" "typescript@$(dev typescript)"

generated=""
for tsmorph in $(list tsMorph); do
  step "codegen with ts-morph $tsmorph"
  in_app npmi -D "ts-morph@$tsmorph"
  in_app npx --no -- toolwright codegen --project tsconfig.json --out src/tools.generated.ts >/dev/null || fail "ts-morph $tsmorph: toolwright codegen"
  # Every ts-morph writes the same module: the schema does not depend on the bundled compiler.
  if [[ -z "$generated" ]]; then generated="$(cat "$app/src/tools.generated.ts")"
  elif [[ "$(cat "$app/src/tools.generated.ts")" != "$generated" ]]; then
    diff <(echo "$generated") "$app/src/tools.generated.ts" >&2; fail "ts-morph $tsmorph generated a different module (diff above)"
  fi
done

for version in $(list typescript); do
  step "typescript $version: tsc, run"
  in_app npmi -D "typescript@$version"
  [[ "$(in_app npx --no -- tsc --version)" == "Version $version" ]] || fail "typescript $version: npx tsc is not $version"
  # The tsconfig's experimentalDecorators + emitDecoratorMetadata, then standard decorators.
  for decorators in "" "--experimentalDecorators false --emitDecoratorMetadata false"; do
    rm -rf "$app/dist"
    # shellcheck disable=SC2086 # the options are two words each
    in_app npx --no -- tsc -p tsconfig.json $decorators || fail "typescript $version: tsc $decorators"
    in_app node dist/main.js >"$app/output.txt" 2>&1 || { cat "$app/output.txt" >&2; fail "typescript $version $decorators: node dist/main.js exited non-zero"; }
    grep -qxF 'answer: It will be {"time":"00:15"}' "$app/output.txt" || { cat "$app/output.txt" >&2; fail "typescript $version $decorators: no answer in the output above"; }
  done
done

too_old="$(node -p "require('$here/typescriptVersions.json').tooOld.typescript")"
step "typescript $too_old: below the floor"
in_app npmi -D "typescript@$too_old"
if in_app npx --no -- tsc -p tsconfig.json --noEmit >"$app/old.txt" 2>&1; then fail "typescript $too_old compiled the app: lower the floor in typescriptVersions.json and docs/install.md"; fi
grep -qxF "$(node -p "require('$here/typescriptVersions.json').tooOld.error")" "$app/old.txt" || { cat "$app/old.txt" >&2; fail "typescript $too_old: not the recorded error"; }

older="$(node -p "require('$here/typescriptVersions.json').olderParser.tsMorph")"
bundles="$(node -p "require('$here/typescriptVersions.json').olderParser.bundles")"
step "ts-morph $older (TypeScript $bundles) on TypeScript 5.9 syntax"
in_app npmi -D "ts-morph@$older" "typescript@$(dev typescript)"
mkdir "$app/defer"
cp "$here/typescript/src/clockTools.ts" "$app/defer/"
cat >"$app/defer/reportTools.ts" <<'TS'
import { tool } from "toolwright";
import defer * as formats from "./formats";

/** A tool whose module loads its helpers on first use. */
export class ReportTools {
  /**
   * Format cents as euros.
   * @param cents The amount.
   */
  @tool({ name: "format_cents" })
  formatCents(cents: number): string {
    return formats.euros(cents);
  }
}
TS
echo 'export function euros(cents: number): string { return `€${(cents / 100).toFixed(2)}`; }' >"$app/defer/formats.ts"
echo '{ "compilerOptions": { "target": "ES2022", "module": "preserve", "strict": true, "experimentalDecorators": true, "noEmit": true, "types": ["node"] }, "include": ["*.ts"] }' >"$app/defer/tsconfig.json"
in_app npx --no -- tsc -p defer/tsconfig.json || fail "typescript $(dev typescript) rejects defer/ (import defer)"
if in_app npx --no -- toolwright codegen --project defer/tsconfig.json --out defer/tools.generated.ts >"$app/defer.txt" 2>&1; then
  fail "ts-morph $older: codegen read import defer"
fi
expected="defer/reportTools.ts:2:14 - error TW108: Syntax error (TS1005: '=' expected), so codegen cannot read this file's tools and leaves the generated module as it was; fix the syntax error (codegen parses with TypeScript $bundles, the version ts-morph bundles: if your compiler accepts this syntax, install a newer ts-morph)."
grep -qxF "$expected" "$app/defer.txt" || { cat "$app/defer.txt" >&2; fail "ts-morph $older: not the TW108 diagnostic expected"; }
[[ ! -e "$app/defer/tools.generated.ts" ]] || fail "ts-morph $older: codegen wrote defer/tools.generated.ts without ReportTools"
step "all passed"
