#!/usr/bin/env bash
# Renders every tape in vhs/ (needs VHS, ttyd, ffmpeg and Chromium:
# ../shared/tools/install-vhs.sh installs them). Not part of the test command.
# The binary is built once here, so a tape never races a slow build: each tape
# only puts /tmp/aayu-vhs on PATH and waits for the screen's own words.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p vhs/out /tmp/aayu-vhs
go build -o /tmp/aayu-vhs/aayu .
tapes=("$@"); [[ ${#tapes[@]} -gt 0 ]] || tapes=(vhs/*.tape)
for tape in "${tapes[@]}"; do
	echo "rendering $tape"
	VHS_NO_SANDBOX=1 vhs "$tape"
done
