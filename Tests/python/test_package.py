"""Installing without a Swift toolchain: scripts/package's tarball, and the Homebrew formula.

scripts/package runs for real but for the compile: a stand-in `swift` (in a toolchain-shaped
folder, with the real toolchain's LICENSE.txt) hands it the debug binary, which links the same
three libraries and prints the same --version; `scripts/test --all` packages the real release
build. No Mac builds here, so the formula is checked statically: Ruby's syntax check, and the
formula loaded under a stand-in for Homebrew's `Formula` class that records its fields and what
`install` runs.
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from conftest import REPO_ROOT, binary_path

FORMULA = REPO_ROOT / "Formula" / "auth-emulator.rb"
SOURCE_VERSION = re.search(r'static let version = "([^"]+)"',
                           (REPO_ROOT / "Sources/BuildInfo/BuildInfo.swift").read_text()).group(1)


def real_swift_license():
    swift = shutil.which("swift")
    assert swift, "no swift on PATH"
    license_file = Path(os.path.realpath(swift)).parents[1] / "share" / "swift" / "LICENSE.txt"
    assert license_file.is_file(), license_file
    return license_file


@pytest.fixture
def packaged(tmp_path):
    """Runs scripts/package into tmp_path/out with the stand-in toolchain; answers the result."""
    toolchain = tmp_path / "toolchain" / "usr"
    (toolchain / "bin").mkdir(parents=True)
    (toolchain / "share" / "swift").mkdir(parents=True)
    shutil.copy(real_swift_license(), toolchain / "share" / "swift" / "LICENSE.txt")
    bin_dir = tmp_path / "release"
    bin_dir.mkdir()
    shutil.copy(binary_path(), bin_dir / "auth-emulator")
    calls = tmp_path / "swift-calls"
    swift = toolchain / "bin" / "swift"
    swift.write_text(f'#!/bin/sh\necho "$*" >> {calls}\n'
                     f'case "$*" in *--show-bin-path*) echo {bin_dir} ;; esac\n')
    swift.chmod(0o755)
    out = tmp_path / "out"
    result = subprocess.run([str(REPO_ROOT / "scripts" / "package"), str(out)], capture_output=True, text=True,
                            timeout=300, env={**os.environ, "PATH": f"{toolchain / 'bin'}:{os.environ['PATH']}"})
    return result, out, calls


def test_the_tarball_carries_the_binary_its_notices_and_a_checked_sum(packaged, tmp_path):
    result, out, calls = packaged
    assert result.returncode == 0, result.stderr
    # The release build of scripts/release-build.sh (static Swift runtime on Linux).
    assert "build -c release --static-swift-stdlib" in calls.read_text()
    machine = os.uname().machine
    name = f"auth-emulator-{SOURCE_VERSION}-linux-{machine}"
    tarball = out / f"{name}.tar.gz"
    assert sorted(p.name for p in out.iterdir()) == [f"{name}.tar.gz", f"{name}.tar.gz.sha256"]
    # The .sha256 file is sha256sum's own format, for `sha256sum -c`.
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
    assert (out / f"{name}.tar.gz.sha256").read_text() == f"{digest}  {name}.tar.gz\n"
    with tarfile.open(tarball) as archive:
        members = {member.name: member for member in archive.getmembers()}
        expected = {name, f"{name}/bin", f"{name}/bin/auth-emulator", f"{name}/licenses", f"{name}/NOTICE",
                    f"{name}/README.txt", *(f"{name}/licenses/{part}.txt" for part in ("swift", "libmicrohttpd", "sqlite", "openssl"))}
        if (REPO_ROOT / "LICENSE").is_file():
            expected.add(f"{name}/LICENSE")
        assert set(members) == expected
        assert all(member.uid == 0 and member.gid == 0 and member.uname == "" for member in members.values())
        assert members[f"{name}/bin/auth-emulator"].mode & 0o777 == 0o755
        read = lambda path: archive.extractfile(f"{name}/{path}").read().decode()  # noqa: E731
        assert "Apache License" in read("licenses/swift.txt") and "Runtime Library Exception" in read("licenses/swift.txt")
        assert "libmicrohttpd" in read("licenses/libmicrohttpd.txt").lower()
        assert "sqlite" in read("licenses/sqlite.txt").lower()
        assert "openssl" in read("licenses/openssl.txt").lower()
        notice = read("NOTICE")
        assert notice.startswith(f"auth-emulator {SOURCE_VERSION} (commit ")
        for part in ("swift", "libmicrohttpd", "sqlite", "openssl"):
            assert f"licenses/{part}.txt" in notice
        assert "apt-get install libmicrohttpd12 libsqlite3-0 libssl3" in read("README.txt")
    if not (REPO_ROOT / "LICENSE").is_file():
        assert "the repository has no LICENSE file" in result.stderr
    assert f"auth-emulator {SOURCE_VERSION}" in result.stderr.splitlines()[-1]

    # The same binary and commit make the same bytes.
    first = {p.name: p.read_bytes() for p in out.iterdir()}
    shutil.rmtree(out)
    again = subprocess.run([str(REPO_ROOT / "scripts" / "package"), str(out)], capture_output=True, text=True,
                           timeout=300, env={**os.environ, "PATH": f"{tmp_path / 'toolchain' / 'usr' / 'bin'}:{os.environ['PATH']}"})
    assert again.returncode == 0, again.stderr
    assert {p.name: p.read_bytes() for p in out.iterdir()} == first




# The Homebrew formula ------------------------------------------------------------------------

# A stand-in for Homebrew's Formula DSL: records the class-level fields, then runs `install` with
# `system` and `bin.install` recorded instead of run.
RECORDER = r'''
require "json"
class Formula
  FIELDS = Hash.new { |h, k| h[k] = [] }
  %i[desc homepage license head sha256].each do |field|
    define_singleton_method(field) { |*args, **options| FIELDS[field] << [*args, options] }
  end
  def self.url(value, **options) = FIELDS[:url] << [value, options.transform_values(&:to_s)]
  def self.version(value) = FIELDS[:version] << value
  def self.depends_on(spec)
    FIELDS[:depends_on] << (spec.is_a?(Hash) ? spec.map { |k, v| [k.to_s, Array(v).map(&:to_s)] }.to_h : spec)
  end
  def self.test(&block) = FIELDS[:test] << block.source_location.nil?.!
  class Bin
    def initialize(calls) = @calls = calls
    def install(*paths) = @calls << ["bin.install", *paths]
  end
  def calls = (@calls ||= [])
  def system(*arguments) = calls << arguments
  def bin = Bin.new(calls)
end
load ARGV[0]
formula = Object.const_get(:AuthEmulator)
raise "AuthEmulator is no Formula" unless formula < Formula
instance = formula.allocate
instance.install
puts JSON.generate(Formula::FIELDS.merge(install: instance.calls))
'''


def ruby():
    found = shutil.which("ruby")
    if found is None:
        pytest.fail("ruby is missing: install Debian's ruby (scripts/test does)", pytrace=False)
    return found


def test_the_formula_is_valid_ruby():
    result = subprocess.run([ruby(), "-c", str(FORMULA)], capture_output=True, text=True, timeout=30)
    assert (result.returncode, result.stdout.strip()) == (0, "Syntax OK"), result.stderr


def test_the_formula_builds_this_checkout_with_the_libraries_package_swift_names(tmp_path):
    recorder = tmp_path / "recorder.rb"
    recorder.write_text(RECORDER)
    result = subprocess.run([ruby(), str(recorder), str(FORMULA)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    fields = json.loads(result.stdout)
    [[desc, _]] = fields["desc"]
    # Homebrew's audit: under 80 characters, no leading article, no trailing period, not its own name.
    assert len(desc) < 80 and not re.match(r"(A|An|The) ", desc) and not desc.endswith(".")
    assert "auth-emulator" not in desc.lower()
    [[homepage, _]] = fields["homepage"]
    assert homepage.startswith("https://")
    # The source is this checkout, by git; the version is BuildInfo.version.
    assert fields["url"] == [[f"file://{REPO_ROOT}", {"using": "git"}]]
    assert fields["version"] == [SOURCE_VERSION]
    # Package.swift's Homebrew providers, and pkg-config and Xcode to build.
    providers = set(re.findall(r'\.brew\(\["([^"]+)"\]\)', (REPO_ROOT / "Package.swift").read_text()))
    assert providers == {"libmicrohttpd", "sqlite", "openssl@3"}
    runtime = {spec for spec in fields["depends_on"] if isinstance(spec, str)}
    build = [spec for spec in fields["depends_on"] if isinstance(spec, dict)]
    assert runtime == providers
    assert {"pkgconf": ["build"]} in build
    assert any("xcode" in spec and "build" in spec["xcode"] for spec in build)
    # install: the release build of the one product, and that binary into bin.
    assert fields["install"] == [
        ["swift", "build", "--disable-sandbox", "-c", "release", "--product", "auth-emulator"],
        ["bin.install", ".build/release/auth-emulator"],
    ]
    assert fields["test"] == [True]
