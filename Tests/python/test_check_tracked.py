"""scripts/check-tracked, the first step of scripts/test: it fails when the repository tracks what a
fresh clone must not have (what .gitignore ignores, build outputs, virtual environments, caches,
databases, links out of the tree) and says what to `git rm --cached`. Each case is a real git
repository in a temporary folder with this repository's .gitignore."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
SCRIPT = REPO_ROOT / "scripts" / "check-tracked"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def git(repo, *arguments):
    return subprocess.run(["git", "-C", str(repo), *arguments], check=True, capture_output=True, text=True).stdout


def check(repo):
    return subprocess.run([str(SCRIPT), str(repo)], capture_output=True, text=True, timeout=60)


@pytest.fixture
def repo(tmp_path):
    """A repository with this one's .gitignore and one ordinary file; `add` force-adds paths, as a
    careless `git add -f` or a missing .gitignore line would."""
    root = tmp_path / "clone"
    root.mkdir()
    git(root, "init", "-q")
    shutil.copy(REPO_ROOT / ".gitignore", root / ".gitignore")
    (root / "Sources").mkdir()
    (root / "Sources" / "main.swift").write_text("print(1)\n")
    git(root, "add", ".")
    return root


def add(repo, *paths):
    git(repo, "add", "-f", "--", *paths)


def test_this_repository_tracks_nothing_it_should_not():
    result = check(REPO_ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_a_clean_repository_passes(repo):
    result = check(repo)
    assert (result.returncode, result.stderr) == (0, "")


def test_a_venv_link_into_another_worktree_fails_and_the_printed_command_fixes_it(repo, tmp_path):
    # The case that broke every fresh clone: .venv -> <a developer's worktree>/.venv.
    elsewhere = tmp_path / "other-worktree" / ".venv"
    elsewhere.mkdir(parents=True)
    (repo / ".venv").symlink_to(elsewhere)
    add(repo, ".venv")
    result = check(repo)
    assert result.returncode == 1
    assert ".venv: ignored by .gitignore" in result.stderr
    assert f"a symbolic link to the absolute path {elsewhere}" in result.stderr
    command = result.stderr.strip().splitlines()[-1].strip()
    assert command == "git rm -r --cached -- .venv"
    subprocess.run(command, shell=True, cwd=repo, check=True, capture_output=True)
    assert check(repo).returncode == 0
    assert (repo / ".venv").is_symlink(), "git rm --cached keeps the file on disk"


def test_a_tracked_build_folder_is_one_line_with_its_count(repo):
    debug = repo / "fuzz" / ".build" / "debug"
    debug.mkdir(parents=True)
    for i in range(40):
        (debug / f"object{i}.o").write_bytes(b"\0")
    add(repo, "fuzz/.build")
    result = check(repo)
    assert result.returncode == 1
    assert "tracks 40 path(s)" in result.stderr
    assert "  fuzz/.build/ (40 tracked file(s)): ignored by .gitignore:" in result.stderr
    assert result.stderr.count("object") == 0
    assert result.stderr.strip().endswith("git rm -r --cached -- fuzz/.build")


def test_what_gitignore_forgot_is_still_refused(repo):
    # A virtual environment under any name (its pyvenv.cfg), bytecode and databases, with a
    # .gitignore that names none of them.
    (repo / ".gitignore").write_text("")
    (repo / "env" / "lib").mkdir(parents=True)
    (repo / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (repo / "env" / "lib" / "site.py").write_text("")
    (repo / "Tests").mkdir()
    (repo / "Tests" / "helper.cpython-311.pyc").write_bytes(b"\0")
    (repo / "state.sqlite").write_bytes(b"\0")
    (repo / "state.sqlite-wal").write_bytes(b"\0")
    (repo / ".swiftpm").mkdir()
    (repo / ".swiftpm" / "config").write_text("")
    add(repo, ".")
    result = check(repo)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert "  env/ (2 tracked file(s)): inside the virtual environment env/ (it has a pyvenv.cfg)" in lines
    assert any(line.startswith("  Tests/helper.cpython-311.pyc: a *.pyc file") for line in lines)
    assert any(line.startswith("  state.sqlite: a *.sqlite file") for line in lines)
    assert any(line.startswith("  state.sqlite-wal: a *.sqlite-wal file") for line in lines)
    assert any(line.startswith("  .swiftpm/ (1 tracked file(s)): inside a .swiftpm/ folder") for line in lines)


def test_a_path_gitignore_explicitly_allows_passes(repo):
    with open(repo / ".gitignore", "a") as gitignore:
        gitignore.write("!fixtures/schema-1.sqlite\n")
    (repo / "fixtures").mkdir()
    (repo / "fixtures" / "schema-1.sqlite").write_bytes(b"\0")
    add(repo, ".")
    result = check(repo)
    assert (result.returncode, result.stderr) == (0, "")


def test_links_must_stay_in_the_tree_and_name_a_tracked_path(repo):
    (repo / "docs").mkdir()
    (repo / "docs" / "page.md").write_text("")
    os.symlink("../Sources/main.swift", repo / "docs" / "main.swift")  # a tracked file: fine
    os.symlink("Sources", repo / "sources")                          # a tracked folder: fine
    os.symlink("../../outside", repo / "docs" / "up")                 # leaves the tree
    os.symlink(".build/debug/auth-emulator", repo / "auth-emulator")  # an untracked (ignored) path
    add(repo, ".")
    result = check(repo)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert "  docs/up: a symbolic link to ../../outside, which leaves the tree" in lines
    assert ("  auth-emulator: a symbolic link to .build/debug/auth-emulator, which the repository "
            "does not track: dangling in a fresh clone") in lines
    assert "tracks 2 path(s)" in lines[0]
    assert lines[-1].strip() == "git rm -r --cached -- auth-emulator docs/up"


def test_a_folder_that_is_no_checkout_passes_with_a_word(tmp_path):
    result = check(tmp_path)
    assert result.returncode == 0
    assert "not a git checkout" in result.stderr
