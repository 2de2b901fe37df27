# Sourced by scripts/run and scripts/test: installs the Debian packages the project needs when
# they are missing, so that both commands work on a fresh machine that has only Swift. On macOS
# the three libraries come from Homebrew instead.

is_macos() { [ "$(uname -s)" = "Darwin" ]; }

ensure_apt_packages() {
    if is_macos; then
        # Debian's packages have no Homebrew twin worth guessing at: the tests that need them say so.
        echo "macOS: not installing the Debian packages $*" >&2
        return 0
    fi
    local missing=()
    local package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { echo "need root (or sudo) to install: ${missing[*]}" >&2; return 1; }
        sudo="sudo"
    fi
    echo "Installing ${missing[*]} ..." >&2
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# Homebrew formulae, installed when missing (no root needed).
ensure_brew_packages() {
    command -v brew >/dev/null 2>&1 || { echo "macOS: install Homebrew (https://brew.sh) first, then run this again" >&2; return 1; }
    local missing=()
    local formula
    for formula in "$@"; do
        brew list --versions "$formula" >/dev/null 2>&1 || missing+=("$formula")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing ${missing[*]} with Homebrew ..." >&2
    brew install "${missing[@]}" >&2
}

# The three C libraries the emulator links, and pkg-config to find them.
ensure_build_packages() {
    if is_macos; then
        ensure_brew_packages libmicrohttpd openssl@3 sqlite pkg-config
        # openssl@3 and sqlite are keg-only: pkg-config finds them only through their own prefixes.
        local formula
        for formula in openssl@3 sqlite; do
            PKG_CONFIG_PATH="$(brew --prefix "$formula")/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
        done
        export PKG_CONFIG_PATH
        return 0
    fi
    ensure_apt_packages libmicrohttpd-dev libsqlite3-dev libssl-dev pkg-config
}
