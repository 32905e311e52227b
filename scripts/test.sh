#!/usr/bin/env bash
# `npm test`: type check, lint, dead code, OpenAPI lint, then every jest tier (unit, integration,
# infra, end to end, browser), then the IAM coverage of the AWS calls the functions made under
# local mode.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== Node.js $(node --version)"
echo "== type check"
npx tsc --noEmit -p .
npx tsc --noEmit -p console
echo "== lint"
npx biome check .
echo "== dead code (knip: unused files, exports and dependencies; knip.jsonc lists the entries)"
npx knip --no-progress
echo "== OpenAPI lint (Spectral, Redocly)"
npm run --silent lint:openapi
# Every `npm start` of the tests records each AWS call local mode's IAM check allowed here.
export LOCAL_IAM_COVERAGE_DIRECTORY="$PWD/.cache/iam-coverage"
rm -rf "$LOCAL_IAM_COVERAGE_DIRECTORY"
echo "== tests"
npx jest --ci "$@"
# A run of some tiers only (arguments given) records too few calls to judge the grants.
if [ $# -eq 0 ]; then
  echo "== IAM coverage"
  npx tsx scripts/iam-coverage-report.ts
fi
