# shellcheck shell=bash
# Sourced by scripts/run and bench/: the flags of the release build they run and measure.
#
# On Linux the Swift runtime and Foundation are linked in statically (as docker/Dockerfile does):
# the shared libraries' pages were most of the idle RSS, and a static binary brings in only the
# code it uses (bench/memory: 100k users 74.8 -> 67.9 MB RSS, idle 28.5 -> about 21 MB), with
# slightly fewer instructions per request (no calls through the PLT). macOS has no static Swift
# runtime to link, and needs none: its runtime is the system's.
RELEASE_SWIFT_FLAGS=(-c release)
if [[ $(uname -s) == Linux ]]; then
    RELEASE_SWIFT_FLAGS+=(--static-swift-stdlib)
fi
