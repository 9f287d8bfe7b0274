#!/usr/bin/env bash
# The Node.js lines users run, besides the machine's own (which .ci/run tests first): each gets a copy of
# the checkout installed from the lockfile by npm running on that Node, as a user's `npm install` would,
# and built. On 24, the LTS line most installs carry, the whole suite runs there; on 22 and 26, the quick
# start, a server's start and clean stop, and the SQLite store and jobs suites.
#   scripts/ci-node-lines.sh                 every line
#   scripts/ci-node-lines.sh 26.12.1 smoke   one line, one set
# A process that aborts, or exits non-zero on stop, fails its suite and so the run.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

smoke_files=(test/docs/quick-start.test.ts test/cli/start-and-stop.test.ts test/store test/jobs)

run_line() {
  local version="$1" set="$2"
  local node_folder copy
  node_folder="$(scripts/node-of-version.sh "$version")"
  copy="$(mktemp -d "${TMPDIR:-/tmp}/vidrows-node-$version.XXXXXX")"
  # The checkout's own files as they are now (committed or not), without what an install or a build makes.
  git ls-files -z --cached --others --exclude-standard | tar -C "$root" --null -T - -cf - | tar -C "$copy" -xf -
  echo "== Node.js $version ($set): install, build, test in $copy"
  (
    cd "$copy"
    export PATH="$node_folder/bin:$PATH"
    # Native modules build against this Node's own headers, not the machine's Node's.
    export npm_config_nodedir="$node_folder"
    node --version
    npm ci --prefer-offline --no-audit --no-fund
    npm run build --silent
    if [ "$set" = whole ]; then
      npx vitest run
    else
      VIDROWS_TEST_DIALECTS=sqlite npx vitest run "${smoke_files[@]}"
    fi
  )
  rm -rf "$copy"
}

if [ "$#" -gt 0 ]; then
  run_line "$1" "${2:-smoke}"
else
  run_line 24.21.0 whole
  run_line 22.23.3 smoke
  run_line 26.12.1 smoke
fi
