"""`pip install ./clients/python` in a fresh virtual environment, with no package index at all."""

import json
import subprocess
import sys

from auth_emulator import __version__
from conftest import KIT_ROOT

CHECK = """
import importlib.metadata as metadata, json, pathlib, auth_emulator
plugins = {entry.name: entry.value for entry in metadata.entry_points(group="pytest11")}
package = pathlib.Path(auth_emulator.__file__).parent
print(json.dumps({"plugins": plugins, "version": metadata.version("auth-emulator-kit"),
                  "requires": metadata.requires("auth-emulator-kit"), "typed": (package / "py.typed").is_file(),
                  "where": str(package), "files": sorted(p.name for p in package.iterdir() if p.is_file())}))
"""


def test_pip_installs_it_offline_into_a_fresh_environment(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = str(venv / "bin" / "python")
    installed = subprocess.run([python, "-m", "pip", "install", "--no-index", "--disable-pip-version-check",
                                str(KIT_ROOT)], capture_output=True, text=True, timeout=300)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    found = json.loads(subprocess.run([python, "-c", CHECK], capture_output=True, text=True, check=True,
                                      cwd=tmp_path, timeout=60).stdout)
    assert found["plugins"] == {"auth_emulator": "auth_emulator.plugin"}
    assert found["version"] == __version__ and found["requires"] is None and found["typed"]
    assert found["where"].startswith(str(venv)), "the package was not copied into the environment"
    assert {"plugin.py", "emulator.py", "py.typed"} <= set(found["files"])
    assert not list(KIT_ROOT.glob("build")) and not list(KIT_ROOT.rglob("*.egg-info")), "the build wrote into the tree"
