#!/usr/bin/env bash
# Debian's Chromium for the dashboard's browser tests (playwright-core drives it; Playwright's own browser
# download is not used). Does nothing when /usr/bin/chromium is already there.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-chromium: /usr/bin/chromium is missing and apt-get is not available; install Chromium with your" >&2
  echo "  system's package manager, or set ARCLIGHT_CHROMIUM to a Chromium/Chrome binary" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
echo "install-chromium: installing Debian's chromium package"
$SUDO apt-get update -o DPkg::Lock::Timeout=900 -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq -o DPkg::Lock::Timeout=900 --no-install-recommends \
  chromium >/dev/null
/usr/bin/chromium --version
