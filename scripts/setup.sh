#!/usr/bin/env bash
# Create .venv (Python >= 3.11) and install the project with the given extras, e.g. "explorer"
# (everything the explorer uses offline), "app" (the explorer alone) or "test".
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-app}"
python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[$extras]"
