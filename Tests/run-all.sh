#!/usr/bin/env bash
# Builds everything (debug) and runs every test: unit tests of each module and the
# end-to-end tests that drive the real binary (EndToEndTests). Called by `make test`.
#
# The tests that need real time share one private PulseAudio daemon (Tests/pulse-daemon.sh),
# started here and stopped when this script exits, however it exits; its address is in
# VOICEMEMO_TEST_PULSE_SERVER. The PipeWire tests start a private PipeWire of their own each
# (Tests/pipewire-daemon.sh) through PipeWire's ALSA plugins, unpacked into .build/pipewire-alsa
# by Tests/pipewire-alsa.sh (never installed: the package conflicts with pulseaudio); their
# configuration is in VOICEMEMO_TEST_PIPEWIRE_ALSA_CONFIG. If either cannot be had, the run
# stops here, saying why.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --build-tests 2>&1 | tee /tmp/voicememo-build.$$.log | grep -v '^\[' || true
if grep -E '(^|/)(Sources|Tests)/.*: warning:' /tmp/voicememo-build.$$.log; then
    echo "run-all: the build printed warnings from our code (above)" >&2
    rm -f /tmp/voicememo-build.$$.log
    exit 1
fi
rm -f /tmp/voicememo-build.$$.log

pulse_dir=$(mktemp -d /tmp/voicememo-pulse.XXXXXX)
trap 'bash Tests/pulse-daemon.sh stop "$pulse_dir"; rm -rf "$pulse_dir"' EXIT
if ! VOICEMEMO_TEST_PULSE_SERVER=$(bash Tests/pulse-daemon.sh start "$pulse_dir"); then
    echo "run-all: the test PulseAudio daemon did not start (above); the real-time tests need it" >&2
    exit 1
fi
export VOICEMEMO_TEST_PULSE_SERVER
if ! VOICEMEMO_TEST_PIPEWIRE_ALSA_CONFIG=$(bash Tests/pipewire-alsa.sh "$PWD/.build/pipewire-alsa"); then
    echo "run-all: PipeWire's ALSA plugins could not be had (above); the PipeWire tests need them" >&2
    exit 1
fi
export VOICEMEMO_TEST_PIPEWIRE_ALSA_CONFIG

export VOICEMEMO_BIN_DIR="$(swift build --show-bin-path)"
swift test --skip-build
