#!/usr/bin/env bash
# Installs the independent JSON Schema validator used by the report tests (Ajv, from the npm
# registry) into reports/validator/node_modules (ignored by git). Idempotent: does nothing when
# the pinned version is already there. Needs node and npm (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/../reports/validator"
want=$(node -p "require('./package.json').dependencies.ajv")
if [ -f node_modules/ajv/package.json ] &&
   [ "$(node -p "require('./node_modules/ajv/package.json').version")" = "$want" ]; then
  echo "install-report-validator: ajv $want already installed"
  exit 0
fi
npm install --no-audit --no-fund --no-package-lock --loglevel=error
echo "install-report-validator: ajv $(node -p "require('./node_modules/ajv/package.json').version") installed"
