#!/usr/bin/env bash
# The test command: installs what the tests need, then runs them all.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh --dev
exec .venv/bin/python -m pytest "$@"
