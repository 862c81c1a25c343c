#!/usr/bin/env bash
# Installs the packed toolwright the way users do and checks it from the outside:
#   the tarball: its package.json has no scripts or devDependencies, the repo's package.json is as it was,
#         and installing it prints no install-script warning (npm 11 warns about a `prepare`)
#   esm/  "type": "module", module/moduleResolution nodenext, with openai: codegen, tsc, run (an agent on the
#         app's own `new OpenAI({ baseURL })` client included); types also under bundler
#   cjs/  "type": "commonjs", moduleResolution node10 (subpath types via typesVersions), with openai: codegen,
#         tsc, run; types also under node16
#   the cjs app's build again after `npm ci --omit=dev`: no typescript, ts-morph, ts-node or yargs; it still runs
#   examples/support under tsx (no decorator metadata): codegen, then run from source; again with
#         TOOLWRIGHT_TRACE=console (toolwright/otel on the app's own @opentelemetry/api and SDK); then with a
#         parameter type changed after codegen: StaleSchemaError at new Agent, not a failed call
#   typescript/ under each TypeScript and ts-morph in typescriptVersions.json (typescriptVersions.sh): codegen,
#         that version's tsc with skipLibCheck false, run; the version below the floor fails as recorded
#   a git dependency (git+file:// on a clone of the committed HEAD): npm installs it and its `prepare`
#         builds it; it loads from CommonJS and ES modules and its CLI runs
# Usage: bash test/consumers/run.sh [--keep]   (--keep leaves the temporary directory for inspection)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/toolwright-consumers.XXXXXX")"
if [[ "${1:-}" == "--keep" ]]; then echo "consumers: keeping $work"; else trap 'rm -rf "$work"' EXIT; fi
started=$SECONDS

# The versions this repo is developed against, so the apps test what CI tests.
dev() { node -p "require('$root/package.json').devDependencies['$1']"; }
typescript="typescript@$(dev typescript)"
tsmorph="ts-morph@$(dev ts-morph)"
zod="zod@$(dev zod)"
openai="openai@$(dev openai)"
tsx="tsx@$(dev tsx)"
typesNode="@types/node@$(dev @types/node)"
otelApi="@opentelemetry/api@$(dev @opentelemetry/api)"
otelSdk="@opentelemetry/sdk-trace-base@$(dev @opentelemetry/sdk-trace-base)"
npmi() { npm install --no-audit --no-fund --loglevel=error "$@"; }

step() { echo "consumers: $* ($((SECONDS - started)) s)"; }
fail() { echo "consumers: FAILED: $*" >&2; exit 1; }
# npm's output of an install that must run no package's install script (npm 11: "npm warn install-scripts").
expect_no_install_scripts() { # file, what was installed
  if grep -iE 'install-scripts|install script' "$1" >&2; then fail "$2: npm reported the install scripts above"; fi
}
npm_logged() { # the log file, then npm's arguments: npm at the warn level, its output kept for the checks
  local log="$1"; shift
  npm "$@" --no-audit --no-fund --loglevel=warn >"$log" 2>&1 || { cat "$log" >&2; fail "npm $*"; }
}
expect_output() { # file, then the lines it must contain
  local file="$1"; shift
  for line in "$@"; do grep -qxF -- "$line" "$file" || { cat "$file" >&2; fail "expected the line '$line' in the output above"; }; done
}

step "packing"
cp "$root/package.json" "$work/package.json.before"
(cd "$root" && npm pack --silent --pack-destination "$work" >/dev/null)
tarball="$(ls "$work"/toolwright-*.tgz)"
cmp -s "$root/package.json" "$work/package.json.before" || fail "npm pack left package.json changed (postpack restores it)"
[[ ! -e "$root/package.json.unpacked" ]] || fail "npm pack left package.json.unpacked behind"
packed_keys="$(tar -xzOf "$tarball" package/package.json | node -e 'console.log(Object.keys(JSON.parse(require("fs").readFileSync(0, "utf8"))).join(" "))')"
for key in scripts devDependencies; do
  [[ " $packed_keys " != *" $key "* ]] || fail "the packed package.json has $key (keys: $packed_keys)"
done
for key in name version exports typesVersions bin files dependencies peerDependencies peerDependenciesMeta; do
  [[ " $packed_keys " == *" $key "* ]] || fail "the packed package.json lost $key (keys: $packed_keys)"
done
listing="$(tar -tzf "$tarball")"
for path in package/dist/toolwright.js package/dist/runtime.js package/dist/ajv.js package/dist/testing.js package/dist/openai.js package/dist/aisdk.js package/dist/src/index.d.ts package/dist/src/testing/index.d.ts \
  package/dist/src/chat/openai/index.d.ts package/dist/src/aisdk/index.d.ts package/dist/decorators/index.d.ts package/dist/codegen/cli.js package/dist/codegen/index.d.ts package/README.md; do
  grep -qxF "$path" <<<"$listing" || fail "$path is missing from the tarball"
done
if grep -E '^package/dist/(bench|examples|test)/|\.map$' <<<"$listing"; then fail "the tarball ships the files above"; fi

step "control: npm warns when a tarball carries prepare, so the checks below can fail"
control="$work/control"
mkdir -p "$control/package" "$control/app"
echo '{ "name": "with-prepare", "version": "1.0.0", "scripts": { "prepare": "node -e 0" } }' >"$control/package/package.json"
(cd "$control/package" && npm pack --silent --ignore-scripts --pack-destination "$control" >/dev/null)
echo '{ "name": "toolwright-consumer-control", "version": "1.0.0", "private": true }' >"$control/app/package.json"
(cd "$control/app" && npm_logged "$control/app/install.txt" install "$control/with-prepare-1.0.0.tgz")
grep -q 'install-scripts' "$control/app/install.txt" || { cat "$control/app/install.txt" >&2; fail "control: npm printed no install-scripts warning for a tarball with prepare"; }

build_app() { # kind, the other moduleResolution to type-check with ("module moduleResolution"), extra runtime packages...
  local kind="$1" other="$2"; shift 2
  local app="$work/$kind"
  step "$kind: install"
  cp -r "$here/$kind" "$app"
  (cd "$app" && npm_logged "$app/install.txt" install "$tarball" "$zod" "$@")
  expect_no_install_scripts "$app/install.txt" "$kind: npm install of the tarball"
  (cd "$app" && npmi -D "$typescript" "$tsmorph" "$typesNode")
  step "$kind: codegen, tsc, run"
  (cd "$app" && npx --no -- toolwright codegen --project tsconfig.json --out src/tools.generated.ts) || fail "$kind: toolwright codegen"
  (cd "$app" && npx --no -- tsc -p tsconfig.json) || fail "$kind: tsc"
  (cd "$app" && npx --no -- tsc -p tsconfig.json --noEmit --module "${other% *}" --moduleResolution "${other#* }") || fail "$kind: tsc with --moduleResolution ${other#* }"
  (cd "$app" && node dist/main.js) >"$app/output.txt" 2>&1 || { cat "$app/output.txt" >&2; fail "$kind: node dist/main.js exited non-zero"; }
  expect_output "$app/output.txt" 'answer: Done: {"item":"cake","totalCents":775}' "totalCents: 775" "chatMessageSchema accepts a message: true"
}

build_app cjs "node16 node16" "$openai"
build_app esm "preserve bundler" "$openai"
expect_output "$work/esm/output.txt" "own OpenAI client: Hello from 127.0.0.1."

step "runtime-only: npm ci --omit=dev of the cjs app"
runtime="$work/cjs-runtime"
mkdir "$runtime"
cp -r "$work/cjs/package.json" "$work/cjs/package-lock.json" "$work/cjs/dist" "$runtime/"
(cd "$runtime" && npm ci --omit=dev --no-audit --no-fund --loglevel=error && npm ls --omit=dev >/dev/null)
for banned in typescript ts-morph @ts-morph ts-node yargs typescript-json-schema; do
  [[ ! -e "$runtime/node_modules/$banned" ]] || fail "a production install pulls $banned"
done
(cd "$runtime" && node dist/main.js) >"$runtime/output.txt" 2>&1 || { cat "$runtime/output.txt" >&2; fail "runtime-only: node dist/main.js exited non-zero"; }
expect_output "$runtime/output.txt" "totalCents: 775"
# toolwright/ai-sdk loads no AI SDK package: it imports with none installed.
(cd "$runtime" && node -e 'require("toolwright"); require("toolwright/testing"); require("toolwright/openai"); require("toolwright/ai-sdk")' \
  && node --input-type=module -e 'await import("toolwright"); await import("toolwright/testing"); await import("toolwright/openai"); await import("toolwright/ai-sdk")') \
  || fail "runtime-only: importing toolwright failed"
packages=$(cd "$runtime" && npm ls --omit=dev --all --parseable | tail -n +2 | sort -u | wc -l)
echo "consumers: runtime-only install (toolwright, zod, openai): $packages packages, $(du -sm "$runtime/node_modules" | cut -f1) MB"

step "tsx: examples/support"
ex="$work/tsx"
mkdir -p "$ex/examples"
cp -r "$root/examples/support" "$root/examples/shared" "$ex/examples/"
rm -f "$ex/examples/support/tools.generated.ts"
cat >"$ex/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022", "module": "commonjs", "strict": true, "esModuleInterop": true, "types": ["node"],
    "experimentalDecorators": true, "emitDecoratorMetadata": true, "noEmit": true
  }
}
JSON
echo '{ "name": "toolwright-consumer-tsx", "version": "1.0.0", "private": true, "type": "commonjs" }' >"$ex/package.json"
(cd "$ex" && npmi "$tarball" "$zod" "$openai" "$otelApi" "$otelSdk" && npmi -D "$typescript" "$tsmorph" "$typesNode" "$tsx")
(cd "$ex" && npx --no -- toolwright codegen --project examples/support/tsconfig.json --out examples/support/tools.generated.ts) || fail "tsx: toolwright codegen"
(cd "$ex" && env -u OPENAI_API_KEY -u OPENAI_BASE_URL npx --no -- tsx examples/support/main.ts) >"$ex/output.txt" 2>&1 \
  || { cat "$ex/output.txt" >&2; fail "tsx: examples/support/main.ts exited non-zero"; }
grep -q '^answer: You had two open tickets. I closed T-' "$ex/output.txt" || { cat "$ex/output.txt" >&2; fail "tsx: no answer in the output above"; }
(cd "$ex" && env -u OPENAI_API_KEY -u OPENAI_BASE_URL TOOLWRIGHT_TRACE=console npx --no -- tsx examples/support/main.ts) >"$ex/traced.txt" 2>&1 \
  || { cat "$ex/traced.txt" >&2; fail "tsx: examples/support/main.ts with TOOLWRIGHT_TRACE=console exited non-zero"; }
grep -qE '^invoke_agent support-desk  [0-9.]+ ms  exit=text model_calls=3 tool_calls=2' "$ex/traced.txt" \
  && grep -qE '^└─ chat scripted  [0-9.]+ ms  finish=stop$' "$ex/traced.txt" || { cat "$ex/traced.txt" >&2; fail "tsx: no span tree in the output above"; }

# tsx strips types without checking them: a type changed after codegen must stop at new Agent with
# StaleSchemaError (the signature hash in the generated module), not reach the method with a stale schema.
sed -i 's/closeTicket(ticketId: string, state/closeTicket(ticketId: number, state/' "$ex/examples/support/supportTools.ts"
grep -q 'closeTicket(ticketId: number, state' "$ex/examples/support/supportTools.ts" || fail "tsx: could not change closeTicket's parameter type"
if (cd "$ex" && env -u OPENAI_API_KEY -u OPENAI_BASE_URL npx --no -- tsx examples/support/main.ts) >"$ex/stale.txt" 2>&1; then
  cat "$ex/stale.txt" >&2; fail "tsx: main.ts ran with a stale parameter type"
fi
stale='StaleSchemaError: SupportTools.closeTicket (examples/support/supportTools.ts:45:3) has changed since examples/support/tools.generated.ts was generated: its signature is now (ticketId: number, state: State<SupportState>): Ticket, which is not the one the generated schema was built from. Run `npx toolwright codegen --project examples/support/tsconfig.json --out examples/support/tools.generated.ts` to regenerate it.'
grep -qF "$stale" "$ex/stale.txt" || { cat "$ex/stale.txt" >&2; fail "tsx: no StaleSchemaError for the changed type in the output above"; }

step "typescript versions (typescriptVersions.json)"
bash "$here/typescriptVersions.sh" "$tarball" "$work" || fail "typescript versions"

step "git dependency: a clone's committed HEAD, built by its prepare on install"
clone="$work/clone"
git clone --quiet --no-local "$root" "$clone"
gitapp="$work/git"
mkdir "$gitapp"
echo '{ "name": "toolwright-consumer-git", "version": "1.0.0", "private": true }' >"$gitapp/package.json"
(cd "$gitapp" && npm_logged "$gitapp/install.txt" install "git+file://$clone" "$zod")
for built in dist/toolwright.js dist/runtime.js dist/src/index.d.ts dist/codegen/cli.js; do
  [[ -f "$gitapp/node_modules/toolwright/$built" ]] || { cat "$gitapp/install.txt" >&2; fail "git dependency: $built was not built"; }
done
(cd "$gitapp" && node -e 'require("toolwright"); require("toolwright/testing")' && node --input-type=module -e 'await import("toolwright"); await import("toolwright/testing")') \
  || fail "git dependency: importing toolwright failed"
[[ "$(cd "$gitapp" && npx --no -- toolwright --version)" == "$(node -p "require('$root/package.json').version")" ]] || fail "git dependency: toolwright --version"

step "all passed"
