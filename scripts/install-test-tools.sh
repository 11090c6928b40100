#!/usr/bin/env bash
# What the tests use beyond the package: Xvfb, an X display without a screen, on which the
# tests of headed play open a real browser window. Best effort: without it those tests skip.
set -uo pipefail

command -v Xvfb >/dev/null && exit 0
if command -v apt-get >/dev/null; then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo -n"  # never a password prompt in the middle of `make test`
  echo "Installing Xvfb with apt-get (for the headed-browser tests)…" >&2
  { $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xvfb; } \
    >/dev/null 2>&1 || echo "(could not install Xvfb; the headed-browser tests will skip)" >&2
else
  echo "(no apt-get: install Xvfb yourself to run the headed-browser tests)" >&2
fi
exit 0
