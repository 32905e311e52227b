#!/usr/bin/env bash
# `npm test`: type check, lint, then every jest tier (unit, integration, infra, end to end).
set -euo pipefail
cd "$(dirname "$0")/.."
export AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true
echo "== type check"
npx tsc --noEmit -p .
npx tsc --noEmit -p console
echo "== lint"
npx biome check .
echo "== tests"
npx jest --ci "$@"
