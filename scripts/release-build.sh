# shellcheck shell=bash
# Sourced by scripts/run and bench/: the release build they run and measure.
#
# On Linux the Swift runtime and FoundationEssentials (the only part of Foundation the emulator
# imports) are linked in statically (as docker/Dockerfile does): the shared libraries' pages were
# most of the idle RSS, and a static binary maps only the code it links (bench/memory: 100k users
# 73.4 -> 66.5 MB RSS, idle 28.0 -> 20.8 MB; bench/instructions signup 322.8k -> 320.8k). macOS has no static Swift runtime to link, and needs none: its runtime
# is the system's.
RELEASE_SWIFT_FLAGS=(-c release)
if [[ $(uname -s) == Linux ]]; then
    RELEASE_SWIFT_FLAGS+=(--static-swift-stdlib)
fi

# build_release_emulator ROOT [SCRATCH_PATH]: builds that binary in the package at ROOT (with
# `--scratch-path SCRATCH_PATH` when given) and sets RELEASE_EMULATOR to its path.
build_release_emulator() {
    local root=$1 scratch=${2:-}
    local flags=("${RELEASE_SWIFT_FLAGS[@]}")
    [[ -z $scratch ]] || flags+=(--scratch-path "$scratch")
    printf 'Building auth-emulator: swift build %s\n' "${flags[*]}"
    (cd "$root" && swift build "${flags[@]}") || return 1
    RELEASE_EMULATOR="$(cd "$root" && swift build "${flags[@]}" --show-bin-path)/auth-emulator"
}
