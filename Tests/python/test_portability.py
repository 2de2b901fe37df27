"""The package stays buildable on macOS, checked from Linux (these machines cannot build for macOS).

What is checked, statically, in every Swift file under Sources/ and Tests/, every C shim header,
Package.swift and the set-up scripts:
- `import Glibc` only inside `#if canImport(Glibc)` (or `os(Linux)`), `import Darwin` only inside
  `canImport(Darwin)` (or `os(macOS)`), and a file that imports Glibc has the Darwin alternative;
- no module-qualified `Glibc.` or `Darwin.` call outside its own guard;
- no Linux-only call or constant outside a Linux guard (LINUX_ONLY below: epoll, SOCK_CLOEXEC and
  SOCK_NONBLOCK socket flags, MSG_NOSIGNAL and other Linux send flags, accept4, pipe2, eventfd,
  pthread_condattr_setclock, Glibc's enum-typed SOCK_STREAM, /proc, ...), and no Darwin-only one
  outside a Darwin guard (the `#else` of a Darwin guard counts as Linux, and the other way round:
  the package targets those two);
- shim headers include no Linux kernel headers;
- every system library in Package.swift names a Homebrew provider beside its apt one;
- scripts/ensure-packages.sh, run with a fake `uname` that says Darwin and a fake `brew`, installs
  the Homebrew formulae and points pkg-config at the keg-only ones, without apt.
What is not checked: that the code compiles with Apple's SDK (types that differ, such as
`timeval.tv_usec`, Foundation behaviour), that Homebrew's library versions work, and anything at
run time on macOS.
"""

import os
import re
import subprocess
import textwrap
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

# Identifiers (matched as whole words) and strings that exist only on Linux / glibc.
LINUX_ONLY = [
    r"\bepoll_\w+", r"\bEPOLL\w*", r"\bSOCK_CLOEXEC\b", r"\bSOCK_NONBLOCK\b", r"\bMSG_NOSIGNAL\b",
    r"\bMSG_MORE\b", r"\bMSG_CMSG_CLOEXEC\b", r"\bMSG_FASTOPEN\b", r"\baccept4\b", r"\bpipe2\b", r"\bdup3\b",
    r"\beventfd\w*", r"\btimerfd_\w+", r"\binotify_\w+", r"\bsignalfd\b", r"\bmemfd_create\b",
    r"\bpthread_condattr_setclock\b", r"\bsched_getaffinity\b", r"\bprctl\b", r"\bgettid\b",
    r"\bmalloc_trim\b", r"\bmallinfo2?\b", r"\bgetauxval\b", r"\bCLOCK_BOOTTIME\b", r"\bSO_PEERCRED\b",
    r"\bTCP_CORK\b", r"\bTCP_QUICKACK\b", r"\bSOCK_STREAM\.rawValue\b", r"\bSOCK_DGRAM\.rawValue\b",
    r"\bSHUT_RDWR\.rawValue\b", r"\bsplice\b", r"\bsendfile64\b", r"\bsysinfo\b", r"\bprogram_invocation_name\b",
    r"/proc/", r"/dev/shm\b", r"\bGlibc\.",
]
DARWIN_ONLY = [
    r"\bSO_NOSIGPIPE\b", r"\bpthread_cond_timedwait_relative_np\b", r"\bsin6?_len\b", r"\bkqueue\b",
    r"\bkevent\b", r"\bmach_\w+", r"\bos_unfair_lock\w*", r"\bDarwin\.",
]
LINUX_CONDITIONS = re.compile(r"canImport\(Glibc\)|os\(Linux\)")
DARWIN_CONDITIONS = re.compile(r"canImport\(Darwin\)|os\((macOS|iOS|tvOS|watchOS|visionOS)\)")
DIRECTIVE = re.compile(r"^\s*#(if|elseif|else|endif)\b(.*)$")


def _strip_comment(line):
    """The code part of a Swift line: no `//` comment (string contents are kept)."""
    in_string = False
    for index, char in enumerate(line):
        if char == '"' and (index == 0 or line[index - 1] != "\\"):
            in_string = not in_string
        elif not in_string and line.startswith("//", index):
            return line[:index]
    return line


def platform_problems(name, text):
    """Each unguarded platform import or platform-only call in one Swift file, as a message."""
    problems = []
    # One frame per open #if: the current branch's condition, and the earlier branches' conditions.
    stack = []
    in_block_comment = False
    has_guarded_glibc = has_guarded_darwin = False

    def guarded(conditions):
        # Inside a branch whose own condition names the platform, or the #else of a branch that names
        # the other one (the package targets two platforms, so "not Darwin" is Linux and vice versa).
        other = DARWIN_CONDITIONS if conditions is LINUX_CONDITIONS else LINUX_CONDITIONS
        for frame in stack:
            if frame["current"] is not None and conditions.search(frame["current"]):
                return True
            if frame["current"] is None and any(other.search(earlier) for earlier in frame["earlier"]):
                return True
        return False

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw
        if in_block_comment:
            if "*/" not in line:
                continue
            line = line.split("*/", 1)[1]
            in_block_comment = False
        if "/*" in line and "*/" not in line.split("/*", 1)[1]:
            line = line.split("/*", 1)[0]
            in_block_comment = True
        line = _strip_comment(line)
        directive = DIRECTIVE.match(line)
        if directive:
            keyword, condition = directive.group(1), directive.group(2).strip()
            if keyword == "if":
                stack.append({"current": condition, "earlier": []})
            elif not stack:
                problems.append(f"{name}:{number}: #{keyword} without #if")
            elif keyword == "elseif":
                stack[-1]["earlier"].append(stack[-1]["current"])
                stack[-1]["current"] = condition
            elif keyword == "else":
                stack[-1]["earlier"].append(stack[-1]["current"])
                stack[-1]["current"] = None
            else:
                stack.pop()
            continue
        if re.match(r"^\s*(@\w+\s+)*(\w+\s+)?import\s+Glibc\b", line):
            if guarded(LINUX_CONDITIONS):
                has_guarded_glibc = True
            else:
                problems.append(f"{name}:{number}: import Glibc outside #if canImport(Glibc)")
            continue
        if re.match(r"^\s*(@\w+\s+)*(\w+\s+)?import\s+Darwin\b", line):
            if guarded(DARWIN_CONDITIONS):
                has_guarded_darwin = True
            else:
                problems.append(f"{name}:{number}: import Darwin outside #if canImport(Darwin)")
            continue
        for pattern in LINUX_ONLY:
            if re.search(pattern, line) and not guarded(LINUX_CONDITIONS):
                problems.append(f"{name}:{number}: Linux-only {re.search(pattern, line).group(0)!r} outside a Linux guard")
        for pattern in DARWIN_ONLY:
            if re.search(pattern, line) and not guarded(DARWIN_CONDITIONS):
                problems.append(f"{name}:{number}: Darwin-only {re.search(pattern, line).group(0)!r} outside a Darwin guard")
    if stack:
        problems.append(f"{name}: #if without #endif")
    if has_guarded_glibc and not has_guarded_darwin:
        problems.append(f"{name}: imports Glibc but has no #elseif canImport(Darwin) import Darwin")
    return problems


def swift_files():
    return sorted(p for root in ("Sources", "Tests") for p in (REPO_ROOT / root).rglob("*.swift"))


def test_every_swift_file_guards_its_platform_imports_and_calls():
    files = swift_files()
    assert len(files) > 100
    problems = [problem for path in files
                for problem in platform_problems(str(path.relative_to(REPO_ROOT)), path.read_text())]
    assert problems == []


def test_the_checker_catches_what_it_claims_to():
    # The checker itself can fail: each of these must be reported, each guarded form must pass.
    bad = {
        "import Glibc\n": "import Glibc outside",
        "import Darwin\n": "import Darwin outside",
        "#if canImport(Glibc)\nimport Glibc\n#endif\n": "no #elseif canImport(Darwin)",
        "#if os(Windows)\n#else\nimport Glibc\n#endif\n": "import Glibc outside",
        "#if canImport(Glibc)\n#else\nlet f = pipe2(&p, 0)\n#endif\n": "pipe2",
        "let x = send(s, p, n, Int32(MSG_NOSIGNAL))\n": "MSG_NOSIGNAL",
        "let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | SOCK_CLOEXEC, 0)\n": "SOCK_CLOEXEC",
        "let e = epoll_create1(0)\n": "epoll_create1",
        "let f = Glibc.shutdown(s, 2)\n": "Glibc.",
        'let stat = try String(contentsOfFile: "/proc/self/status")\n': "/proc/",
        "pthread_condattr_setclock(&a, CLOCK_MONOTONIC)\n": "pthread_condattr_setclock",
        "var on: Int32 = 1; setsockopt(s, SOL_SOCKET, SO_NOSIGPIPE, &on, 4)\n": "SO_NOSIGPIPE",
        "#if canImport(Glibc)\n": "#if without #endif",
    }
    for source, expected in bad.items():
        problems = platform_problems("x.swift", source)
        assert any(expected in problem for problem in problems), (source, problems)
    good = textwrap.dedent("""\
        #if canImport(Glibc)
        import Glibc
        #elseif canImport(Darwin)
        import Darwin
        #endif
        // MSG_NOSIGNAL in a comment is fine
        /* so is epoll_wait
           in a block comment */
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        var on: Int32 = 1
        #endif
        #if canImport(Darwin)
        setsockopt(s, SOL_SOCKET, SO_NOSIGPIPE, &on, 4)
        #endif
        """)
    assert platform_problems("good.swift", good) == []


def test_shim_headers_include_no_linux_kernel_headers():
    headers = sorted((REPO_ROOT / "Sources").glob("C*/*.h"))
    assert len(headers) == 3
    for header in headers:
        text = header.read_text()
        for banned in ("<linux/", "<sys/epoll.h>", "<sys/eventfd.h>", "<features.h>", "<sys/sysinfo.h>"):
            assert banned not in text, f"{header.name} includes {banned}"


def test_every_system_library_names_apt_and_homebrew_providers():
    package = (REPO_ROOT / "Package.swift").read_text()
    libraries = re.findall(r"\.systemLibrary\((.*?)\n        \)", package, re.S)
    assert len(libraries) == 3
    brew = {}
    for library in libraries:
        name = re.search(r'name: "(\w+)"', library).group(1)
        assert ".apt([" in library, name
        brew[name] = re.search(r'\.brew\(\[([^\]]*)\]\)', library).group(1)
    assert brew == {"CMicroHTTPD": '"libmicrohttpd"', "CSQLite": '"sqlite"', "COpenSSL": '"openssl@3"'}


def _fake_tool(directory, name, body):
    path = directory / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)


def test_the_setup_scripts_use_homebrew_on_macos(tmp_path):
    # A fake uname says Darwin; a fake brew logs what it is asked; apt must not be touched.
    log = tmp_path / "brew.log"
    _fake_tool(tmp_path, "uname", 'if [ "$1" = "-s" ] || [ -z "$1" ]; then echo Darwin; else /usr/bin/uname "$@"; fi')
    _fake_tool(tmp_path, "brew", f"""echo "$@" >> {log}
case "$1" in
  list) exit 1 ;;
  --prefix) echo "/opt/homebrew/opt/$2" ;;
esac""")
    for forbidden in ("apt-get", "dpkg-query", "sudo"):
        _fake_tool(tmp_path, forbidden, f"echo {forbidden} must not run on macOS >&2; exit 97")
    script = ('set -euo pipefail; source scripts/ensure-packages.sh; ensure_build_packages; '
              'ensure_apt_packages openssl; echo "PKG_CONFIG_PATH=$PKG_CONFIG_PATH"')
    result = subprocess.run(["bash", "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, timeout=30,
                            env={**os.environ, "PATH": f"{tmp_path}:/usr/bin:/bin", "PKG_CONFIG_PATH": ""})
    assert result.returncode == 0, result.stderr
    calls = log.read_text().splitlines()
    installs = [call for call in calls if call.startswith("install")]
    assert installs and all(formula in " ".join(installs) for formula in ("libmicrohttpd", "openssl@3", "sqlite", "pkg-config"))
    paths = re.search(r"^PKG_CONFIG_PATH=(.*)$", result.stdout, re.M).group(1).split(":")
    assert "/opt/homebrew/opt/openssl@3/lib/pkgconfig" in paths
    assert "/opt/homebrew/opt/sqlite/lib/pkgconfig" in paths


@pytest.mark.parametrize("script", ["scripts/run", "scripts/test"])
def test_the_entry_scripts_go_through_the_package_helpers(script):
    # Both commands install through ensure-packages.sh, whose macOS branch the test above runs.
    text = (REPO_ROOT / script).read_text()
    assert re.search(r'source "?(\$checkout/)?scripts/ensure-packages.sh', text)
    assert "ensure_build_packages" in text
    assert "apt-get" not in text
