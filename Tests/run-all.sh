#!/usr/bin/env bash
# Builds everything once and runs the tests, in two tiers decided by test target: the e2e
# tier is the targets named in e2e_targets below, the unit tier every other test target:
#
#   Tests/run-all.sh        both tiers, the unit tier beside the e2e shards (`make test`, CI)
#   Tests/run-all.sh unit   the unit tier: no tmux, no audio server, no real time (`make test-unit`)
#   Tests/run-all.sh e2e    the e2e targets: EndToEndTests, RealTimeTests, HeavyTests (`make test-e2e`)
#
# The build must print no warning from Sources/ or Tests/. It is a release build in a folder of
# its own (.build/tests), compiled for testing (`-enable-testing`, so `@testable import` works)
# with line tables for debug information: the modules optimised as the package ships them, the
# test targets at -Onone (Package.swift's testSettings). Its `voicememo` is then linked again
# with the Swift runtime inside it (link_static_binary), and that one binary is what the e2e
# tests drive and what the Debian package holds: one build serves both, where a debug build for
# the tests and a release build for the package cost 1.7 times the CPU (about 740 CPU-s against
# 418–498 on a clean clone).
#
# The unit tier runs fenced: tmux, PulseAudio's and PipeWire's programs are not on its PATH, no
# audio server is reachable, and the test support's servers and tmux sessions refuse to start
# (VOICEMEMO_TEST_TIER=unit), so a unit-tier test that reaches for one fails, naming the
# e2e targets. Its tests' own lines may not sleep or open a paced source, and no test case
# may take more than VOICEMEMO_UNIT_TEST_LIMIT seconds (30: the slowest takes 1.8 s on a quiet
# machine and 10.9 s at load 15); the slowest are listed after every run, with the tier's time.
#
# The e2e tier runs in VOICEMEMO_E2E_SHARDS (default 4; 1 runs it in one process, the package
# built first) `swift test` processes at once, each on
# its own share of the suites (Tests/test-runs.py shards): most e2e tests wait (for a subprocess, for
# real time, for a PulseAudio capture) and block one of the cooperative pool's threads while they
# do, and that pool has as many threads as the machine has cores, so one process ran two tests
# at a time on two cores while the CPU idled (870 s for the tier on a clean clone). The
# real-time tests a loaded machine starves (PipeWireTests' bit-exact capture lost 593 760
# frames beside three shards; RealTimeTests' PulseAudio playback underran; an Icecast start
# took 1.0004 s) run after the shards, with nothing else beside them (e2e_quiet), once the
# package build is done, in VOICEMEMO_E2E_QUIET_PARTS (default 2) processes at once: they
# mostly wait, and in one process their blocking waits held the pool's two threads, so the
# part took 300 s at a third of a core (Icecast's serialised cases waited two minutes for a
# thread). Each process's lines are printed as they come, prefixed `[e2e N]`; their exit statuses, failed tests (with every issue's
# whole message, from the event stream, for a process that failed) and the tier's slowest
# test cases come at the end. The build, the unit tier, the packaging and each e2e process also
# say the CPU seconds they used (user + sys, their children's included).
# The shards share the PulseAudio daemon (each test loads null sinks of its own) and keep apart
# otherwise: every tmux socket, temporary folder, private daemon and port is made per test.
#
# The e2e tier's DebianPackageTests installs the package packaging/build-deb.sh makes of that
# binary (`make deb` makes the same package from a release build of its own): the packaging
# runs beside the unit tier and the e2e shards, at nice 19, and the quiet part
# (DebianPackageTests among it) starts once it is done:
# PipeWireTests' bit-exact capture fails on a loaded machine (twice, with compilers running
# beside it: 616 288 and 385 024 frames lost); with one shard the e2e tier waits for it. It
# writes its exit status to the file VOICEMEMO_TEST_DEB_STATUS names (its log is that file's
# name with .log after it); a failed packaging fails the e2e tier and DebianPackageTests says why.
#
# The e2e tests that need real time share one private PulseAudio daemon (Tests/pulse-daemon.sh),
# started here and stopped when this script exits, however it exits; its address is in
# VOICEMEMO_TEST_PULSE_SERVER. The PipeWire tests start a private PipeWire of their own each
# (Tests/pipewire-daemon.sh) through PipeWire's ALSA plugins, unpacked into .build/pipewire-alsa
# by Tests/pipewire-alsa.sh (never installed: the package conflicts with pulseaudio); their
# configuration is in VOICEMEMO_TEST_PIPEWIRE_ALSA_CONFIG. If either cannot be had, the run
# stops here, saying why.
set -euo pipefail
cd "$(dirname "$0")/.."

tier=${1:-all}
case "$tier" in
unit | e2e | all) ;;
*) echo "usage: $0 [unit|e2e]" >&2; exit 2 ;;
esac
unit_test_limit=${VOICEMEMO_UNIT_TEST_LIMIT:-30}
e2e_shards=${VOICEMEMO_E2E_SHARDS:-4}
e2e_quiet_parts=${VOICEMEMO_E2E_QUIET_PARTS:-2}
# The e2e tier's test targets: EndToEndTests drives the built binary (tmux, audio servers,
# subprocesses); RealTimeTests runs the modules in-process against audio servers, paced
# sources, slowed devices and real time; HeavyTests holds in-process tests too heavy for the
# unit tier's 60 s (each a fifth of it on two shared cores in a debug build).
e2e_targets="EndToEndTests RealTimeTests HeavyTests"
# Real-time captures that fail when the machine is loaded: with more than one shard they run
# after the shards, with nothing but each other beside them.
# RealTimeTests are all real-time (PulseAudio, paced sources, slowed devices):
# PlayerPulseTests.twoSecondsPlayInTwoSeconds underran beside the shards. IcecastStreamTests
# holds a start to 1 s of real time (Vorbis took 1.0004 s beside the shards, 0.58 s alone).
# LiveCaptionTests and AppTmuxLiveCaptionTests need their captioner (nice 10, a third of a core) to keep up with real time.
# AppTmuxLongWorkTests pins the app to one CPU beside spinners of its own and checks that its
# keys and frames still come: beside the shards as well, the app went without a frame for seconds.
# PipeWirePulseServerTests start a PipeWire, WirePlumber and PipeWire's PulseAudio server each, as
# PipeWireTests start theirs. DebianPackageTests
# waits for the package, which builds beside the shards.
e2e_quiet=EndToEndTests.LiveCaptionTests,EndToEndTests.AppTmuxLiveCaptionTests,EndToEndTests.AppTmuxLongWorkTests,EndToEndTests.PipeWireTests,EndToEndTests.PipeWirePlaybackTests,EndToEndTests.PipeWirePulseServerTests,EndToEndTests.StalledInputTests,EndToEndTests.RealTimeCaptureTests,RealTimeTests,EndToEndTests.IcecastStreamTests,EndToEndTests.DebianPackageTests
# The e2e suites that take much longer than their number of tests says, in "tests' worth" (a
# typical e2e test takes about two seconds of a shard's time): they wait out minutes of real
# time (kill loops, streams) or burn CPU (FourGiBRecordingTests' three serialised recordings of
# gigabytes, ≈ 230 s).
e2e_weights=EndToEndTests.FourGiBRecordingTests:110,EndToEndTests.KillNineLoopTests:20,HeavyTests.RecognizerTests:12,EndToEndTests.StreamPlayTests:20,EndToEndTests.StreamRecordTests:10,EndToEndTests.TranscriptionAppTests:10
# The quiet suites' weights are half the seconds each takes run alone (`swift test --filter`
# on an idle machine): IcecastStreamTests' twelve serialised starts take 85 s.
e2e_weights+=,EndToEndTests.IcecastStreamTests:42,EndToEndTests.AppTmuxLongWorkTests:17,EndToEndTests.PipeWireTests:15
e2e_weights+=,EndToEndTests.RealTimeCaptureTests:13,EndToEndTests.AppTmuxLiveCaptionTests:12,RealTimeTests.InputStallTests:8
e2e_weights+=,RealTimeTests.PulsePlaybackTests:8,EndToEndTests.PipeWirePlaybackTests:7,EndToEndTests.LiveCaptionTests:6
e2e_weights+=,EndToEndTests.StalledInputTests:5,EndToEndTests.DebianPackageTests:5,RealTimeTests.PlayerPulseTests:5

scratch=$(mktemp -d /tmp/voicememo-tests.XXXXXX)
pulse_dir=""
deb_pid=""
cleanup() {
    [ -z "$deb_pid" ] || kill -- -"$deb_pid" 2>/dev/null || true
    # A shared daemon gone before the end fails every later PulseAudio test with "Connection
    # refused": say so, with the daemon's own last words.
    if [ -n "$pulse_dir" ] && [ -f "$pulse_dir/pid" ] && ! kill -0 "$(cat "$pulse_dir/pid")" 2>/dev/null; then
        echo "run-all: the test PulseAudio daemon ended before the run did; the end of its log ($pulse_dir/pulseaudio.log):" >&2
        tail -n 40 "$pulse_dir/pulseaudio.log" >&2 || true
    fi
    [ -z "$pulse_dir" ] || bash Tests/pulse-daemon.sh stop "$pulse_dir"
    rm -rf "$scratch" ${pulse_dir:+"$pulse_dir"}
}
trap cleanup EXIT

# The CPU seconds (user + sys) the children this shell has waited for have used so far
# (bash's `times`): what each part of the run costs, printed beside its wall time, since the
# two cores' CPU, not their packing, is what bounds `make test` (docs/RELIABILITY.md).
# Sets the variable named $1; `times` runs in this shell (in a `$(…)` it would count the
# subshell's children, none).
children_cpu() {
    local file=$scratch/times.$BASHPID
    times > "$file"
    printf -v "$1" '%s' "$(awk 'NR == 2 { s = 0; for (i = 1; i <= NF; i++) { split($i, p, "m"); s += p[1] * 60 + p[2] } printf "%.0f", s }' "$file")"
}

# The build's options (build_flags) and what finds what it built (test_flags).
test_flags=(-c release --scratch-path .build/tests)
build_flags=("${test_flags[@]}" -Xswiftc -enable-testing -Xswiftc -gline-tables-only)

# Links the built `voicememo` again, in place, with the Swift runtime inside it, as `make deb`'s
# --static-swift-stdlib build does, so the package needs no Swift toolchain. Nothing is
# compiled again (`swift build --static-swift-stdlib` would compile every module again, 135
# CPU-s): SwiftPM's own link command for it (from its build manifest) is run with
# -static-stdlib. The modules were compiled against the shared runtime, whose Foundation does
# not name the static libraries it needs (ICU, CoreFoundation, …), so the link is given those
# the toolchain's own static-stdlib compile of the same imports asks for.
link_static_binary() {
    local stub=$scratch/static-imports library link=() libraries
    printf 'import Foundation\nimport Dispatch\nimport Synchronization\nimport Glibc\n' > "$stub.swift"
    swiftc -static-stdlib -parse-as-library -c "$stub.swift" -o "$stub.o" -module-name StaticImports
    # In a group: the static libraries need each other in both directions (CoreFoundation and ICU).
    libraries=(-Xlinker --start-group)
    for library in $("$(dirname "$(readlink -f "$(command -v swiftc)")")/swift-autolink-extract" "$stub.o" -o -); do
        libraries+=(-Xlinker "$library")
    done
    libraries+=(-Xlinker --end-group)
    mapfile -d '' -t link < <(python3 Tests/test-runs.py link-command .build/tests/release.yaml voicememo)
    [ "${#link[@]}" -gt 0 ] || return 1
    # Static Foundation's own objects warn of mktemp; that is theirs, not ours.
    if ! "${link[@]}" -static-stdlib "${libraries[@]}" > "$scratch/static-link.log" 2>&1; then
        cat "$scratch/static-link.log" >&2
        echo "run-all: linking voicememo with the Swift runtime inside failed (above)" >&2
        return 1
    fi
    grep -v "the use of \`mktemp' is dangerous" "$scratch/static-link.log" || true
    if ldd "$VOICEMEMO_BIN_DIR/voicememo" | grep 'libswift'; then
        echo "run-all: voicememo still links the Swift runtime dynamically (above)" >&2
        return 1
    fi
}

build_started=$SECONDS
children_cpu build_cpu
swift build "${build_flags[@]}" --build-tests 2>&1 | tee "$scratch/build.log" | grep -v '^\[' || true
export VOICEMEMO_BIN_DIR="$(swift build "${test_flags[@]}" --show-bin-path)"
link_static_binary
children_cpu build_cpu_after
echo "run-all: the build took $((SECONDS - build_started)) s and $((build_cpu_after - build_cpu)) CPU-s"
if grep -E '(^|/)(Sources|Tests)/.*: warning:' "$scratch/build.log"; then
    echo "run-all: the build printed warnings from our code (above)" >&2
    exit 1
fi
# TestSupport is a plain target, so `swift build -c release` (`make run`) builds it too, where
# no module is compiled for testing: it reaches modules through `package` declarations only.
if grep -ln '^@testable' Tests/TestSupport/*.swift; then
    echo "run-all: TestSupport may not use @testable (above): \`make run\`'s release build cannot compile it; make what it needs \`package\`" >&2
    exit 1
fi

# Every test, each in its tier by its target; the e2e tier in shards.
e2e_filter="^(${e2e_targets// /|})\\."
swift test list "${test_flags[@]}" --skip-build 2>/dev/null | grep -E '^[A-Za-z_][A-Za-z0-9_]*\.[^ ]+$' > "$scratch/tests.txt" || true
grep -E "$e2e_filter" "$scratch/tests.txt" > "$scratch/e2e.tests" || true
grep -vE "$e2e_filter" "$scratch/tests.txt" > "$scratch/unit.tests" || true
echo "run-all: $(wc -l < "$scratch/unit.tests") tests in the unit tier, $(wc -l < "$scratch/e2e.tests") in the e2e tier ($e2e_targets)"
python3 Tests/test-runs.py shards "$scratch/e2e.tests" "$scratch" "$e2e_shards" "$e2e_quiet" "$e2e_weights" "$e2e_quiet_parts"

# The package of the tested binary, made in the background, in a process group of its own
# (the cleanup ends it whole).
start_package_build() {
    export VOICEMEMO_TEST_DEB_STATUS=$scratch/deb.status
    echo "run-all: making the Debian package beside the tests (nice -n 19 packaging/build-deb.sh; log $VOICEMEMO_TEST_DEB_STATUS.log)"
    set -m
    ( started=$SECONDS status=0
      # xz at level 1, not dpkg-deb's 6: 6 CPU-s against 24, for a package 19.0 MB against 16.2.
      DPKG_DEB_COMPRESSOR_LEVEL=1 nice -n 19 bash packaging/build-deb.sh "$VOICEMEMO_BIN_DIR/voicememo" .build/deb \
          > "$VOICEMEMO_TEST_DEB_STATUS.log" 2>&1 || status=$?
      children_cpu cpu
      echo "the packaging: exit $status after $((SECONDS - started)) s and $cpu CPU-s" >> "$VOICEMEMO_TEST_DEB_STATUS.log.times"
      echo "$status" > "$VOICEMEMO_TEST_DEB_STATUS" ) &
    deb_pid=$!
    set +m
}

finish_package_build() {
    [ -n "$deb_pid" ] || return 0
    # Nothing is left to keep out of the way of: back to nice 0, or a machine busy with other
    # work at nice 0 starves it (two `yes` hogs kept lintian at 1.5 % of a core for minutes).
    renice -n 0 -g "$deb_pid" > /dev/null 2>&1 || true
    wait "$deb_pid" || true
    deb_pid=""
    echo "run-all: $(cat "$VOICEMEMO_TEST_DEB_STATUS.log.times" 2>/dev/null || echo "the packaging: no status")"
    [ "$(cat "$VOICEMEMO_TEST_DEB_STATUS" 2>/dev/null)" = 0 ] || { tail -30 "$VOICEMEMO_TEST_DEB_STATUS.log" >&2; return 1; }
}

# Every issue a failed `swift test` ($1 names it) recorded, whole, from its event stream $2:
# the console shows only a comment's first line.
print_issues() {
    [ -s "$2" ] || return 0
    echo "run-all: $1's issues, whole (from its event stream):"
    python3 Tests/test-runs.py issues "$2" || true
}

run_unit() {
    local fence=$scratch/fence started=$SECONDS status=0 cpu cpu_after
    children_cpu cpu
    mkdir -p "$fence/bin" "$fence/run"
    for program in tmux pulseaudio pactl pacmd paplay parec parecord pacat pasuspender \
        pipewire pipewire-pulse wireplumber pw-cli pw-dump pw-cat pw-play pw-record pw-loopback pw-metadata; do
        printf '#!/bin/sh\necho "%s is fenced off in the unit tier: a test that needs it belongs in an e2e target (%s)" >&2\nexit 127\n' \
            "$program" "$e2e_targets" > "$fence/bin/$program"
        chmod 755 "$fence/bin/$program"
    done
    echo "autospawn = no" > "$fence/client.conf"
    echo "run-all: the unit tier: $(wc -l < "$scratch/unit.tests") tests, fenced (no tmux, no audio server)"
    env PATH="$fence/bin:$PATH" VOICEMEMO_TEST_TIER=unit \
        PULSE_SERVER="unix:$fence/run/no-server" PULSE_CLIENTCONFIG="$fence/client.conf" \
        XDG_RUNTIME_DIR="$fence/run" PULSE_RUNTIME_PATH="$fence/run" PIPEWIRE_RUNTIME_DIR="$fence/run" \
        VOICEMEMO_TEST_PULSE_SERVER= VOICEMEMO_TEST_PIPEWIRE_ALSA_CONFIG= \
        swift test "${test_flags[@]}" --skip-build --skip "$e2e_filter" \
        --experimental-event-stream-output "$scratch/unit.events" --experimental-event-stream-version 0 || status=$?
    [ "$status" = 0 ] || print_issues "the unit tier" "$scratch/unit.events"
    python3 Tests/test-runs.py check "$scratch/unit.events" "$unit_test_limit" "$((SECONDS - started))" || status=1
    children_cpu cpu_after
    echo "run-all: the unit tier took $((cpu_after - cpu)) CPU-s"
    return $status
}

start_servers() {
    pulse_dir=$(mktemp -d /tmp/voicememo-pulse.XXXXXX)
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
}

# One `swift test` of the e2e tier: $1 names it (a shard's number or `quiet-N`), its filter is
# $scratch/e2e-$1.filter; its lines go to $scratch/e2e-$1.log, prefixed on the terminal, its exit
# status to $scratch/e2e-$1.status, its events to $scratch/e2e-$1.events.
run_e2e_process() {
    local name=$1
    # --ignore-lock: else each `swift test` waits for the one before it to let go of .build's
    # lock (nothing is built here: --skip-build). The prefix keeps the exit status
    # (pipefail) and flushes each line as it comes.
    ( set -o pipefail
      swift test "${test_flags[@]}" --skip-build --ignore-lock --filter "$(cat "$scratch/e2e-$name.filter")" \
        --experimental-event-stream-output "$scratch/e2e-$name.events" --experimental-event-stream-version 0 2>&1 \
        | tee "$scratch/e2e-$name.log" | sed -u "s/^/[e2e $name] /"
      echo $? > "$scratch/e2e-$name.status"
      children_cpu cpu
      echo "$cpu" > "$scratch/e2e-$name.cpu" )
}

report_e2e_process() {
    local name=$1 process_status
    process_status=$(cat "$scratch/e2e-$name.status" 2>/dev/null || echo "no status")
    echo "run-all: e2e $name exit $process_status ($(cat "$scratch/e2e-$name.cpu" 2>/dev/null || echo "?") CPU-s): $(grep -E '^(✔|✘|━) Test run with' "$scratch/e2e-$name.log" | tail -1)"
    grep -E '^✘ Test .*(failed|recorded an issue)' "$scratch/e2e-$name.log" | sed "s/^/  [e2e $name] /" || true
    [ "$process_status" = 0 ] || print_issues "e2e $name" "$scratch/e2e-$name.events"
    [ "$process_status" = 0 ]
}

# The package build (start_package_build) is waited for before the first process that holds
# DebianPackageTests: with one shard, before the tier; with more, the shards run beside it (at
# nice 19 it takes what CPU their waits leave) and the quiet part, which holds
# DebianPackageTests, waits for it.
run_e2e() {
    local started=$SECONDS status=0 shard part pids=() quiet_started quiet_parts=()
    if [ "$e2e_shards" -le 1 ]; then
        finish_package_build || status=1
    fi
    start_servers
    echo "run-all: the e2e tier: $(wc -l < "$scratch/e2e.tests") tests in $e2e_shards shards run at once"
    for shard in $(seq "$e2e_shards"); do
        run_e2e_process "$shard" &
        pids+=($!)
    done
    wait "${pids[@]}" || true
    echo "run-all: the e2e shards took $((SECONDS - started)) s"
    for part in "$scratch"/e2e-quiet-*.filter; do
        [ -s "$part" ] && part=${part##*/e2e-} && quiet_parts+=("${part%.filter}")
    done
    if [ "${#quiet_parts[@]}" -gt 0 ]; then
        finish_package_build || status=1
        quiet_started=$SECONDS pids=()
        echo "run-all: the e2e tier's real-time captures, with nothing else beside them, in ${#quiet_parts[@]} processes ($e2e_quiet)"
        for part in "${quiet_parts[@]}"; do
            run_e2e_process "$part" &
            pids+=($!)
        done
        wait "${pids[@]}" || true
        echo "run-all: they took $((SECONDS - quiet_started)) s"
    fi
    for shard in $(seq "$e2e_shards") "${quiet_parts[@]}"; do
        [ -s "$scratch/e2e-$shard.filter" ] || continue
        report_e2e_process "$shard" || status=1
    done
    echo "run-all: the e2e tier took $((SECONDS - started)) s; its slowest test cases:"
    cat "$scratch"/e2e-*.events > "$scratch/e2e.events" 2>/dev/null || true
    python3 Tests/test-runs.py slowest "$scratch/e2e.events" 15 || true
    return $status
}

case "$tier" in
unit) run_unit ;;
e2e)
    e2e_status=0
    start_package_build
    run_e2e || e2e_status=$?
    [ "$e2e_status" = 0 ]
    ;;
all)
    # Both, whatever either gives, so one run reports every failure. The unit tier runs beside
    # the e2e shards (its lines prefixed `[unit]`): they mostly wait, and its 44–52 CPU-s fit in
    # the CPU they leave idle. A failed unit tier's failures are printed again at the end.
    unit_status=0 e2e_status=0
    start_package_build
    ( set -o pipefail; run_unit 2>&1 | tee "$scratch/unit.log" | sed -u 's/^/[unit] /' ) &
    unit_pid=$!
    run_e2e || e2e_status=$?
    wait "$unit_pid" || unit_status=$?
    if [ "$unit_status" != 0 ]; then
        echo "run-all: the unit tier failed; its failures:"
        grep -E '^✘ Test .*(failed|recorded an issue)' "$scratch/unit.log" | sed 's/^/  [unit] /' || true
        print_issues "the unit tier" "$scratch/unit.events"
    fi
    echo "run-all: unit tier exit $unit_status, e2e tier exit $e2e_status"
    [ "$unit_status" = 0 ] && [ "$e2e_status" = 0 ]
    ;;
esac
