"""The examples in README.md and docs/*.md run, so the docs stay true.

For every page, the fenced ```sh and ```python blocks are taken in order and run against a fresh
binary of their own (started with `start_emulator`, on a free port, for project `demo-project`, the
project the docs use), with `127.0.0.1:9099` in the text rewritten to that binary's address, and
then all of them again on the same binary: a reader runs a page again on the emulator they left
running, so no page may assume a fresh one.
- all ```sh blocks of one run of a page run in one bash session (`set -e -o pipefail` per block, so any failing
  command fails the block), so a variable or function one block sets is there for the next; the
  working directory is a scratch directory, `auth-emulator` (the binary under test) is on `PATH`
  and `FIREBASE_AUTH_EMULATOR_HOST` names the fresh binary;
- each ```python block runs as a script of its own with the project's virtual environment
  (firebase_admin, PyJWT, cryptography, requests), with the same environment, so every Python
  example is complete as written.
A block fails the test if it exits non-zero; the report names the run and the page's line of the
failing command (an ERR trap in bash; a traceback's lines in Python), shows the block with the
page's line numbers, and its stdout and stderr apart. Every curl example must show an error answer
(`--fail-with-body`, never `-f` or a body sent to /dev/null). Set DOCS_SHOW_OUTPUT=1 (with pytest
-s) to see every block's output. Blocks are never skipped
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
# A reader runs a page again on the emulator they left running: every page must run twice on one.
RUNS_PER_PAGE = 2

# How many blocks of each page must run. A new page must be added here, so none is skipped.
MINIMUM_BLOCKS = {
    "README.md": 5,
    "docs/README.md": 1,
    "docs/fake-identity-providers.md": 14,
    "docs/strict-mode.md": 3,
    "docs/outbox.md": 12,
    "docs/private-relay.md": 6,
    "docs/app-mail.md": 5,
    "docs/phone-and-mfa.md": 1,
    "docs/clock.md": 5,
    "docs/signed-id-tokens.md": 5,
    "docs/console.md": 1,
    "docs/resets.md": 4,
    "docs/migrating-from-firebase-tools.md": 5,
    "docs/command-line.md": 8,
    "docs/running.md": 1,
    "docs/compatibility.md": 2,
    "docs/hostile-input.md": 0,  # reference: limits, fuzzing and sanitizer runs (their tests are elsewhere)
    "docs/macos.md": 0,  # a Mac's build steps, which this machine cannot run
    "docs/layout.md": 0,  # contributors' commands and the code's layout
    "docs/start-up.md": 3,
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
    """One bash session for one run of a page's sh blocks; each block is sourced with
    `set -e -o pipefail`, its stdout read through a pipe and its stderr kept in a file of its own.
    An ERR trap notes the failing command's line and status, so a failure names the page's line."""

    def __init__(self, environment, work, scripts):
        self.scripts = scripts
        self.process = subprocess.Popen(
            ["bash", "--noprofile", "--norc"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, env=environment, cwd=work, start_new_session=True)
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, name="docs-shell", daemon=True).start()
        self.count = 0

    def _pump(self):
        for raw in self.process.stdout:
            self.lines.put(raw.decode("utf-8", "replace"))
        self.lines.put(None)

    def run(self, text):
        """Answers an Outcome."""
        self.count += 1
        script = self.scripts / f"block-{self.count}.sh"
        script.write_text(text, encoding="utf-8")
        errors = self.scripts / f"block-{self.count}.stderr"
        failed_at = self.scripts / f"block-{self.count}.failed"
        marker = f"__docs_block_{self.count}_done__"
        quoted = {name: shlex.quote(str(path)) for name, path in
                  (("script", script), ("errors", errors), ("failed_at", failed_at))}
        try:
            self.process.stdin.write(
                f"trap 'printf \"%s %s\\n\" \"$?\" \"$LINENO\" > {quoted['failed_at']}' ERR\n"
                f"set -e -o pipefail\nsource {quoted['script']} < /dev/null 2> {quoted['errors']}\n"
                f"set +e +o pipefail\ntrap - ERR\nprintf '\\n%s\\n' {marker}\n".encode())
            self.process.stdin.flush()
        except BrokenPipeError:
            return Outcome(False, "", "", f"the shell had exited, status {self.process.wait()}")

        output = []
        deadline = time.monotonic() + BLOCK_TIMEOUT_SECONDS
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return Outcome(False, "".join(output), read_text(errors), f"no end after {BLOCK_TIMEOUT_SECONDS} s")
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                status = self.process.wait()
                status_and_line = read_text(failed_at).split()
                failing_line = int(status_and_line[1]) if len(status_and_line) == 2 else None
                return Outcome(False, "".join(output), read_text(errors),
                               f"the shell exited with status {status}", failing_line)
            if line.strip() == marker:
                return Outcome(True, "".join(output).removesuffix("\n"), read_text(errors))
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


def read_text(path):
    return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""


@dataclass
class Outcome:
    succeeded: bool
    stdout: str
    stderr: str
    ending: str = ""  # how a failed block ended
    failing_line: int | None = None  # the failing command's line within the block (sh)


def run_python(text, environment, work, scripts, number):
    script = scripts / f"block-{number}.py"
    script.write_text(text, encoding="utf-8")
    try:
        result = subprocess.run([sys.executable, str(script)], env=environment, cwd=work,
                                stdin=subprocess.DEVNULL, capture_output=True, timeout=BLOCK_TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired as timeout:
        return Outcome(False, (timeout.stdout or b"").decode("utf-8", "replace"),
                       (timeout.stderr or b"").decode("utf-8", "replace"), f"no end after {BLOCK_TIMEOUT_SECONDS} s")
    return Outcome(result.returncode == 0, result.stdout.decode("utf-8", "replace"),
                   result.stderr.decode("utf-8", "replace"), f"exit status {result.returncode}")


# A traceback's line in a block's script, which failure_report turns into the page's line.
PYTHON_TRACEBACK_LINE = re.compile(r'File "[^"]*/block-\d+\.py", line (\d+)')


def failure_report(block, text, outcome, run, runs, emulator_output):
    """What a failed block shows: where it is, its text with the page's line numbers (the failing
    command marked), its stdout and stderr apart, and the end of the emulator's log."""
    stderr = PYTHON_TRACEBACK_LINE.sub(lambda found: f'File "{block.page}", line {block.line + int(found.group(1))}',
                                       outcome.stderr)
    numbered = []
    for offset, line in enumerate(text.rstrip("\n").split("\n"), start=1):
        mark = ">>" if offset == outcome.failing_line else "  "
        numbered.append(f"{mark}{block.line + offset:5} | {line}")
    where = f"{block.page}:{block.line + outcome.failing_line}" if outcome.failing_line else f"{block.page}:{block.line}"
    run_note = f" (run {run} of {runs} on one emulator{': it ran once before, so it must not assume a fresh emulator' if run > 1 else ''})"
    return (f"{where}: the ```{block.language} block at line {block.line} failed{run_note}, {outcome.ending}\n"
            f"--- block ---\n" + "\n".join(numbered) + "\n"
            f"--- stdout ---\n{outcome.stdout[-6000:] or '(none)'}\n"
            f"--- stderr ---\n{stderr[-6000:] or '(none)'}\n"
            f"--- emulator ---\n{emulator_output[-4000:]}")


def run_page(page, running, directory, runs=RUNS_PER_PAGE):
    """Runs a page's runnable blocks `runs` times in a row against one emulator (`running`), each
    run in a shell of its own but in the same working directory, as a reader who runs a page again
    does. Answers None, or the first failed block's report."""
    tools = directory / "bin"
    tools.mkdir(parents=True)
    (tools / "auth-emulator").symlink_to(binary_path())
    work = directory / "work"
    work.mkdir()
    environment = dict(os.environ, FIREBASE_AUTH_EMULATOR_HOST=running.host, PYTHONDONTWRITEBYTECODE="1",
                       PATH=f"{tools}{os.pathsep}{os.environ.get('PATH', '')}")
    for run in range(1, runs + 1):
        scripts = directory / f"run-{run}"
        scripts.mkdir()
        shell = None
        try:
            for number, block in enumerate(page.runnable, start=1):
                text = block.text.replace(DOC_HOST, running.host)
                for line in running.stdout_lines:
                    if smtp := SMTP_BANNER.match(line):
                        text = text.replace(DOC_SMTP[0], f"{smtp.group(1)}:{smtp.group(2)}")
                        text = text.replace(DOC_SMTP[1], f'"{smtp.group(1)}", {smtp.group(2)}')
                if block.language == "sh":
                    shell = shell or Shell(environment, work, scripts)
                    outcome = shell.run(text)
                else:
                    outcome = run_python(text, environment, work, scripts, number)
                if os.environ.get("DOCS_SHOW_OUTPUT"):
                    print(f"\n=== {page.name}:{block.line} ({block.language}, run {run})\n{outcome.stdout}{outcome.stderr}", end="")
                if not outcome.succeeded:
                    return failure_report(block, text, outcome, run, runs, running.output())
        finally:
            if shell:
                shell.close()
    return None


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_examples_run_twice_on_one_emulator(page, tmp_path):
    minimum = MINIMUM_BLOCKS.get(page.name)
    assert minimum is not None, f"{page.name} has no entry in MINIMUM_BLOCKS"
    runnable = page.runnable
    assert len(runnable) >= minimum, (
        f"{page.name}: only {len(runnable)} runnable blocks, at least {minimum} expected "
        f"(left out: {[(b.line, b.language, b.attributes) for b in page.blocks if not b.runs]})")

    running = start_emulator(*page.flags, project_id=DOC_PROJECT)
    try:
        failure = run_page(page, running, tmp_path)
    finally:
        stop_emulator(running)
    if failure:
        pytest.fail(failure, pytrace=False)


# Examples show why they failed --------------------------------------------------------------------

CURL_SHORT_FAIL = re.compile(r"\s-[a-zA-Z]*f[a-zA-Z]*(?=\s)")  # -f, -sf, -fsS: exits 22 and prints nothing
CURL_PLAIN_FAIL = re.compile(r"--fail(?!-with-body)\b")
DISCARDED = re.compile(r"(?:>|-o)\s*/dev/null")


def curl_commands(block):
    """Each command of a sh block that runs curl, continuation lines joined, up to its next `|`,
    `&&`, `||` or `;` (so a `> /dev/null` there is the curl's own)."""
    joined = re.sub(r"\\\n\s*", " ", block.text)
    for line in joined.split("\n"):
        line = line.split(" # ")[0] if not line.lstrip().startswith("#") else ""
        for match in re.finditer(r"\bcurl\s", line):
            rest = line[match.start():]
            end = re.search(r"\s(?:\||&&|\|\||;)\s", rest)
            yield rest[:end.start()] if end else rest, rest


def curl_problem(command, rest):
    """Why a curl command (and `rest`, the line from it on) would hide a failure, or None: it must
    use `--fail-with-body` (the answer still reaches the output), never `-f` (exit 22, no body)
    nor send the body to /dev/null; a curl that expects an error answer reads it (`-s … | grep …`,
    or `-w '%{http_code}'`)."""
    if CURL_SHORT_FAIL.search(f" {command} ") or CURL_PLAIN_FAIL.search(command):
        return "-f hides the error body; use -sS --fail-with-body"
    if "--fail-with-body" in command:
        return "the error body goes to /dev/null; print a field of the answer instead" if DISCARDED.search(command) else None
    if re.search(r"\|\s*grep\b", rest) or "-w " in command:
        return None
    return "without --fail-with-body a failed request goes unnoticed"


def test_every_curl_example_shows_the_error_body_when_it_fails():
    problems = [f"{page.name}:{block.line}: {command[:100]}: {problem}"
                for page in PAGES for block in page.runnable if block.language == "sh"
                for command, rest in curl_commands(block) if (problem := curl_problem(command, rest))]
    assert problems == [], "\n".join(problems)


def test_the_curl_check_sees_hidden_errors():
    def problems(text):
        return [curl_problem(command, rest) for command, rest in curl_commands(Block("probe.md", 1, "sh", [], text))]
    assert problems("curl -sf http://x/ > /dev/null\n")[0].startswith("-f hides")
    assert problems("curl -fsS http://x/\n")[0].startswith("-f hides")
    assert problems("curl --fail http://x/\n")[0].startswith("-f hides")
    assert problems("curl -sS --fail-with-body http://x/ \\\n  -d '{}' > /dev/null\n")[0].startswith("the error body goes")
    assert problems("curl -sS http://x/\n")[0].startswith("without --fail-with-body")
    assert problems("curl -sS --fail-with-body http://x/ | field email > /dev/null\n") == [None]
    assert problems("curl -s -o /dev/null -w '%{http_code}' http://x/  # -f is not here\n") == [None]
    assert problems("curl -s http://x/ | grep -o EMAIL_EXISTS\n") == [None]


# A page that assumes a fresh emulator fails, and says where ------------------------------------

def probe_page(language, text):
    page = Page("docs/probe.md", [])
    page.blocks.append(Block("docs/probe.md", 10, language, [], text))
    return page


def test_a_page_that_assumes_a_fresh_emulator_fails_on_its_second_run(tmp_path):
    # Run once, this signs up a new user; run again on the same emulator, the email is taken.
    page = probe_page("sh", "echo signing up\n"
                            "curl -sS --fail-with-body 'http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any' \\\n"
                            "  -d '{\"email\":\"probe@example.com\",\"password\":\"secret123\"}'\n"
                            "echo not reached the second time\n")
    running = start_emulator(project_id=DOC_PROJECT)
    try:
        assert run_page(page, running, tmp_path / "once", runs=1) is None
        report = run_page(page, running, tmp_path / "twice", runs=2)
    finally:
        stop_emulator(running)
    assert report is not None
    # Already the first of these two runs meets the account the run above made.
    assert report.startswith("docs/probe.md:12: the ```sh block at line 10 failed (run 1 of 2"), report
    assert "the shell exited with status 22" in report.split("\n")[0]
    stdout = report.split("--- stdout ---\n")[1].split("--- stderr ---")[0]
    stderr = report.split("--- stderr ---\n")[1].split("--- emulator ---")[0]
    assert "signing up" in stdout and "EMAIL_EXISTS" in stdout  # the error body, thanks to --fail-with-body
    assert "curl: (22)" in stderr and "EMAIL_EXISTS" not in stderr
    assert ">>   12 | curl -sS --fail-with-body" in report  # the failing command, by the page's line
    assert "   14 | echo not reached" in report


def test_a_failing_python_block_names_the_page_line_and_keeps_its_streams_apart(tmp_path):
    exits = probe_page("python", "import sys\nprint('to stdout')\nprint('to stderr', file=sys.stderr)\nraise SystemExit(3)\n")
    raises = probe_page("python", "value = {}\nvalue['missing']\n")
    running = start_emulator(project_id=DOC_PROJECT)
    try:
        exited = run_page(exits, running, tmp_path / "exits")
        raised = run_page(raises, running, tmp_path / "raises")
    finally:
        stop_emulator(running)
    assert exited.startswith("docs/probe.md:10: the ```python block at line 10 failed (run 1 of 2"), exited
    assert exited.split("\n")[0].endswith("exit status 3")
    assert "--- stdout ---\nto stdout\n" in exited and "--- stderr ---\nto stderr\n" in exited
    assert 'File "docs/probe.md", line 12' in raised, raised  # the traceback points into the page
