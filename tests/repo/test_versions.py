"""Every text that names the release agrees (issue 23 §1: release 0.3.0, every text agreeing).

One version for the distribution, `__version__`, the native distribution the ``[native]`` extra
pins, every crate of the Cargo workspace and the newest release heading of CHANGELOG.md; the
README's speed figures name that release.
"""

from __future__ import annotations

import re
import tomllib

import hatsuden_rules
from tests.support.paths import ROOT_DIR

VERSION = hatsuden_rules.__version__
_RELEASE = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", flags=re.MULTILINE)
CRATES = ("hatsuden", "hatsuden-check", "hatsuden-players", "hatsuden-py")


def _toml(path: str) -> dict[str, object]:
    return tomllib.loads((ROOT_DIR / path).read_text(encoding="utf-8"))


def test_the_package_and_its_native_extra_carry_one_version() -> None:
    project = _toml("pyproject.toml")["project"]
    assert isinstance(project, dict)
    assert project["version"] == VERSION
    assert f"hatsuden-native=={VERSION}" in project["optional-dependencies"]["native"]
    native = _toml("native/hatsuden-py/pyproject.toml")["project"]
    assert isinstance(native, dict)
    assert native["version"] == VERSION


def test_every_crate_carries_the_release_version() -> None:
    for crate in CRATES:
        package = _toml(f"native/{crate}/Cargo.toml")["package"]
        assert isinstance(package, dict)
        assert package["version"] == VERSION, crate
    lock = _toml("native/Cargo.lock")["package"]
    assert isinstance(lock, list)
    locked = {p["name"]: p["version"] for p in lock if p["name"] in CRATES}
    assert locked == dict.fromkeys(CRATES, VERSION)


def test_the_newest_changelog_release_is_the_version() -> None:
    changelog = (ROOT_DIR / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = _RELEASE.findall(changelog)
    assert releases, "CHANGELOG.md has no release heading"
    assert releases[0][0] == VERSION
    # Newest first, each version once, dates never going forward down the file.
    versions = [tuple(int(x) for x in v.split(".")) for v, _ in releases]
    assert versions == sorted(set(versions), reverse=True)
    dates = [d for _, d in releases]
    assert dates == sorted(dates, reverse=True)
    # [Unreleased] stays on top, above the newest release.
    assert changelog.index("## [Unreleased]") < changelog.index(f"## [{VERSION}]")


def test_the_readme_measures_the_release_it_names() -> None:
    readme = (ROOT_DIR / "README.md").read_text(encoding="utf-8")
    assert f"Release {VERSION} measured side by side with release" in readme
