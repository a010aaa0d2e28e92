#!/usr/bin/env bash
# Set up .venv with the test extra, make sure Chromium is there for the browser tests, and run
# the whole test suite; extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
bash scripts/ensure-chromium.sh
exec .venv/bin/python -m pytest "$@"
