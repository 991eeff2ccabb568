#!/usr/bin/env bash
# PipeWire's ALSA plugins for the tests, without installing them.
#
#   Tests/pipewire-alsa.sh DIR     make DIR/alsa.conf (once; later calls just print its path)
#
# Debian's `pipewire-alsa` conflicts with `pulseaudio`, which the rest of the suite needs, so it
# is never installed: the package of the same version as the installed libpipewire is
# downloaded (`apt-get download`) and unpacked (`dpkg-deb -x`) into DIR/root. DIR/alsa.conf
# tells alsa-lib where its two plugins are (`pcm_type.pipewire`, `ctl_type.pipewire` with
# absolute paths) and defines the stock `pipewire` PCM and control the package would install
# (its 50-pipewire.conf). Use it on top of the global configuration:
#   ALSA_CONFIG_PATH=/usr/share/alsa/alsa.conf:DIR/alsa.conf
# Prints the path of DIR/alsa.conf; fails, saying why, when the package cannot be had.
set -euo pipefail

dir=${1:-}
[ -n "$dir" ] || { echo "usage: $0 DIR" >&2; exit 2; }
conf=$dir/alsa.conf
if [ -s "$conf" ]; then
    echo "$conf"
    exit 0
fi

version=$(dpkg-query -W -f='${Version}' libpipewire-0.3-0 2>/dev/null || true)
[ -n "$version" ] || { echo "pipewire-alsa.sh: libpipewire-0.3-0 is not installed (Debian: pipewire pipewire-bin wireplumber)" >&2; exit 1; }

mkdir -p "$dir"
scratch=$(mktemp -d "$dir/download.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
if ! (cd "$scratch" && apt-get download -q "pipewire-alsa=$version" >download.log 2>&1); then
    echo "pipewire-alsa.sh: apt-get download pipewire-alsa=$version failed:" >&2
    tail -n 5 "$scratch/download.log" >&2
    exit 1
fi
rm -rf "$dir/root"
dpkg-deb -x "$scratch"/pipewire-alsa_*.deb "$dir/root"

plugins=$(dirname "$(find "$dir/root" -name libasound_module_pcm_pipewire.so | head -n 1)")
stock=$dir/root/usr/share/alsa/alsa.conf.d/50-pipewire.conf
if ! [ -f "$plugins/libasound_module_pcm_pipewire.so" ] || ! [ -f "$plugins/libasound_module_ctl_pipewire.so" ] \
    || ! [ -f "$stock" ]; then
    echo "pipewire-alsa.sh: the package pipewire-alsa=$version has no ALSA plugins or 50-pipewire.conf" >&2
    exit 1
fi
{
    echo "# Made by Tests/pipewire-alsa.sh from pipewire-alsa $version, unpacked in $dir/root."
    echo "pcm_type.pipewire { lib \"$plugins/libasound_module_pcm_pipewire.so\" }"
    echo "ctl_type.pipewire { lib \"$plugins/libasound_module_ctl_pipewire.so\" }"
    cat "$stock"
} > "$conf.tmp"
mv "$conf.tmp" "$conf"
echo "$conf"
