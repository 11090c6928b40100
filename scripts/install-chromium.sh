#!/usr/bin/env bash
# Make sure a Chromium is there for webenv: WEBENV_CHROMIUM, one on PATH, Debian's package
# through apt where that exists, or else Playwright's own download.
set -euo pipefail
python=${PYTHON:-python3}

if [[ -n ${WEBENV_CHROMIUM:-} ]]; then
  [[ -x $WEBENV_CHROMIUM ]] || { echo "WEBENV_CHROMIUM=$WEBENV_CHROMIUM is not executable" >&2; exit 1; }
  exit 0
fi
for name in chromium chromium-browser google-chrome google-chrome-stable; do
  command -v "$name" >/dev/null && exit 0
done

if command -v apt-get >/dev/null; then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "Installing Debian's chromium with apt-get…" >&2
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  # The headless-only build runs episodes with half the browser CPU; not every release has it.
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell \
    >/dev/null 2>&1 || echo "(chromium-headless-shell is not packaged here; using chromium)" >&2
  exit 0
fi

echo "Installing Playwright's Chromium…" >&2
"$python" -m playwright install chromium
