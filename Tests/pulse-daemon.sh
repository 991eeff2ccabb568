#!/usr/bin/env bash
# The test suite's one private PulseAudio daemon, with a null sink per test.
#
#   Tests/pulse-daemon.sh start DIR [WATCH_PID]   start it in DIR; print its server address
#   Tests/pulse-daemon.sh stop DIR                stop it
#
# HOME, XDG_RUNTIME_DIR and PULSE_RUNTIME_PATH all live under DIR, and clients reach the daemon
# only through its socket, DIR/native (anonymous auth). The daemon has a null sink `vsink` as
# its default; tests that need their own audio path load a private null sink of their own
# (pactl load-module module-null-sink), so tests running in parallel never hear each other.
#
# With WATCH_PID the daemon also stops when that process ends (a test process that started it
# lazily cannot be relied upon to stop it). `start` fails, saying why, when the socket has not
# appeared within 10 s.
set -euo pipefail

command=${1:-}
dir=${2:-}
[ -n "$command" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop DIR [WATCH_PID]" >&2; exit 2; }

case "$command" in
start)
    command -v pulseaudio >/dev/null || { echo "pulse-daemon: pulseaudio is not installed (Debian: pulseaudio, libasound2-plugins)" >&2; exit 1; }
    mkdir -p "$dir/home" "$dir/run"
    printf '%s\n' \
        'load-module module-null-sink sink_name=vsink rate=48000 channels=2' \
        "load-module module-native-protocol-unix socket=$dir/native auth-anonymous=1" \
        'set-default-sink vsink' \
        'set-default-source vsink.monitor' > "$dir/default.pa"
    HOME=$dir/home XDG_RUNTIME_DIR=$dir/run PULSE_RUNTIME_PATH=$dir/run \
        setsid pulseaudio -n -F "$dir/default.pa" --daemonize=no --exit-idle-time=-1 --log-level=info --log-time=1 \
        </dev/null >"$dir/pulseaudio.log" 2>&1 &
    echo $! > "$dir/pid"
    for _ in $(seq 100); do
        [ -S "$dir/native" ] && break
        sleep 0.1
    done
    if ! [ -S "$dir/native" ] || ! kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
        echo "pulse-daemon: pulseaudio did not start (no socket $dir/native after 10 s); its log:" >&2
        tail -n 20 "$dir/pulseaudio.log" >&2 || true
        kill "$(cat "$dir/pid")" 2>/dev/null || true
        exit 1
    fi
    if [ -n "${3:-}" ]; then
        watched=$3
        daemon=$(cat "$dir/pid")
        setsid bash -c "while kill -0 $watched 2>/dev/null && kill -0 $daemon 2>/dev/null; do sleep 1; done
            kill $daemon 2>/dev/null; sleep 1; rm -rf '$dir'" </dev/null >/dev/null 2>&1 &
    fi
    echo "unix:$dir/native"
    ;;
stop)
    if [ -f "$dir/pid" ]; then
        pid=$(cat "$dir/pid")
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    fi
    ;;
*)
    echo "usage: $0 start|stop DIR [WATCH_PID]" >&2
    exit 2
    ;;
esac
