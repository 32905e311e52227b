#!/usr/bin/env bash
# `npm test`: type check, lint, OpenAPI lint, then every jest tier (unit, integration, infra, end to end).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== type check"
npx tsc --noEmit -p .
npx tsc --noEmit -p console
echo "== lint"
npx biome check .
echo "== OpenAPI lint (Spectral, Redocly)"
npm run --silent lint:openapi
echo "== tests"
npx jest --ci "$@"
