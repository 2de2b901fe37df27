"""The kit's PEP 517 build backend, in the standard library alone, so that `pip install
./clients/python` works offline in any virtual environment.

setuptools would need the `wheel` package to build a wheel (setuptools before 70.1), which a fresh
virtual environment does not have and pip would fetch from an index. The kit is pure Python: its
wheel is its package, the metadata pyproject.toml declares, and a RECORD. The editable form
(`pip install -e`) is a `.pth` file naming `src/`.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import tarfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "auth_emulator"
SOURCE = ROOT / "src" / PACKAGE
# Wheels should not depend on when they were built.
FIXED_TIME = (2026, 1, 1, 0, 0, 0)


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _version() -> str:
    text = (SOURCE / "_version.py").read_text(encoding="utf-8")
    return re.search(r'^__version__ = "([^"]+)"$', text, re.MULTILINE).group(1)


def _distribution() -> str:
    return _project()["name"].replace("-", "_")


def _metadata() -> str:
    project = _project()
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {_version()}",
             f"Summary: {project['description']}", f"Requires-Python: {project['requires-python']}"]
    lines += [f"Classifier: {classifier}" for classifier in project.get("classifiers", [])]
    lines += [f"Requires-Dist: {requirement}" for requirement in project.get("dependencies", [])]
    lines.append("Description-Content-Type: text/markdown")
    readme = (ROOT / project["readme"]).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n\n" + readme


def _entry_points() -> str:
    text = ""
    for group, entries in _project().get("entry-points", {}).items():
        text += f"[{group}]\n" + "".join(f"{name} = {target}\n" for name, target in entries.items()) + "\n"
    return text


def _dist_info_files() -> dict[str, bytes]:
    wheel = "Wheel-Version: 1.0\nGenerator: kit_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    return {"METADATA": _metadata().encode(), "WHEEL": wheel.encode(), "entry_points.txt": _entry_points().encode()}


def _write_wheel(wheel_directory: str, files: dict[str, bytes]) -> str:
    dist_info = f"{_distribution()}-{_version()}.dist-info"
    files = {**files, **{f"{dist_info}/{name}": data for name, data in _dist_info_files().items()}}
    record = "".join(f"{name},sha256={_digest(data)},{len(data)}\n" for name, data in files.items())
    files[f"{dist_info}/RECORD"] = (record + f"{dist_info}/RECORD,,\n").encode()
    name = f"{_distribution()}-{_version()}-py3-none-any.whl"
    with zipfile.ZipFile(Path(wheel_directory) / name, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in files.items():
            archive.writestr(zipfile.ZipInfo(path, FIXED_TIME), data)
    return name


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _package_files() -> dict[str, bytes]:
    return {f"{PACKAGE}/{path.relative_to(SOURCE).as_posix()}": path.read_bytes()
            for path in sorted(SOURCE.rglob("*"))
            if path.is_file() and (path.suffix == ".py" or path.name == "py.typed") and "__pycache__" not in path.parts}


# PEP 517 --------------------------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None) -> list[str]:
    return []


def get_requires_for_build_editable(config_settings=None) -> list[str]:
    return []


def get_requires_for_build_sdist(config_settings=None) -> list[str]:
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None) -> str:
    return _write_wheel(wheel_directory, _package_files())


def build_editable(wheel_directory, config_settings=None, metadata_directory=None) -> str:
    """PEP 660: the installed package is the source tree itself."""
    return _write_wheel(wheel_directory, {f"{_distribution()}.pth": f"{ROOT / 'src'}\n".encode()})


def build_sdist(sdist_directory, config_settings=None) -> str:
    base = f"{_distribution()}-{_version()}"
    paths = ["pyproject.toml", "README.md", "build_backend/kit_build.py",
             *(f"src/{name}" for name in _package_files())]
    name = f"{base}.tar.gz"
    with tarfile.open(Path(sdist_directory) / name, "w:gz") as archive:
        for relative in paths:
            data = (ROOT / relative).read_bytes()
            info = tarfile.TarInfo(f"{base}/{relative}")
            info.size, info.mtime = len(data), 0
            archive.addfile(info, io.BytesIO(data))
        pkg_info = _metadata().encode()
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        info.size = len(pkg_info)
        archive.addfile(info, io.BytesIO(pkg_info))
    return name
