#!/usr/bin/env bash
# The test suite's private PipeWire, beside its PulseAudio.
#
#   Tests/pipewire-daemon.sh start DIR [WATCH_PID]        pipewire + wireplumber; print the socket
#   Tests/pipewire-daemon.sh start-bare DIR [WATCH_PID]   pipewire alone: streams open, nothing links them
#   Tests/pipewire-daemon.sh source DIR NAME              a virtual source NAME (pw-loopback) fed by sink NAME_in
#   Tests/pipewire-daemon.sh unsource DIR NAME            stop that source
#   Tests/pipewire-daemon.sh pulse DIR                    PipeWire's PulseAudio server on that daemon; print its address
#   Tests/pipewire-daemon.sh stop DIR                     stop everything started in DIR
#
# HOME, XDG_RUNTIME_DIR, XDG_CONFIG_HOME and XDG_STATE_HOME all live under DIR; clients reach the
# daemon through its socket's absolute path, DIR/run/pipewire-0 (`pw-cli -r SOCKET`, the ALSA
# plugin's `server`), so they need no environment of their own. Tests make the nodes they use
# (a null sink of their own: `pw-cli create-node adapter …`), so tests running in parallel on
# one daemon never hear each other.
#
# WirePlumber runs headless: its D-Bus parts (Bluetooth, logind, the flatpak portal, device
# reservation) are switched off, as are the ALSA, V4L2 and libcamera monitors (no hardware), and
# it restores no stream settings between tests. `start-bare` is the stalled server of the
# tests: without a session manager a stream connects but is never linked, so it gets no audio.
#
# With WATCH_PID everything also stops when that process ends (a test process that started it
# lazily cannot be relied upon to stop it). `start` fails, saying why, when the daemon is not up
# within 10 s.
set -euo pipefail

command=${1:-}
dir=${2:-}
usage() { echo "usage: $0 start|start-bare DIR [WATCH_PID] | source|unsource DIR NAME | stop DIR" >&2; exit 2; }
[ -n "$command" ] && [ -n "$dir" ] || usage
socket=$dir/run/pipewire-0

# Runs "$@" with the daemon's private environment.
private() {
    HOME=$dir/home XDG_RUNTIME_DIR=$dir/run PIPEWIRE_RUNTIME_DIR=$dir/run XDG_CONFIG_HOME=$dir/config \
        XDG_STATE_HOME=$dir/state DISPLAY= "$@"
}

# Starts "$@" in its own session, logging to DIR/NAME.log; its pid is added to DIR/pids.
spawn() {
    local name=$1; shift
    HOME=$dir/home XDG_RUNTIME_DIR=$dir/run PIPEWIRE_RUNTIME_DIR=$dir/run XDG_CONFIG_HOME=$dir/config \
        XDG_STATE_HOME=$dir/state DISPLAY= setsid "$@" </dev/null >"$dir/$name.log" 2>&1 &
    echo $! >> "$dir/pids"
}

# Polls COMMAND… every 0.1 s for up to 10 s; fails when it never succeeds.
within_ten_seconds() {
    local tries
    for tries in $(seq 100); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    return 1
}

fail() {
    echo "pipewire-daemon: $1; the logs:" >&2
    tail -n 10 "$dir"/*.log >&2 || true
    bash "$0" stop "$dir"
    exit 1
}

stop_all() {
    [ -f "$dir/pids" ] || return 0
    local pid
    # The last started first: loopbacks, then wireplumber, then pipewire.
    for pid in $(tac "$dir/pids"); do kill "$pid" 2>/dev/null || true; done
    for pid in $(tac "$dir/pids"); do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
    rm -f "$dir/pids"
}

case "$command" in
start|start-bare)
    for program in pipewire pw-cli pw-metadata pw-loopback wireplumber; do
        command -v "$program" >/dev/null \
            || { echo "pipewire-daemon: $program is not installed (Debian: pipewire pipewire-bin wireplumber)" >&2; exit 1; }
    done
    mkdir -p "$dir/home" "$dir/run" "$dir/state" "$dir/config/wireplumber/main.lua.d"
    grep -v 'bluetooth.lua' /usr/share/wireplumber/wireplumber.conf > "$dir/config/wireplumber/wireplumber.conf"
    # Read after the stock 50-*.lua files and before 90-enable-all.lua enables what they set.
    cat > "$dir/config/wireplumber/main.lua.d/60-voicememo-tests.lua" <<'EOF'
default_access.properties["enable-flatpak-portal"] = false
alsa_monitor.enabled = false
alsa_monitor.properties["alsa.reserve"] = false
v4l2_monitor.enabled = false
libcamera_monitor.enabled = false
stream_defaults.properties["restore-props"] = false
stream_defaults.properties["restore-target"] = false
EOF
    spawn pipewire pipewire
    within_ten_seconds test -S "$socket" || fail "pipewire did not start (no socket $socket after 10 s)"
    within_ten_seconds private pw-cli -r "$socket" info 0 || fail "pipewire does not answer on $socket"
    if [ "$command" = start ]; then
        spawn wireplumber wireplumber
        # WirePlumber is up once it has made the "default" metadata.
        within_ten_seconds eval "private pw-metadata -r '$socket' 2>&1 | grep -q 'Found \"default\" metadata'" \
            || fail "wireplumber did not start within 10 s"
    fi
    if [ -n "${3:-}" ]; then
        watched=$3
        setsid bash -c "while kill -0 $watched 2>/dev/null && [ -f '$dir/pids' ]; do sleep 1; done
            bash '$0' stop '$dir'; rm -rf '$dir'" </dev/null >/dev/null 2>&1 &
    fi
    echo "$socket"
    ;;
source)
    name=${3:-}
    [ -n "$name" ] || usage
    [ -S "$socket" ] || { echo "pipewire-daemon: no daemon in $dir" >&2; exit 1; }
    spawn "loopback-$name" pw-loopback -r "$socket" -n "$name-loopback" \
        --capture-props="media.class=Audio/Sink node.name=${name}_in audio.position=[FL FR]" \
        --playback-props="media.class=Audio/Source node.name=$name audio.position=[FL FR]"
    tail -n 1 "$dir/pids" > "$dir/loopback-$name.pid"
    within_ten_seconds eval "private pw-cli -r '$socket' ls Node | grep -q 'node.name = \"$name\"'" \
        || { echo "pipewire-daemon: the source $name did not appear within 10 s" >&2; tail -n 5 "$dir/loopback-$name.log" >&2; exit 1; }
    ;;
unsource)
    name=${3:-}
    [ -n "$name" ] || usage
    if [ -f "$dir/loopback-$name.pid" ]; then
        pid=$(cat "$dir/loopback-$name.pid")
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
        rm -f "$dir/loopback-$name.pid"
    fi
    ;;
pulse)
    # PipeWire's PulseAudio server (libpipewire-module-protocol-pulse), run as Debian's
    # pipewire-pulse runs it but from a configuration of our own: that package conflicts with
    # pulseaudio, which the suite's other daemon needs. Libpulse's clients (pactl, paplay,
    # voicememo's pulse: inputs) reach it at unix:DIR/pulse-native.
    [ -S "$socket" ] || { echo "pipewire-daemon: no daemon in $dir" >&2; exit 1; }
    cat > "$dir/pipewire-pulse.conf" <<CONF
context.spa-libs = {
    audio.convert.* = audioconvert/libspa-audioconvert
    support.*       = support/libspa-support
}
context.modules = [
    { name = libpipewire-module-protocol-native }
    { name = libpipewire-module-client-node }
    { name = libpipewire-module-adapter }
    { name = libpipewire-module-metadata }
    { name = libpipewire-module-protocol-pulse args = { } }
]
pulse.properties = {
    server.address = [ "unix:$dir/pulse-native" ]
}
CONF
    spawn pipewire-pulse pipewire -c "$dir/pipewire-pulse.conf"
    within_ten_seconds test -S "$dir/pulse-native" || fail "PipeWire's PulseAudio server did not start (no socket $dir/pulse-native after 10 s)"
    within_ten_seconds pactl --server="unix:$dir/pulse-native" info || fail "PipeWire's PulseAudio server does not answer"
    echo "unix:$dir/pulse-native"
    ;;
stop)
    stop_all
    ;;
*)
    usage
    ;;
esac
