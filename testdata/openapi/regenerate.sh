#!/bin/sh
# Regenerates api.github.com.subset.json from GitHub's OpenAPI description
# (octokit/openapi's generated/api.github.com.json, version 23.0.2, which is
# github/rest-api-description with the x-octokit extension).
#
#   ./regenerate.sh [path/to/api.github.com.json]
#
# Without an argument it downloads the npm package @octokit/openapi@23.0.2.
# extras.json is written by hand (see its info.description) and is not
# regenerated: it describes the operations the sandbox serves beyond
# operations.txt, reusing the subset's component schemas.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
spec=${1:-}
if [ -z "$spec" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && npm pack --silent @octokit/openapi@23.0.2 >/dev/null && tar -xzf octokit-openapi-23.0.2.tgz)
	spec="$tmp/package/generated/api.github.com.json"
fi
python3 "$here/extract-openapi-subset.py" --no-examples --indent 1 "$spec" "$here/api.github.com.subset.json" "@$here/operations.txt" "@$here/described.txt"
