"""The README's and docs' set-up steps work on the first try, and no page cites what is not there:
- every relative link, every anchor and every repository path in a code span exists;
- the CI snippet and the migration page's `emulators:exec` script stop with an error when the
  emulator exits early or is not ready in time (run with stand-in binaries that do just that);
- step 3's virtual environment commands run twice in a row;
- `scripts/run` says where the binary is, for `auth-emulator mint …` in another terminal.
The examples themselves run in test_docs.py."""

import os
import re
import subprocess
import time
from pathlib import Path

import pytest

from conftest import REPO_ROOT

PAGES = ["README.md", "docker/README.md", "Tests/python/README.md", "bench/README.md",
         *sorted(str(p.relative_to(REPO_ROOT)) for p in (REPO_ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
FENCE = re.compile(r"^\s*```")
# Code spans that name a path in the repository start with one of these.
REPO_ROOTS = ("Sources/", "Tests/", "docs/", "docker/", "scripts/", "bench/", "fixtures/", ".ci/")
REPO_FILES = ("Package.swift", "README.md")


def prose(text):
    """The page without its fenced blocks (commands there are run by test_docs, not cited)."""
    lines, inside = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            lines.append(line)
    return "\n".join(lines)


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]|<[^>]+>", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    return {slug(match) for match in re.findall(r"^#+\s+(.*)$", prose(path.read_text()), re.M)}


def cited(page, text=None):
    """(target, kind) for every relative link and repository path a page (or `text`) cites."""
    text = prose((REPO_ROOT / page).read_text() if text is None else text)
    for target in LINK.findall(text):
        if not re.match(r"^[a-z]+:", target):
            yield target, "link"
    for span in CODE_SPAN.findall(text):
        candidate = span.split()[0] if span.split() else ""
        if re.search(r"[<>{}*…$\[]", candidate):
            continue
        if candidate.startswith(REPO_ROOTS) or candidate in REPO_FILES:
            yield candidate.rstrip(".,:;)"), "path"
        elif re.fullmatch(r"[\w.-]+\.(py|lua|sh|swift|yaml)", candidate):
            yield candidate, "file beside the page"


@pytest.mark.parametrize("page", PAGES)
def test_every_cited_file_and_anchor_exists(page):
    page_path = REPO_ROOT / page
    missing = []
    count = 0
    for target, kind in cited(page):
        count += 1
        path_part, _, anchor = target.partition("#")
        base = REPO_ROOT if kind == "path" else page_path.parent
        resolved = (base / path_part).resolve() if path_part else page_path
        if not resolved.exists():
            missing.append(f"{kind} {target}: no {resolved.relative_to(REPO_ROOT.resolve()) if resolved.is_relative_to(REPO_ROOT.resolve()) else resolved}")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            missing.append(f"{kind} {target}: no heading #{anchor} in {resolved.name}")
    assert missing == [], f"{page} cites what is not in the repository"
    if page == "README.md":
        assert count > 10  # the scan does see the page's citations


def test_the_citation_scan_sees_links_paths_and_anchors():
    page = "[a](docs/clock.md) [b](#five-minutes-from-nothing-to-a-signed-in-user) `scripts/run --port 0` `Sources/Nope.swift`"
    assert list(cited_text(page + " `conftest.py`"))[-1] == ("conftest.py", "file beside the page")
    assert list(cited_text(page)) == [("docs/clock.md", "link"), ("#five-minutes-from-nothing-to-a-signed-in-user", "link"),
                                      ("scripts/run", "path"), ("Sources/Nope.swift", "path")]
    assert slug("`emulators:exec`, as a script") == "emulatorsexec-as-a-script"
    assert "macos" in anchors(REPO_ROOT / "README.md")


def cited_text(text):
    return list(cited("probe.md", text))


# The CI snippet and emulators:exec -------------------------------------------------------------

def block_containing(page, needle):
    text = (REPO_ROOT / page).read_text()
    blocks = re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M)
    [block] = [block for block in blocks if needle in block]
    return block


def stand_in(tmp_path, body):
    """A directory whose `auth-emulator` is a shell script doing `body`."""
    directory = tmp_path / "bin"
    directory.mkdir()
    binary = directory / "auth-emulator"
    binary.write_text("#!/bin/sh\n" + body + "\n")
    binary.chmod(0o755)
    return directory


# The README starts CI runs with `auth-emulator exec`; the background-start script lives on in the migration page.
SNIPPETS = [("docs/migrating-from-firebase-tools.md", "deadline=$((SECONDS + 30))")]


@pytest.mark.parametrize("page, needle", SNIPPETS)
def test_the_startup_script_stops_when_the_emulator_exits(tmp_path, page, needle):
    script = block_containing(page, needle)
    bin_dir = stand_in(tmp_path, 'echo "cannot listen on 127.0.0.1:0: the stand-in refuses" >&2; exit 1')
    started = time.monotonic()
    result = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                            env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"})
    assert result.returncode == 1
    assert "auth-emulator exited before it was ready" in result.stderr
    assert "the stand-in refuses" in result.stderr  # the emulator's own log is shown
    assert time.monotonic() - started < 25  # it did not wait out its 30 s deadline


@pytest.mark.parametrize("page, needle", SNIPPETS)
def test_the_startup_script_gives_up_after_its_deadline(tmp_path, page, needle):
    # The same script with a 2 s deadline in place of 30 s, against an emulator that never gets ready.
    script = block_containing(page, needle)
    shortened = script.replace("SECONDS + 30", "SECONDS + 2")
    assert shortened != script
    bin_dir = stand_in(tmp_path, f"echo $$ > {tmp_path}/pid; exec sleep 60")
    started = time.monotonic()
    result = subprocess.run(["bash", "-c", shortened], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                            env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"})
    assert result.returncode == 1
    assert "auth-emulator not ready within 30 s" in result.stderr
    assert 0.9 < time.monotonic() - started < 20  # SECONDS counts whole seconds; the stand-in sleeps 60
    # It stopped the emulator it started.
    pid = int((tmp_path / "pid").read_text())
    for _ in range(50):
        if not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text().lower():
            break
        time.sleep(0.1)
    else:
        os.kill(pid, 9)
        pytest.fail("the script left the emulator running")


# Step 3's virtual environment ------------------------------------------------------------------

def test_the_venv_step_runs_twice(tmp_path):
    text = (REPO_ROOT / "README.md").read_text()
    [block] = re.findall(r"^```sh no-run\n(python3 -m venv .*?)^```", text, re.S | re.M)
    assert "pip install" in block and "firebase-admin" in block
    # No network here: pip is asked for its version instead of the two packages; the venv itself is real.
    offline = block.replace("pip install --quiet firebase-admin requests", "pip --version")
    assert offline != block
    env = {**os.environ, "HOME": str(tmp_path)}
    for attempt in range(2):
        result = subprocess.run(["bash", "-e", "-c", offline + '\ncommand -v python3'], capture_output=True, text=True,
                                timeout=120, env=env)
        assert result.returncode == 0, (attempt, result.stderr)
        assert result.stdout.strip().endswith(f"{tmp_path}/.venvs/auth-emulator-demo/bin/python3"), result.stdout


# scripts/run says where the binary is -----------------------------------------------------------

def test_scripts_run_says_how_to_put_the_binary_on_path_and_runs_where_it_was_called(tmp_path):
    # A copy of scripts/ beside stand-ins for swift, the package check and the release binary. It
    # builds in the checkout and runs in the caller's directory (a Firebase project's, with its
    # firebase.json), where relative paths like `--data e.db` are meant.
    checkout = tmp_path / "checkout"
    (checkout / "scripts").mkdir(parents=True)
    for name in ("run", "ensure-packages.sh", "release-build.sh"):
        (checkout / "scripts" / name).write_text((REPO_ROOT / "scripts" / name).read_text())
    (checkout / "scripts" / "run").chmod(0o755)
    release = checkout / ".build" / "release"
    release.mkdir(parents=True)
    (release / "auth-emulator").write_text('#!/bin/sh\necho "the emulator ran with: $*"\necho "in $PWD"\n')
    (release / "auth-emulator").chmod(0o755)
    tools = tmp_path / "tools"
    tools.mkdir()
    swift_calls = tmp_path / "swift-calls"
    for name, body in (("swift", f'echo "$* in $PWD" >> {swift_calls}'), ("dpkg-query", "echo 'install ok installed'"),
                       ("uname", "echo Linux")):
        (tools / name).write_text(f"#!/bin/sh\n{body}\n")
        (tools / name).chmod(0o755)
    project = tmp_path / "project"
    project.mkdir()
    result = subprocess.run([str(checkout / "scripts" / "run"), "--port", "0"], cwd=project, capture_output=True,
                            text=True, timeout=30, env={**os.environ, "PATH": f"{tools}:/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["the emulator ran with: --port 0", f"in {project}"]
    assert f'export PATH="{checkout}/.build/release:$PATH"' in result.stderr
    # On Linux the release build links the Swift runtime statically (scripts/release-build.sh).
    assert swift_calls.read_text().splitlines() == [f"build -c release --static-swift-stdlib --product auth-emulator in {checkout}"]


# The README is a user guide ----------------------------------------------------------------------

def test_the_readme_stays_a_short_guide():
    # Reference goes to docs/, measurements and their history to bench/README.md (issue 27.3).
    lines = (REPO_ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines; move reference material into docs/"
    assert "](bench/README.md)" in "\n".join(lines) and "](docs/README.md)" in "\n".join(lines)
