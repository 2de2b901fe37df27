# Sourced by scripts/run and scripts/test: installs the Debian packages the project needs when
# they are missing, so that both commands work on a fresh machine that has only Swift.

ensure_apt_packages() {
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

# The three C libraries the emulator links, and pkg-config to find them.
ensure_build_packages() {
    ensure_apt_packages libmicrohttpd-dev libsqlite3-dev libssl-dev pkg-config
}
