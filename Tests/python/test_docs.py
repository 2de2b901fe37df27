"""The examples in README.md and docs/*.md run, so the docs stay true.

For every page, the fenced ```sh and ```python blocks are taken in order and run against a fresh
binary of their own (started with `start_emulator`, on a free port, for project `demo-project`, the
project the docs use), with `127.0.0.1:9099` in the text rewritten to that binary's address:
- all ```sh blocks of a page run in one bash session (`set -e -o pipefail` per block, so any failing
  command fails the block), so a variable or function one block sets is there for the next; the
  working directory is a scratch directory, `auth-emulator` (the binary under test) is on `PATH`
  and `FIREBASE_AUTH_EMULATOR_HOST` names the fresh binary;
- each ```python block runs as a script of its own with the project's virtual environment
  (firebase_admin, PyJWT, cryptography, requests), with the same environment, so every Python
  example is complete as written.
Set DOCS_SHOW_OUTPUT=1 (with pytest -s) to see every block's output. A block fails the test with its text and output if it exits non-zero. Blocks are never skipped
silently: a block is left out only when its fence says so (```sh no-run), every page has a
minimum number of blocks that must run (`MINIMUM_BLOCKS`, which must list every page), and a
block marked `copy-of=<page>` must appear verbatim in a runnable block of that page. A page gets
emulator flags from a marker such as `<!-- emulator-flags: --id-tokens signed -->`.
"""

import os
import queue
import re
import shlex
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conftest import REPO_ROOT, binary_path, start_emulator, stop_emulator

DOC_HOST = "127.0.0.1:9099"
# The SMTP listener as the docs write it, in shell (`host:port`) and in Python (`"host", port`).
DOC_SMTP = ("127.0.0.1:2525", '"127.0.0.1", 2525')
SMTP_BANNER = re.compile(r"^\s+smtp\s+(\S+):(\d+) ")
DOC_PROJECT = "demo-project"
BLOCK_TIMEOUT_SECONDS = 30

# How many blocks of each page must run. A new page must be added here, so none is skipped.
MINIMUM_BLOCKS = {
    "README.md": 10,
    "docs/README.md": 1,
    "docs/fake-identity-providers.md": 14,
    "docs/outbox.md": 12,
    "docs/private-relay.md": 6,
    "docs/app-mail.md": 5,
    "docs/clock.md": 5,
    "docs/strict-mode.md": 3,
    "docs/signed-id-tokens.md": 5,
    "docs/console.md": 1,
    "docs/resets.md": 4,
    "docs/migrating-from-firebase-tools.md": 5,
}

RUNNABLE_LANGUAGES = {"sh", "python"}
# Fences that look like shell or Python but would not be run: spell them sh or python.
MISSPELLED_LANGUAGES = {"bash", "shell", "console", "zsh", "py", "python3", "pycon"}

FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<info>[^`]*)$")
FLAGS_MARKER = re.compile(r"<!--\s*emulator-flags:(?P<flags>.*?)-->")


@dataclass
class Block:
    page: str
    line: int
    language: str
    attributes: list
    text: str

    @property
    def runs(self):
        return self.language in RUNNABLE_LANGUAGES and "no-run" not in self.attributes and self.copy_of is None

    @property
    def copy_of(self):
        for attribute in self.attributes:
            if attribute.startswith("copy-of="):
                return attribute.removeprefix("copy-of=")
        return None


@dataclass
class Page:
    name: str
    flags: list
    blocks: list = field(default_factory=list)

    @property
    def runnable(self):
        return [block for block in self.blocks if block.runs]


def read_page(path):
    name = path.relative_to(REPO_ROOT).as_posix()
    text = path.read_text(encoding="utf-8")
    flags = [flag for marker in FLAGS_MARKER.finditer(text) for flag in shlex.split(marker.group("flags"))]
    page = Page(name, flags)
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        indent = opening.group("indent")
        info = opening.group("info").split()
        start = index
        body = []
        index += 1
        while index < len(lines) and lines[index].strip() != "```":
            line = lines[index]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            index += 1
        assert index < len(lines), f"{name}:{start + 1}: a fenced block is never closed"
        index += 1
        language = info[0] if info else ""
        page.blocks.append(Block(name, start + 1, language, info[1:], "\n".join(body) + "\n"))
    return page


def all_pages():
    paths = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
    return [read_page(path) for path in paths]


PAGES = all_pages()


@pytest.fixture(autouse=True)
def client():
    """Overrides conftest's per-test user clearing: every page gets a binary of its own instead."""
    return None


def test_every_page_is_listed_and_fenced_so_that_it_runs():
    names = {page.name for page in PAGES}
    assert names == set(MINIMUM_BLOCKS), (
        f"pages without a minimum: {sorted(names - set(MINIMUM_BLOCKS))}; "
        f"listed but missing: {sorted(set(MINIMUM_BLOCKS) - names)}")
    for page in PAGES:
        for block in page.blocks:
            assert block.language not in MISSPELLED_LANGUAGES, (
                f"{page.name}:{block.line}: fence it as sh or python (```{block.language} is never run)")


def test_copies_are_verbatim_copies_of_examples_that_run():
    by_name = {page.name: page for page in PAGES}
    copies = [block for page in PAGES for block in page.blocks if block.copy_of]
    for block in copies:
        source = by_name.get(block.copy_of)
        assert source, f"{block.page}:{block.line}: copy-of names no page: {block.copy_of}"
        assert any(block.text in original.text for original in source.runnable), (
            f"{block.page}:{block.line} is not a verbatim part of any runnable block in {block.copy_of}:\n{block.text}")


def test_docs_index_links_every_page_and_links_resolve():
    index = (REPO_ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    for page in PAGES:
        if page.name.startswith("docs/") and page.name != "docs/README.md":
            assert f"({Path(page.name).name})" in index, f"docs/README.md does not link {page.name}"
    for page in PAGES:
        text = (REPO_ROOT / page.name).read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if "://" in target:
                continue
            resolved = (REPO_ROOT / page.name).parent / target
            assert resolved.exists(), f"{page.name} links {target}, which does not exist"


class Shell:
    """One bash session for a page's sh blocks; each block is sourced with `set -e -o pipefail`."""

    def __init__(self, environment, directory):
        self.directory = directory
        self.process = subprocess.Popen(
            ["bash", "--noprofile", "--norc"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, env=environment, cwd=directory, start_new_session=True)
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, name="docs-shell", daemon=True).start()
        self.count = 0

    def _pump(self):
        for raw in self.process.stdout:
            self.lines.put(raw.decode("utf-8", "replace"))
        self.lines.put(None)

    def run(self, text):
        """Answers (succeeded, output)."""
        self.count += 1
        script = self.directory / f"block-{self.count}.sh"
        script.write_text(text, encoding="utf-8")
        marker = f"__docs_block_{self.count}_done__"
        try:
            self.process.stdin.write(
                f"set -e -o pipefail\nsource {shlex.quote(str(script))} < /dev/null\nset +e +o pipefail\n"
                f"printf '\\n%s\\n' {marker}\n".encode())
            self.process.stdin.flush()
        except BrokenPipeError:
            return False, f"(the shell had exited, status {self.process.wait()})"

        output = []
        deadline = time.monotonic() + BLOCK_TIMEOUT_SECONDS
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False, "".join(output) + f"\n(no end after {BLOCK_TIMEOUT_SECONDS} s)"
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                status = self.process.wait()
                return False, "".join(output) + f"\n(the shell exited with status {status})"
            if line.strip() == marker:
                return True, "".join(output)
            output.append(line)

    def close(self):
        try:
            self.process.stdin.close()
            self.process.wait(timeout=5)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            pass
        finally:
            try:  # background jobs a block started (and forgot) go with the session
                os.killpg(self.process.pid, 9)
            except ProcessLookupError:
                pass
            self.process.wait()


def run_python(text, environment, directory, number):
    script = directory / f"block-{number}.py"
    script.write_text(text, encoding="utf-8")
    try:
        result = subprocess.run([sys.executable, str(script)], env=environment, cwd=directory,
                                stdin=subprocess.DEVNULL, capture_output=True, timeout=BLOCK_TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired as timeout:
        return False, f"{timeout.stdout or b''!r}{timeout.stderr or b''!r}\n(no end after {BLOCK_TIMEOUT_SECONDS} s)"
    output = (result.stdout + result.stderr).decode("utf-8", "replace")
    return result.returncode == 0, output + ("" if result.returncode == 0 else f"\n(exit status {result.returncode})")


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_examples_run(page, tmp_path):
    minimum = MINIMUM_BLOCKS.get(page.name)
    assert minimum is not None, f"{page.name} has no entry in MINIMUM_BLOCKS"
    runnable = page.runnable
    assert len(runnable) >= minimum, (
        f"{page.name}: only {len(runnable)} runnable blocks, at least {minimum} expected "
        f"(left out: {[(b.line, b.language, b.attributes) for b in page.blocks if not b.runs]})")

    running = start_emulator(*page.flags, project_id=DOC_PROJECT)
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "auth-emulator").symlink_to(binary_path())
    work = tmp_path / "work"
    work.mkdir()
    environment = dict(os.environ, FIREBASE_AUTH_EMULATOR_HOST=running.host, PYTHONDONTWRITEBYTECODE="1",
                       PATH=f"{tools}{os.pathsep}{os.environ.get('PATH', '')}")
    shell = None
    ran = 0
    try:
        for number, block in enumerate(runnable, start=1):
            text = block.text.replace(DOC_HOST, running.host)
            for line in running.stdout_lines:
                if smtp := SMTP_BANNER.match(line):
                    text = text.replace(DOC_SMTP[0], f"{smtp.group(1)}:{smtp.group(2)}")
                    text = text.replace(DOC_SMTP[1], f'"{smtp.group(1)}", {smtp.group(2)}')
            if block.language == "sh":
                shell = shell or Shell(environment, work)
                succeeded, output = shell.run(text)
            else:
                succeeded, output = run_python(text, environment, work, number)
            if os.environ.get("DOCS_SHOW_OUTPUT"):
                print(f"\n=== {page.name}:{block.line} ({block.language})\n{output}", end="")
            if not succeeded:
                pytest.fail(
                    f"{page.name}:{block.line}: the ```{block.language} block failed\n--- block ---\n{text}"
                    f"--- output ---\n{output[-6000:]}\n--- emulator ---\n{running.output()[-4000:]}", pytrace=False)
            ran += 1
    finally:
        if shell:
            shell.close()
        stop_emulator(running)
    assert ran == len(runnable) >= minimum
