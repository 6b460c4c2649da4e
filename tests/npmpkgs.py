"""Test tools from the npm registry, fetched by `npm pack` (no install scripts run, nothing
lands in the repository): axe-core, the accessibility checker injected into the site's pages,
and the SARIF 2.1.0 JSON Schema that @microsoft/jest-sarif ships (MIT licensed).

Versions are pinned; the packages are unpacked into a folder of the test session.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
from pathlib import Path

AXE = "axe-core@4.14.1"
SARIF_SCHEMA_PACKAGE = "@microsoft/jest-sarif@1.0.0-beta.0"
SARIF_SCHEMA = "lib/schemas/sarif-2.1.0-rtm.5.json"


def fetch(spec: str, folder: Path) -> Path:
    """The unpacked package spec (name@version) under folder; fetched once per folder."""
    name = spec.rsplit("@", 1)[0].replace("/", "-").lstrip("@")
    target = folder / name
    if (target / "package.json").is_file():
        return target
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is not installed: the browser and SARIF tests need it")
    folder.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, npm_config_cache=str(folder / "npm-cache"))
    env["npm_config_update_notifier"] = "false"
    done = subprocess.run(
        [npm, "pack", "--silent", "--ignore-scripts", "--pack-destination", str(folder), spec],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"npm pack {spec} failed: {done.stderr.strip()}")
    tarball = folder / done.stdout.strip().splitlines()[-1]
    unpacked = folder / f"{name}.unpacked"
    with tarfile.open(tarball) as archive:
        _extract(archive, unpacked)
    (unpacked / "package").rename(target)
    return target


def _extract(archive: tarfile.TarFile, into: Path) -> None:
    """archive's files and folders into `into`, refusing any other member and any path that
    leads out of it: tarfile's "data" filter, or, on a Python 3.11 older than 3.11.4 (which
    has no extraction filters; Debian 12's is 3.11.2), the same refusal made here."""
    if hasattr(tarfile, "data_filter"):
        archive.extractall(into, filter="data")
        return
    root = into.resolve()
    for member in archive.getmembers():
        inside = (into / member.name).resolve().is_relative_to(root)
        if not inside or not (member.isfile() or member.isdir()):
            raise RuntimeError(f"{archive.name}: refusing {member.name!r}, not a plain file")
    archive.extractall(into)
