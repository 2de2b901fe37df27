#!/bin/sh
# write-commit.sh PACKAGE_DIR OUTPUT_FILE: writes the Swift file that names the commit being built
# (BuildInfo.commit). In order: $AUTH_EMULATOR_COMMIT; the package's own git checkout (HEAD, with
# -dirty when tracked files differ from it); the commit `git archive` wrote into archived-commit
# (export-subst, .gitattributes); else "unknown". Never fails: a tree without git must build.
package=$1
output=$2
commit=${AUTH_EMULATOR_COMMIT:-}
# Only the package's own checkout counts: a source tarball unpacked inside some other repository
# must not take that repository's commit.
if [ -z "$commit" ] && command -v git > /dev/null 2>&1 \
    && [ "$(git -C "$package" rev-parse --show-toplevel 2> /dev/null)" = "$(cd "$package" && pwd -P)" ]; then
    commit=$(git -C "$package" rev-parse HEAD 2> /dev/null) || commit=
    if [ -n "$commit" ] && [ -n "$(git -C "$package" status --porcelain --untracked-files=no 2> /dev/null)" ]; then
        commit="$commit-dirty"
    fi
fi
if [ -z "$commit" ]; then
    archived=$(cat "$package/Plugins/BuildCommit/archived-commit" 2> /dev/null)
    case $archived in
        *Format*) ;;  # not expanded: a checkout, not an archive
        *) commit=$archived ;;
    esac
fi
# The value lands in a Swift string literal: anything but a plain name becomes "unknown".
case $commit in
    "" | *[!0-9A-Za-z._-]*) commit=unknown ;;
esac
mkdir -p "$(dirname "$output")"
printf '// Written by Plugins/BuildCommit/write-commit.sh at build time.\nlet generatedCommit = "%s"\n' "$commit" > "$output.new"
if cmp -s "$output.new" "$output"; then
    rm -f "$output.new"
else
    mv "$output.new" "$output"
fi
