#!/usr/bin/env bash
# Set up .venv with the app extra and start the explorer (it opens on the dispatcher example).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh app
exec .venv/bin/streamlit run app.py "$@"
