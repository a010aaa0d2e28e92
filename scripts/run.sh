#!/usr/bin/env bash
# Set up .venv with the explorer extra (the app, token counts, semantic duplicates, BM25
# relevance, the LLM clients: everything the explorer uses offline) and start the explorer on the
# tour sample.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh explorer
exec .venv/bin/streamlit run app.py "$@"
