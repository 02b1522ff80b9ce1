#!/usr/bin/env bash
# Renders every tape in vhs/ (needs VHS, ttyd, ffmpeg and Chromium:
# ../shared/tools/install-vhs.sh installs them). Not part of the test command.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p vhs/out /tmp/aayu-vhs
for tape in vhs/*.tape; do
	echo "rendering $tape"
	VHS_NO_SANDBOX=1 vhs "$tape"
done
