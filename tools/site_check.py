"""The browser check of the documentation site opened from the disk (``make site-check``).

Opens ``site/index.html`` as a file (``file://``, no server) in headless Chromium, driven as in
tools/browser_check.py, and checks what issue 23 §3 found missing: the search finds pages (it
types a word into the search box and reads the results), and a code block wider than the page
scrolls sideways instead of being cut off (the state line of NOTATION.md). Saves screenshots.

    python tools/site_check.py [--site site] [--out build/site-check]

Exit code 0 when every check passes, 1 with the first failure otherwise.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tools.browser_check import CheckFailed, WebDriver, browser

ROOT = Path(__file__).resolve().parent.parent


def _wait(driver: WebDriver, script: str, what: str, seconds: float = 20) -> Any:
    """Poll `script` until it returns a truthy value; `CheckFailed` naming `what` otherwise."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = driver.js(script)
        if value:
            return value
        time.sleep(0.2)
    raise CheckFailed(f"{what}: nothing after {seconds:.0f} s")


def check_search(driver: WebDriver, site: Path, out: Path) -> None:
    """Type a query into the search box of the home page; results must list pages."""
    driver.open((site / "index.html").resolve().as_uri())
    _wait(driver, "return document.readyState === 'complete';", "the home page loads")
    driver.click("input.md-search__input")
    for word in ("overflow", "pylon"):
        driver.js(
            "const box = document.querySelector('input.md-search__input');"
            f"box.value = {word!r}; box.dispatchEvent(new Event('input', {{bubbles: true}}));"
            "box.dispatchEvent(new KeyboardEvent('keyup', {bubbles: true})); return true;"
        )
        found = _wait(
            driver,
            "const items = document.querySelectorAll('.md-search-result__item');"
            "return items.length ? [...items].slice(0, 3).map(i => i.textContent.trim()"
            ".slice(0, 60)) : null;",
            f"search for {word!r} from the disk",
        )
        print(f"ok  search for {word!r} from the disk: {found}")
    driver.screenshot(out / "search.png")


def check_wide_code(driver: WebDriver, site: Path, out: Path) -> None:
    """NOTATION.md's state line is wider than the page: its block scrolls sideways."""
    driver.open((site / "NOTATION.html").resolve().as_uri())
    _wait(driver, "return document.readyState === 'complete';", "NOTATION.html loads")
    value = driver.js(
        r"""
        const blocks = [...document.querySelectorAll('.md-content pre > code')];
        const wide = blocks.find(c => c.textContent.includes('rules=5/4/2/5/10/ACC+SEC'));
        if (!wide) { return null; }
        wide.scrollIntoView({block: 'center'});
        const before = wide.scrollLeft;
        wide.scrollLeft = 400;
        const style = getComputedStyle(wide);
        const bar = style.scrollbarColor.split(/ (?![^(]*\))/)[0];
        const page = document.querySelector('.md-content').getBoundingClientRect();
        const box = wide.getBoundingClientRect();
        return {overflowX: style.overflowX, scrollWidth: wide.scrollWidth,
                clientWidth: wide.clientWidth, before: before, after: wide.scrollLeft,
                inside: box.right <= page.right + 1, barWidth: style.scrollbarWidth,
                bar: bar, shadows: style.backgroundImage.split("gradient").length - 1};
        """
    )
    if not value:
        raise CheckFailed("NOTATION.html has no code block with the state line")
    if value["overflowX"] not in ("auto", "scroll") or value["after"] <= value["before"]:
        raise CheckFailed(f"the wide code block does not scroll sideways: {value}")
    if not value["inside"] or value["scrollWidth"] <= value["clientWidth"]:
        raise CheckFailed(f"the wide code block is not held inside the page: {value}")
    # The theme's bar is thin and transparent until hovered: the line looked cut off.
    if value["barWidth"] == "thin" or "0)" in value["bar"] or value["bar"] == "auto":
        raise CheckFailed(f"the wide code block shows no scroll bar at rest: {value}")
    if value["shadows"] < 4:
        raise CheckFailed(f"the wide code block has no edge shadows: {value}")
    print(
        f"ok  the wide code block scrolls sideways: {value['scrollWidth']} px of text in "
        f"{value['clientWidth']} px, scrolled to {value['after']}"
    )
    driver.screenshot(out / "wide-code.png")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the checks; the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--site", type=Path, default=ROOT / "site", help="the built site")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "site-check")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        if not (args.site / "index.html").is_file():
            raise CheckFailed(f"no site in {args.site}: run make docs first")
        with browser(scrollbars=True) as driver:
            check_search(driver, args.site, args.out)
            check_wide_code(driver, args.site, args.out)
    except CheckFailed as error:
        print(f"site check FAILED: {error}", file=sys.stderr)
        return 1
    print(f"site check passed; screenshots in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
