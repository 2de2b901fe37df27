# shellcheck shell=bash
# Sourced by scripts/run and bench/: the flags of the release build they run and measure.
#
# On Linux the Swift runtime and Foundation are linked in statically (as docker/Dockerfile does):
# the shared libraries' pages were most of the idle RSS, and a static binary maps only the code it
# links (bench/memory: 100k users 73.4 -> 66.5 MB RSS, idle 28.0 -> 20.8 MB; bench/instructions
# signup 322.8k -> 320.8k). macOS has no static Swift runtime to link, and needs none: its runtime
# is the system's.
RELEASE_SWIFT_FLAGS=(-c release)
if [[ $(uname -s) == Linux ]]; then
    RELEASE_SWIFT_FLAGS+=(--static-swift-stdlib)
fi
