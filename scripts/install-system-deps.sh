#!/usr/bin/env bash
# System packages the player aids need on a fresh Debian/Ubuntu machine:
#   - Pango (with its cairo/fontconfig companions) and fonts for WeasyPrint's PDF output;
#   - Chromium for the headless browser tests of the HTML aids and the board, and its
#     WebDriver (chromium-driver) through which Selenium drives the board's test.
# Safe to run twice: it installs only what is missing. Needs root (CI runs as root)
# or sudo; without either it explains what to install and exits 0 so `make` goes on
# (the tests that need a missing tool then skip with a reason).
set -euo pipefail

packages=(
  libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b libharfbuzz-subset0 libfontconfig1  # WeasyPrint (its docs: Debian >= 11)
  libcairo2                                                       # cairosvg: PNG images of VASSAL modules
  fonts-dejavu-core                                               # a legible default font
  poppler-utils                                                   # pdftoppm: the tests render PDF pages to PNG
  chromium                                                        # browser tests
  chromium-driver                                                 # Selenium's driver for the board's browser test
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-system-deps: no apt-get here; please install: ${missing[*]}" >&2
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo="sudo -n"
else
  echo "install-system-deps: not root; please install: ${missing[*]}" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
