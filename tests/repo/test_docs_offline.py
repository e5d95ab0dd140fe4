"""The documentation site works opened from the disk (issue 23 §3).

`make site-check` (tools/site_check.py) proves it in headless Chromium: search finds pages from
``file://`` and a wide code block scrolls. These tests hold the pieces it relies on without a
browser: the hook writes the search index as a script, the configuration loads the worker
stand-in before the theme and makes every page a file, and the stylesheet keeps code blocks'
scroll bars.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType

from tests.support.paths import ROOT_DIR


def _hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "hatsuden_docs_hooks_offline", ROOT_DIR / "docs" / "plugins" / "hooks.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_search_index_is_also_a_script(tmp_path: Path) -> None:
    index = {"config": {"lang": ["en"]}, "docs": [{"location": "RULES.html", "text": "R21"}]}
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "search_index.json").write_text(json.dumps(index), encoding="utf-8")
    _hooks().on_post_build({"site_dir": str(tmp_path)})
    script = (tmp_path / "search" / "search_index.js").read_text(encoding="utf-8")
    assert script.startswith("var __index = ")
    assert json.loads(script.removeprefix("var __index = ").rstrip().rstrip(";")) == index


def test_a_site_without_search_gets_no_script(tmp_path: Path) -> None:
    _hooks().on_post_build({"site_dir": str(tmp_path)})
    assert not (tmp_path / "search").exists()


def test_the_configuration_serves_files_and_loads_the_worker_stand_in() -> None:
    config = (ROOT_DIR / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^use_directory_urls: false$", config, flags=re.MULTILINE)  # cli.html
    assert re.search(r"^plugins:\n  - search$", config, flags=re.MULTILINE)
    polyfills = re.search(r"^  polyfills:\n((?:    - .+\n)+)", config, flags=re.MULTILINE)
    assert polyfills is not None
    for script in re.findall(r"- (.+)", polyfills[1]):
        assert (ROOT_DIR / "docs" / script).is_file(), script
    stand_in = (ROOT_DIR / "docs" / "javascripts" / "file-worker.js").read_text(encoding="utf-8")
    assert 'location.protocol !== "file:"' in stand_in  # a served site keeps the real Worker
    assert "https://" not in stand_in  # nothing is loaded from the network
    assert "http://" not in stand_in
    sheets = re.search(r"^extra_css:\n((?:  - .+\n)+)", config, flags=re.MULTILINE)
    assert sheets is not None
    for sheet in re.findall(r"- (.+)", sheets[1]):
        css = (ROOT_DIR / "docs" / sheet).read_text(encoding="utf-8")
        assert "overflow-x: auto" in css
        assert "scrollbar-color" in css
