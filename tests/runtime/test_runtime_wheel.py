"""The engine wheel as the worker unpacks it itself (``browser/worker/wheel.ts``), in Node.

On every start the worker inflates the wheel with the browser's own inflater
while Pyodide boots, and writes its files into site-packages once Pyodide is
up, instead of Pyodide's unpacking in Python after the boot (DECISIONS.md, "The
second visit"). Read here: the build's own wheel gives exactly the files
Python's zipfile reads from it, written where an installer writes them; an
archive that is not a plain zip of plain relative paths (a name climbing out
with ``..``, an absolute or backslashed name, encryption, another compression,
a file that inflates to another size than the archive says, a cut archive) is
a WheelError, on which the worker leaves the unpacking to Pyodide.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest

from dhumbal_site.runtime import assets as runtime

ROOT = Path(__file__).resolve().parents[2]

DRIVER = """
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { readWheel, writeWheel, WheelError } from "./wheel.mjs";
const out = [];
for (const path of JSON.parse(process.argv[2])) {
  try {
    const files = await readWheel(new Uint8Array(readFileSync(path)));
    const written = {};
    const folders = [];
    writeWheel({ mkdirTree: (dir) => folders.push(dir),
                 writeFile: (name, data) => { written[name] = createHash("sha256").update(data).digest("hex"); } },
               "/lib/python3.14/site-packages", files);
    out.push({ ok: written, folders });
  } catch (err) {
    out.push({ error: err instanceof WheelError ? "wheel" : "other", message: String(err.message) });
  }
}
console.log(JSON.stringify(out));
"""
SITE = "/lib/python3.14/site-packages"


@pytest.fixture(scope="module")
def node_module(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([str(ROOT / "node_modules" / ".bin" / "esbuild"), str(ROOT / "browser" / "worker" / "wheel.ts"),
                    "--bundle", "--format=esm", "--log-level=warning", f"--outfile={out / 'wheel.mjs'}"], check=True)
    (out / "driver.mjs").write_text(DRIVER, encoding="utf-8")
    return out


def unpack(node_module: Path, archives: list[Path]) -> list[dict[str, Any]]:
    done = subprocess.run(["node", str(node_module / "driver.mjs"), json.dumps([str(a) for a in archives])],
                          capture_output=True, text=True, check=True, timeout=120)
    result: list[dict[str, Any]] = json.loads(done.stdout)
    return result


def test_the_build_s_wheel_unpacks_to_exactly_the_files_zipfile_reads(node_module: Path) -> None:
    wheel = runtime.cached_wheel(ROOT).path
    with zipfile.ZipFile(wheel) as z:
        expected = {f"{SITE}/{info.filename}": hashlib.sha256(z.read(info)).hexdigest()
                    for info in z.infolist() if not info.is_dir()}
    [got] = unpack(node_module, [wheel])
    assert got["ok"] == expected
    assert any(name.endswith("/dhumbal/table/web.py") for name in got["ok"])
    assert any(name.endswith(".mo") for name in got["ok"]) and any(name.endswith(".pyc") for name in got["ok"])
    # Each folder made once, before its files.
    assert len(got["folders"]) == len(set(got["folders"])) and f"{SITE}/dhumbal" in got["folders"]


def zipped(entries: list[tuple[str, bytes]], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as z:
        for name, data in entries:
            z.writestr(name, data)
    return buffer.getvalue()


def patched(archive: bytes, name: str, offset: int, value: bytes) -> bytes:
    """`archive` with `value` written at `offset` of `name`'s central directory entry."""
    at = archive.index(b"PK\x01\x02")
    while archive[at + 46:at + 46 + len(name)] != name.encode():
        at = archive.index(b"PK\x01\x02", at + 4)
    return archive[:at + offset] + value + archive[at + offset + len(value):]


def test_an_archive_that_is_not_a_plain_wheel_is_a_wheel_error(node_module: Path, tmp_path: Path) -> None:
    good = zipped([("dhumbal/__init__.py", b"x = 1\n" * 100), ("dhumbal/data/", b""), ("py.typed", b"")])
    stored = zipped([("dhumbal/a.py", b"a = 1\n")], zipfile.ZIP_STORED)
    cases = {
        "good": good,
        "stored": stored,
        "climbs": zipped([("dhumbal/../../etc/passwd", b"x")]),
        "dot": zipped([("./dhumbal/a.py", b"x")]),
        "absolute": zipped([("/etc/passwd", b"x")]),
        "backslash": zipped([("dhumbal\\a.py", b"x")]),
        "encrypted": patched(good, "dhumbal/__init__.py", 8, b"\x01\x00"),
        "bzip2": patched(good, "dhumbal/__init__.py", 10, b"\x0c\x00"),
        "size": patched(good, "dhumbal/__init__.py", 24, (601).to_bytes(4, "little")),
        "cut": good[: len(good) // 2],
        "empty": b"",
        "not a zip": base64.b64encode(good),
    }
    paths = []
    for name, data in cases.items():
        path = tmp_path / f"{name.replace(' ', '-')}.whl"
        path.write_bytes(data)
        paths.append(path)
    got = dict(zip(cases, unpack(node_module, paths), strict=True))
    assert got["good"]["ok"] == {f"{SITE}/dhumbal/__init__.py": hashlib.sha256(b"x = 1\n" * 100).hexdigest(),
                                 f"{SITE}/py.typed": hashlib.sha256(b"").hexdigest()}
    assert got["stored"]["ok"] == {f"{SITE}/dhumbal/a.py": hashlib.sha256(b"a = 1\n").hexdigest()}
    for name in cases:
        if name not in ("good", "stored"):
            assert got[name]["error"] == "wheel", (name, got[name])
            assert got[name]["message"].startswith("the engine wheel: "), got[name]
