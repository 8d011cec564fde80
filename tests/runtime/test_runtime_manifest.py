"""The engine's manifest as the page reads it on intent (``browser/runtime/manifest.ts``), in Node.

Pages name none of the engine's files; the table reads them from
``assets/engine/manifest.json``. Read here: the manifest the build writes gives
the worker exactly the files and hashes the build's own view gives the service
worker (``runtime_config``); anything else (not JSON, a path out of the site's
folders, a hash that is not one, an answer too large, a 404) is a ManifestError
(the page's "manifest" error), a network failure or silence the fetch's own error.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from dhumbal_site.runtime import assets as runtime

ROOT = Path(__file__).resolve().parents[2]

DRIVER = """
import { parseManifest, fetchManifest, ManifestError, MAX_BYTES } from "./manifest.mjs";
const { bodies, fetches } = JSON.parse(process.argv[2]);
const outcome = async (run) => {
  try { return { ok: await run() }; }
  catch (err) { return { error: err instanceof ManifestError ? err.code : "other", message: String(err.message) }; }
};
const out = { parsed: [], fetched: [] };
for (const body of bodies) out.parsed.push(await outcome(async () => parseManifest(body)));
out.parsed.push(await outcome(async () => parseManifest(" ".repeat(MAX_BYTES + 1))));
for (const how of fetches) {
  globalThis.fetch = (url, init) => {
    if (String(url) !== "https://example.test/site/assets/engine/manifest.json") throw new Error("wrong url " + url);
    if (how === "404") return Promise.resolve(new Response("", { status: 404 }));
    if (how === "offline") return Promise.reject(new TypeError("Failed to fetch"));
    if (how === "silent") return new Promise((_, reject) => init.signal.addEventListener("abort", () => reject(init.signal.reason)));
    return Promise.resolve(new Response(how));
  };
  out.fetched.push(await outcome(() => fetchManifest("https://example.test/site/", 50)));
}
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def node_module(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("manifest")
    subprocess.run([str(ROOT / "node_modules" / ".bin" / "esbuild"), str(ROOT / "browser" / "runtime" / "manifest.ts"),
                    "--bundle", "--format=esm", "--log-level=warning", f"--outfile={out / 'manifest.mjs'}"], check=True)
    (out / "driver.mjs").write_text(DRIVER, encoding="utf-8")
    return out


def read(node_module: Path, bodies: list[str], fetches: list[str] = []) -> dict[str, Any]:  # noqa: B006 - never changed
    done = subprocess.run(["node", str(node_module / "driver.mjs"), json.dumps({"bodies": bodies, "fetches": fetches})],
                          capture_output=True, text=True, check=True, timeout=60)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.fixture(scope="module")
def manifest() -> dict[str, Any]:
    """The manifest as the build writes it (RuntimeAssets.on_config, write_engine)."""
    wheel = runtime.cached_wheel(ROOT)
    sources = runtime.pyodide_sources(ROOT)
    return runtime.engine_manifest(wheel, runtime.pyodide_version(ROOT), runtime.lock_data(sources[runtime.PYODIDE_LOCK]),
                                   runtime.download_sizes(ROOT, wheel), runtime.pyodide_integrity(ROOT))


def test_the_build_s_manifest_reads_as_the_files_the_service_worker_knows(node_module: Path, manifest: dict[str, Any]) -> None:
    got = read(node_module, [json.dumps(manifest, indent=2, sort_keys=True)])["parsed"][0]
    assert got == {"ok": runtime.runtime_config(manifest)}
    assert got["ok"]["bytes"] > 1_000_000 and len(got["ok"]["integrity"]) == 6


def test_anything_but_the_build_s_manifest_is_a_manifest_error(node_module: Path, manifest: dict[str, Any]) -> None:
    good = json.dumps(manifest)
    sri = manifest["integrity"]
    broken = [
        "", "<!doctype html><p>Not found</p>", good[:200], "[]", "null", '"text"',
        json.dumps({**manifest, "wheel": "../../elsewhere.whl"}),
        json.dumps({**manifest, "wheel": "https://elsewhere.test/dhumbal.whl"}),
        json.dumps({**manifest, "wheel": "/dhumbal.whl"}),
        json.dumps({**manifest, "stdlib": "key/../../x.zip"}),
        json.dumps({**manifest, "pyodide": "../.."}),
        json.dumps({**manifest, "integrity": "md5-abc"}),
        json.dumps({**manifest, "integrity": sri + "x"}),
        json.dumps({k: v for k, v in manifest.items() if k != "cache"}),
        json.dumps({**manifest, "cache": "site-1"}),
        json.dumps({**manifest, "pyodide_integrity": {}}),
        json.dumps({**manifest, "pyodide_integrity": {**manifest["pyodide_integrity"], "pyodide.asm.wasm": 7}}),
        json.dumps({**manifest, "lock": "not an object"}),
        json.dumps({**manifest, "version": {"__proto__": 1}}),
    ]
    parsed = read(node_module, broken)["parsed"]
    assert len(parsed) == len(broken) + 1  # and one larger than the limit
    for body, outcome in zip([*broken, "(too large)"], parsed, strict=True):
        assert outcome.get("error") == "manifest", (body[:120], outcome)
        assert outcome["message"].startswith("assets/engine/manifest.json: "), outcome
    # A manifest with no trimmed library names Pyodide's own; unknown fields are ignored.
    plain = read(node_module, [json.dumps({**manifest, "stdlib": None, "stdlib_integrity": None, "extra": [1]})])["parsed"][0]
    assert plain["ok"]["stdlib"] == plain["ok"]["fullStdlib"] == f"assets/pyodide/{manifest['pyodide']}/python_stdlib.zip"


def test_fetching_it_tells_a_missing_manifest_from_a_lost_connection(node_module: Path, manifest: dict[str, Any]) -> None:
    fetched = read(node_module, [], [json.dumps(manifest), "404", "not json", "offline", "silent"])["fetched"]
    assert fetched[0]["ok"]["cache"] == manifest["cache"]
    assert fetched[1] == {"error": "manifest", "message": "assets/engine/manifest.json: HTTP 404"}
    assert fetched[2]["error"] == "manifest"
    # The connection, not the manifest: the page says "blocked" (check the connection and try again).
    assert fetched[3] == {"error": "other", "message": "Failed to fetch"}
    assert fetched[4] == {"error": "other", "message": "no answer within 50 ms"}
