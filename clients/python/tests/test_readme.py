"""The README's examples run: a block that opens with `# test_<name>.py` is a test file run by
pytest (in a process of its own, as a user would run it), every other Python block a script.
Blocks fenced `no-run` are left out; every other Python block must be one of the two kinds."""

import re
import subprocess
import sys

import pytest

from conftest import KIT_ROOT

FENCE = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
TEST_FILE = re.compile(r"^# (test_\w+)\.py")
MINIMUM_BLOCKS = 5


def blocks():
    text = (KIT_ROOT / "README.md").read_text(encoding="utf-8")
    found = []
    for match in FENCE.finditer(text):
        language, attributes, body = match.group(1), match.group(2).split(), match.group(3)
        if language == "python" and "no-run" not in attributes:
            line = text[:match.start()].count("\n") + 1
            found.append(pytest.param(body, id=f"README.md:{line}"))
    return found


def test_the_readme_has_its_examples():
    assert len(blocks()) >= MINIMUM_BLOCKS


@pytest.mark.parametrize("body", blocks())
def test_example(body, inner, pytester):
    if name := TEST_FILE.match(body):
        pytester.makepyfile(**{name.group(1): body})
        result = inner()
        assert result.ret == 0, result.stdout.str()
        assert result.parseoutcomes().get("passed", 0) >= 1
        return
    script = pytester.path / "example.py"
    script.write_text(body, encoding="utf-8")
    ran = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                         cwd=pytester.path)
    assert ran.returncode == 0, f"{body}\n--- stdout ---\n{ran.stdout}\n--- stderr ---\n{ran.stderr}"
