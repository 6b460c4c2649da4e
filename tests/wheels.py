"""Wheels made on the spot, for the tests that install gitmem the way a workflow does."""

from __future__ import annotations

import base64
import hashlib
import zipfile
from pathlib import Path


def toy_wheel(folder: Path, name: str = "gitmem_toy", version: str = "1.0") -> Path:
    """A minimal real wheel: a module and a console script."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}-{version}-py3-none-any.whl"
    info = f"{name}-{version}.dist-info"
    files = {
        f"{name}.py": "def main():\n    print('toy ran')\n",
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{info}/entry_points.txt": f"[console_scripts]\ngitmem = {name}:main\n",
    }
    record = []
    for file, body in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(body.encode()).digest()).rstrip(b"=")
        record.append(f"{file},sha256={digest.decode()},{len(body.encode())}")
    record.append(f"{name}-{version}.dist-info/RECORD,,")
    with zipfile.ZipFile(path, "w") as archive:
        for file, body in files.items():
            archive.writestr(file, body)
        archive.writestr(f"{name}-{version}.dist-info/RECORD", "\n".join(record) + "\n")
    return path
