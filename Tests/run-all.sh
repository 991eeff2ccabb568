#!/usr/bin/env bash
# Builds everything (debug) and runs every test: unit tests of each module and the
# end-to-end tests that drive the real binary (EndToEndTests). Called by `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --build-tests 2>&1 | tee /tmp/voicememo-build.$$.log | grep -v '^\[' || true
if grep -E '(^|/)(Sources|Tests)/.*: warning:' /tmp/voicememo-build.$$.log; then
    echo "run-all: the build printed warnings from our code (above)" >&2
    rm -f /tmp/voicememo-build.$$.log
    exit 1
fi
rm -f /tmp/voicememo-build.$$.log

export VOICEMEMO_BIN_DIR="$(swift build --show-bin-path)"
swift test --skip-build
