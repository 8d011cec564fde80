"""What the build writes for the device and for hosts (issue 20), read from the built site.

The service worker's list (every page of every language and every file of
the shell, each with the hash of its bytes, nothing of the engine), the
offline page in each language, the web app manifests and their icons, the
pages' tags for them, ``_headers`` (the site's policy, long-lived caching only
for files named by their contents) and the GitHub Pages workflow.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
import shutil
import struct
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path
from typing import Any

import pytest
import yaml

from dhumbal.core.i18n import translator
from dhumbal_site.languages import Language
from dhumbal_site.runtime import assets as runtime
from dhumbal_site.runtime import csp, icons, offline
from tests.sitekit import LANGUAGE_PREFIXES

ROOT = Path(__file__).resolve().parents[2]
#: Each language's root in the built site, from mkdocs.yml.
LANGS = LANGUAGE_PREFIXES


@pytest.fixture(scope="module")
def site(real: Any) -> Path:
    return Path(real.directory)


def build_of(site: Path) -> dict[str, Any]:
    found = re.search(r"const BUILD = (.*?);\n", (site / offline.SERVICE_WORKER).read_text(encoding="utf-8"))
    assert found, "sw.js carries no BUILD"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def page_file(site: Path, path: str) -> Path:
    return site / path / "index.html" if path.endswith("/") or path == "" else site / path


def test_the_service_worker_lists_every_page_and_file_with_its_revision(site: Path) -> None:
    from dhumbal_site.content.puzzles import PUZZLE_SET

    data = build_of(site)
    assert data["default"] == "en" and set(data["languages"]) == set(LANGS)
    for code, prefix in LANGS.items():
        language = data["languages"][code]
        assert language["root"] == prefix
        built = {p.parent.relative_to(site).as_posix() + "/" for p in (site / prefix).rglob("index.html")}
        built = {"" if p == "./" else p for p in built if code != "en" or not p.startswith(tuple(v for v in LANGS.values() if v))}
        pages = {p for p in language["pages"] if not p.endswith((".json", ".html"))}
        # a worked example's later diagrams in this language are kept with its pages, not the shell
        boards = {p.relative_to(site).as_posix() for p in (site / "assets/dhumbal/examples").glob(f"*.{code}.*.json")}
        assert boards and boards <= set(language["pages"]) and not boards & set(data["shell"]), code
        assert pages == built, code
        assert f"{prefix}search/search_index.json" in language["pages"]
        # the language's puzzles, which its pages fetch, are kept with them
        puzzles = {p.relative_to(site).as_posix() for p in (site / prefix / "puzzles" / "p").glob("*.html")}
        assert len(puzzles) == len(PUZZLE_SET.entries()) and {p for p in language["pages"] if p.endswith(".html")} == puzzles, code
        assert data["offline"][code] == f"{prefix}offline.html"
        for name in ("offline.html", "manifest.webmanifest", "sitemap.xml"):
            assert f"{prefix}{name}" in data["shell"]
    entries = {**data["shell"], **data["later"], **{p: r for v in data["languages"].values() for p, r in v["pages"].items()}}
    for path, rev in entries.items():
        assert hashlib.sha256(page_file(site, path).read_bytes()).hexdigest()[:12] == rev, path
    shell = list(data["shell"])
    # The engine's manifest is kept with the shell (the table reads it on intent, offline too); no file of the engine.
    assert "assets/engine/manifest.json" in shell
    assert not [p for p in shell if p.startswith(("assets/pyodide/", "assets/engine/")) and p != "assets/engine/manifest.json"]
    assert not [p for p in shell if p.endswith(".map")]
    assert "assets/dhumbal/worker.js" in data["later"] and "assets/dhumbal/worker.js" not in shell
    # every page's code and styles, and the table's (Play works offline on a kept page)
    for needed in (
        "assets/dhumbal/head.js", "assets/dhumbal/site.js", "assets/dhumbal/site.css",
        "assets/dhumbal/table.js", "assets/dhumbal/table.css", "assets/dhumbal/runtime.js", "assets/icons/icon.svg",
    ):
        assert needed in shell
    manifest = runtime.manifest_of(site)
    assert data["engine"] == manifest["cache"] and data["pyodide"] == f"assets/pyodide/{manifest['pyodide']}/"
    # The engine's files with their integrity, as the manifest names them to the worker.
    assert data["engineFiles"] == runtime.runtime_config(manifest)["integrity"]
    for path, sri in data["engineFiles"].items():
        assert sri == "sha256-" + base64.b64encode(hashlib.sha256((site / path).read_bytes()).digest()).decode(), path


def test_any_change_gives_a_new_service_worker(site: Path, tmp_path: Path) -> None:
    copy = tmp_path / "site"
    shutil.copytree(site, copy, ignore=shutil.ignore_patterns("*.wasm", "*.zip", "*.whl"))
    data = build_of(copy)
    languages = sorted((Language(c, c, v["root"], c == "en") for c, v in data["languages"].items()), key=lambda lang: not lang.default)
    same = offline.build_data(copy, languages, data["engine"], data["pyodide"], data["engineFiles"])
    assert same["id"] == data["id"]
    with (copy / "glossary" / "index.html").open("a", encoding="utf-8") as fh:
        fh.write("<!-- changed -->")
    assert offline.build_data(copy, languages, data["engine"], data["pyodide"], data["engineFiles"])["id"] != data["id"]
    assert offline.build_data(site, languages, data["engine"] + "x", data["pyodide"], data["engineFiles"])["id"] != data["id"]


@pytest.mark.parametrize("lang", list(LANGS))
def test_the_offline_page_speaks_its_language_with_links_from_the_site_root(site: Path, lang: str) -> None:
    page = (site / LANGS[lang] / "offline.html").read_text(encoding="utf-8")
    t = translator(lang)
    assert f'<html lang="{lang}"' in page
    text = html.unescape(page)
    for key in ("offline.title", "offline.body", "offline.retry", "offline.saved", "offline.none", "offline.table"):
        assert t(offline.STRINGS[key]) in text, key
    # Served at any address: every link and file is absolute.
    assert re.findall(r'<link rel="stylesheet" href="([^"]*)"', page)
    for ref in re.findall(r'(?:src|href)="([^"#]*)"', page):
        assert ref.startswith(("/", "http:", "https:", "data:")) or ref == "", ref
    policy = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page)
    assert [html.unescape(p) for p in policy] == [csp.POLICY]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def png_pixel(data: bytes, x: int, y: int) -> tuple[int, ...]:
    """An RGBA pixel of the icons' PNGs (8-bit RGBA, filter 0 rows, as icons.py writes them)."""
    width, _ = png_size(data)
    chunks, at = b"", 8
    while at < len(data):
        length = struct.unpack(">I", data[at:at + 4])[0]
        kind = data[at + 4:at + 8]
        if kind == b"IDAT":
            chunks += data[at + 8:at + 8 + length]
        at += 12 + length
    raw = zlib.decompress(chunks)
    row = raw[y * (width * 4 + 1) + 1:(y + 1) * (width * 4 + 1)]
    return tuple(row[x * 4:x * 4 + 4])


@pytest.mark.parametrize("lang", list(LANGS))
def test_each_language_has_a_web_app_manifest_with_real_icons(site: Path, lang: str) -> None:
    prefix = LANGS[lang]
    path = site / prefix / "manifest.webmanifest"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    t = translator(lang)
    assert manifest["lang"] == lang and manifest["name"] == t(offline.STRINGS["app.name"])
    assert manifest["description"] == t(offline.STRINGS["app.description"])
    assert manifest["start_url"] == "./" and manifest["scope"] == ("../" if prefix else "./")
    assert manifest["theme_color"] == offline.THEME_COLOR and manifest["display"] == "standalone"
    purposes = set()
    for icon in manifest["icons"]:
        file = (path.parent / icon["src"]).resolve()
        assert file.is_file(), icon
        purposes.add(icon["purpose"])
        if icon["type"] == "image/png":
            size = int(icon["sizes"].split("x")[0])
            assert png_size(file.read_bytes()) == (size, size), icon
        else:
            assert ET.fromstring(file.read_text(encoding="utf-8")).tag.endswith("svg")
    assert purposes == {"any", "maskable"}
    sizes = {i["sizes"] for i in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes


def test_the_icons_are_drawn_as_their_purpose_asks(site: Path) -> None:
    crimson = (0x9B, 0x1C, 0x31, 255)
    dest = site / icons.DEST
    maskable = (dest / "maskable-512.png").read_bytes()
    rounded = (dest / "icon-512.png").read_bytes()
    # Maskable: the background reaches the corners; "any": rounded, the corners clear.
    assert png_pixel(maskable, 0, 0) == crimson
    assert png_pixel(rounded, 0, 0)[3] == 0 and png_pixel(rounded, 256, 6) == crimson
    # Cards in the middle (paper), inside the circle a launcher's mask keeps.
    assert png_pixel(maskable, 300, 150)[:3] == (255, 255, 255)
    assert png_size((dest / icons.TOUCH).read_bytes()) == (180, 180)


def test_every_page_names_the_manifest_the_colour_and_the_service_worker(site: Path) -> None:
    for lang, prefix in LANGS.items():
        for path in (site / prefix / "index.html", site / prefix / "rules" / "dashain" / "index.html", site / prefix / "404.html"):
            page = path.read_text(encoding="utf-8")
            assert f'<meta name="theme-color" content="{offline.THEME_COLOR}">' in page, path
            link = re.search(r'<link rel="manifest" href="([^"]*)">', page)
            assert link is not None, path
            target = (path.parent / link.group(1)).resolve() if not link.group(1).startswith("/") else site / link.group(1).lstrip("/")
            assert target == (site / prefix / "manifest.webmanifest").resolve(), path
            meta = re.search(r'<meta name="dhumbal:offline" content="([^"]*)">', page)
            assert meta is not None, path
            words = json.loads(html.unescape(meta.group(1)))
            assert words["sw"] == "sw.js"
            assert words["updated"] == translator(lang)(offline.STRINGS["updated.text"])
            assert re.search(r'<link rel="icon" href="[^"]*assets/icons/icon\.svg">', page), path


def test_headers_carry_the_policy_and_cache_only_named_files_for_ever(site: Path) -> None:
    text = (site / "_headers").read_text(encoding="utf-8")
    rules: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if not line.startswith(" "):
            current = line.strip()
            rules[current] = []
        else:
            assert current is not None
            rules[current].append(line.strip())
    assert rules["/*"][0] == f"Content-Security-Policy: {csp.HEADER_POLICY}"
    manifest = runtime.manifest_of(site)
    forever = "Cache-Control: public, max-age=31536000, immutable"
    pyodide = f"/assets/pyodide/{manifest['pyodide']}/*"
    engine = f"/assets/engine/{manifest['wheel'].split('/')[0]}/*"
    assert rules[pyodide] == [forever] and rules[engine] == [forever]
    assert rules["/sw.js"] == ["Cache-Control: no-cache"] and rules["/assets/engine/manifest.json"] == ["Cache-Control: no-cache"]
    for pattern in (pyodide, engine):
        assert (site / pattern.strip("/*")).is_dir(), pattern
    assert [p for p, values in rules.items() if forever in values] == [pyodide, engine]
    # Cloudflare Pages reads at most 100 rules and lines of at most 2,000 characters.
    assert len(rules) <= 100 and max(len(line) for line in text.splitlines()) <= 2000


def test_the_pages_workflow_builds_strictly_for_the_pages_address_and_publishes_site() -> None:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8"))
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    build = workflow["jobs"]["build"]["steps"]
    pages = next(s for s in build if s.get("uses", "").startswith("actions/configure-pages@"))
    make = next(s for s in build if s.get("run") == "make build")
    assert make["env"]["DHUMBAL_SITE_URL"] == "${{ steps.%s.outputs.base_url }}/" % pages["id"]
    assert build.index(pages) < build.index(make)
    upload = next(s for s in build if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "site" and build.index(make) < build.index(upload)
    # The freshness notices date the English change from the whole history.
    checkout = next(s for s in build if s.get("uses", "").startswith("actions/checkout@"))
    assert checkout["with"]["fetch-depth"] == 0
    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build" and deploy["environment"]["name"] == "github-pages"
    assert any(s.get("uses", "").startswith("actions/deploy-pages@") for s in deploy["steps"])
    # `make build` is the strict build.
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^build: .*\n\t\$\(VENV\)/bin/mkdocs build --strict$", makefile, re.M)
