#!/usr/bin/env bash
# Installs the documentation frameworks that test/framework-builds.test.ts builds fixture sites
# with. They stay out of the project's own package.json: each kind has its own pinned
# package.json and package-lock.json under test/frameworks/<kind>/, installed with `npm ci` into
# DIR/<kind> (default .cache/frameworks). MkDocs comes from Debian's packages.
#
#   scripts/install-doc-frameworks.sh [DIR]
#   export DOCWRIGHT_FRAMEWORKS_DIR=DIR   # then the tests find the installs
#
# A kind whose installed lock equals the committed one is skipped, so a second run costs nothing.
# Install scripts stay blocked (npm 11's default): the packages that have one (esbuild, sharp,
# core-js) work without it, because their native parts come as ordinary platform packages.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${1:-.cache/frameworks}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

for src in test/frameworks/*/; do
  kind=$(basename "$src")
  target="$dir/$kind"
  start=$(date +%s)
  # The marker is written only after a finished npm ci, so an interrupted install is redone.
  if [[ -d "$target/node_modules" ]] && cmp -s "$src/package-lock.json" "$target/.installed-lock.json"; then
    echo "== $kind: up to date in $target (0 s)"
    continue
  fi
  mkdir -p "$target"
  rm -f "$target/.installed-lock.json"
  cp "$src/package.json" "$src/package-lock.json" "$target/"
  npm ci --prefix "$target" --no-audit --no-fund --loglevel=error >"$target/install.log" 2>&1 || {
    cat "$target/install.log" >&2
    echo "== $kind: npm ci failed" >&2
    exit 1
  }
  cp "$src/package-lock.json" "$target/.installed-lock.json"
  echo "== $kind: installed in $target ($(($(date +%s) - start)) s)"
done

start=$(date +%s)
# The fixture uses the Material theme, so both packages must be there.
if command -v mkdocs >/dev/null && dpkg-query -W -f='${Status}' mkdocs-material 2>/dev/null | grep -q 'ok installed'; then
  echo "== mkdocs: $(mkdocs --version | cut -d' ' -f1-3) already on PATH (0 s)"
else
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mkdocs mkdocs-material >/dev/null
  echo "== mkdocs: installed $(mkdocs --version | cut -d' ' -f1-3) ($(($(date +%s) - start)) s)"
fi
