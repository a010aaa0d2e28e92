#!/usr/bin/env bash
# Set up .venv with the test extra, make sure Chromium is there for the browser tests, and run
# the whole test suite; extra arguments go to pytest. The suite runs on one pytest-xdist worker
# per core (TEST_WORKERS=N to choose; 0 runs it in this process); the browser tests stay together
# on one worker, on one server (tests/conftest.py). It ends with the 25 slowest tests, so that CI
# output shows where the time goes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
bash scripts/ensure-chromium.sh
# Bytecode is cached even where the environment says not to (PYTHONDONTWRITEBYTECODE): every
# worker, server and CLI subprocess of the suite would otherwise compile the project anew.
unset PYTHONDONTWRITEBYTECODE
exec .venv/bin/python -m pytest -n "${TEST_WORKERS:-$(nproc)}" --durations=25 "$@"
