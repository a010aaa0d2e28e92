#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (/usr/bin/chromium); install it when it is missing,
# with emoji and CJK fonts so that screenshots of the multilingual sample show its text.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "The browser tests need Chromium at /usr/bin/chromium; install it with your package manager." >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q chromium fonts-noto-color-emoji fonts-noto-cjk
