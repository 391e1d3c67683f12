#!/usr/bin/env bash
# Installs what factory needs on a fresh Debian machine: Chromium (the gates and
# the screenshot tool drive it), a virtualenv in .venv, and the package.
# `--dev` adds the test and lint tools. Safe to run again: it skips what is there.
set -euo pipefail
cd "$(dirname "$0")/.."

extras=""
[ "${1:-}" = "--dev" ] && extras="[dev]"

if [ -z "${FACTORY_BROWSER:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "installing Chromium (Debian package)…" >&2
  $sudo apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi

python=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$python" -m venv .venv
stamp=".venv/.installed$extras"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/pip install -q --disable-pip-version-check -e ".$extras"
  touch "$stamp"
fi
