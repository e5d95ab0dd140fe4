"""The browser check of the HTML replay page (``make browser-check``; issue 14 §3).

Plays a real game (ISMCTS against Greedy, seeded), writes it with `record_to_html`, opens the
page in headless Chromium from the distribution's packages (driven by Debian's chromedriver over
the W3C WebDriver protocol, with the standard library only), and uses it as a person would:
the previous/next buttons, the arrow keys, Home and End, a click in the move list, the view
buttons and the V/G/0/1 keys. It checks what the page shows after each step (the caption, the
highlighted move, the disabled buttons, whose view the picture is), that the page loaded
nothing from anywhere, and saves screenshots; it also renders the golden SVG files to PNG.

    python tools/browser_check.py [--out build/browser-check] [--docs docs/images]

``--docs`` also copies the mid-game and end-of-game screenshots there (the README shows them).
Exit code 0 when every check passes, 1 with the first failure otherwise.
"""

from __future__ import annotations

import argparse
import base64
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hatsuden_rules import GameRecord, format_record, record_game, record_to_html
from hatsuden_rules.players import make_player
from hatsuden_rules.simulation import play_game

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    "--window-size=1280,960",
)
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the W3C element reference key
KEYS = {"ArrowLeft": "\ue012", "ArrowRight": "\ue014", "Home": "\ue011", "End": "\ue010"}


class CheckFailed(Exception):
    """What the page showed was not what a player should see."""


class WebDriver:
    """A minimal W3C WebDriver client (the few commands this check needs)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.session = ""

    def call(self, method: str, path: str, body: object = None) -> Any:
        """One command; its ``value``, or `CheckFailed` with the driver's error."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                answer = json.load(response)
        except urllib.error.HTTPError as error:
            answer = json.load(error)
        value = answer.get("value")
        if isinstance(value, dict) and "error" in value:
            raise CheckFailed(
                f"webdriver {method} {path}: {value['error']}: {value.get('message')}"
            )
        return value

    def start(self, profile: str, scrollbars: bool = False) -> None:
        """A new Chromium session with `FLAGS` and the profile folder `profile`."""
        flags = [f for f in FLAGS if not (scrollbars and f == "--hide-scrollbars")]
        options = {"binary": CHROMIUM, "args": [*flags, f"--user-data-dir={profile}"]}
        capabilities = {"browserName": "chrome", "goog:chromeOptions": options}
        value = self.call("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})
        self.session = f"/session/{value['sessionId']}"

    def open(self, url: str) -> None:
        """Navigate to `url`."""
        self.call("POST", f"{self.session}/url", {"url": url})

    def find(self, css: str) -> str:
        """The reference of the first element `css` selects."""
        value = self.call(
            "POST", f"{self.session}/element", {"using": "css selector", "value": css}
        )
        return str(value[ELEMENT])

    def click(self, css: str) -> None:
        """Click the element `css` selects, as a mouse would."""
        self.call("POST", f"{self.session}/element/{self.find(css)}/click", {})

    def press(self, key: str) -> None:
        """Press and release `key` (a character, or a name in `KEYS`)."""
        code = KEYS.get(key, key)
        strokes = [{"type": "keyDown", "value": code}, {"type": "keyUp", "value": code}]
        actions = [{"type": "key", "id": "keyboard", "actions": strokes}]
        self.call("POST", f"{self.session}/actions", {"actions": actions})

    def js(self, script: str) -> Any:
        """The value `script` (a function body) returns in the page."""
        return self.call("POST", f"{self.session}/execute/sync", {"script": script, "args": []})

    def screenshot(self, path: Path) -> None:
        """Save what the window shows to `path` (PNG)."""
        path.write_bytes(base64.b64decode(self.call("GET", f"{self.session}/screenshot")))

    def quit(self) -> None:
        """End the session (Chromium exits)."""
        if self.session:
            self.call("DELETE", self.session)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def browser(scrollbars: bool = False) -> Iterator[WebDriver]:
    """Debian's chromedriver on a loopback port, and a Chromium session with a fresh profile.

    Screenshots show no scroll bars unless `scrollbars`.
    """
    for program in (CHROMIUM, "chromedriver"):
        if shutil.which(program) is None:
            raise CheckFailed(f"{program} is missing: apt-get install chromium chromium-driver")
    port = _free_port()
    driver = subprocess.Popen(
        ["chromedriver", f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    client = WebDriver(f"http://127.0.0.1:{port}")
    try:
        for _ in range(100):
            try:
                if client.call("GET", "/status").get("ready"):
                    break
            except (urllib.error.URLError, ConnectionError):
                pass
            time.sleep(0.1)
        else:
            raise CheckFailed("chromedriver did not start")
        with tempfile.TemporaryDirectory(prefix="hatsuden-chromium-") as profile:
            client.start(profile, scrollbars)
            try:
                yield client
            finally:
                client.quit()
    finally:
        driver.terminate()
        driver.wait(timeout=10)


class Page:
    """The replay page in the browser, read as a person reads it."""

    def __init__(self, driver: WebDriver) -> None:
        self.d = driver

    def caption(self) -> str:
        """The line above the board."""
        return str(self.d.js('return document.getElementById("caption").textContent;'))

    def state(self) -> dict[str, Any]:
        """What the page shows now: caption, picture, current move, buttons, loads."""
        value = self.d.js(
            """
            const svg = document.querySelector("#board svg");
            const current = document.querySelector(".move[aria-current=step]");
            const pressed = [...document.querySelectorAll(".views button")]
              .map(b => b.getAttribute("aria-pressed"));
            return {
              caption: document.getElementById("caption").textContent,
              title: svg ? svg.querySelector("title").textContent : "",
              svgClass: svg ? svg.getAttribute("class") : "",
              current: current ? Number(current.getAttribute("data-ply")) : -1,
              prevDisabled: document.getElementById("prev").disabled,
              nextDisabled: document.getElementById("next").disabled,
              views: pressed,
              hiddenCards: svg ? svg.querySelectorAll("g.card.hidden").length : -1,
              resources: performance.getEntriesByType("resource").length,
              width: svg ? svg.getBoundingClientRect().width : 0,
              resultOpen: document.getElementById("result").open,
              pageTitle: document.title,
              names: svg ? [...svg.querySelectorAll("g.seat")].map(g => {
                const panel = g.querySelector("rect").getBBox();
                const name = g.querySelector("text").getBBox();
                return Math.min(name.y - panel.y, panel.y + panel.height - name.y - name.height);
              }) : [],
            };
            """
        )
        assert isinstance(value, dict)
        return value

    def expect(self, what: str, **wanted: object) -> dict[str, Any]:
        """Check the page shows `wanted`; print `what` when it does."""
        state = self.state()
        for key, value in wanted.items():
            if state[key] != value:
                raise CheckFailed(f"{what}: {key} is {state[key]!r}, expected {value!r}")
        print(f"ok  {what}: {state['caption']}")
        return state


def play_record(seed: int) -> GameRecord:
    """A real game: ISMCTS (player 0) against Greedy (player 1)."""
    game = play_game((make_player("ismcts"), make_player("greedy")), seed=seed)
    return record_game(game.moves, seed=seed, players=("ISMCTS", "Greedy"))


def check(out: Path, docs: Path | None, seed: int) -> None:
    """Play, write, open and use the page; raise `CheckFailed` at the first surprise."""
    out.mkdir(parents=True, exist_ok=True)
    record = play_record(seed)
    (out / "game.txt").write_text(format_record(record), encoding="utf-8")
    page_path = out / "game.html"
    page_path.write_text(record_to_html(record), encoding="utf-8")
    last = len(record.moves)
    middle = last * 3 // 5
    print(f"game: seed {seed}, {last} moves; page {page_path.stat().st_size:,} bytes")
    with browser() as driver:
        driver.open(page_path.resolve().as_uri())
        page = Page(driver)
        for _ in range(100):
            if page.caption().startswith("Start"):
                break
            time.sleep(0.05)
        seen = page.expect(
            "the page opens at the start, the result folded", current=0, resultOpen=False
        )
        if "wins" in seen["pageTitle"] or "wins" in str(
            driver.js("return document.querySelector('header').textContent;")
        ):
            raise CheckFailed(f"the title or the header gives the result away: {seen}")
        if min(seen["names"]) < 4:
            raise CheckFailed(f"a player's name touches its panel's border: {seen['names']}")
        page.expect("the god view is shown first", views=["true", "false", "false"])
        state = page.state()
        if "god-view" not in state["svgClass"] or state["width"] < 600:
            raise CheckFailed(f"the board is not drawn: {state}")
        driver.screenshot(out / "01-start.png")
        for k in (1, 2, 3):
            driver.click("#next")
            page.expect(f"Next, {k} time(s)", current=k, prevDisabled=False)
        driver.press("ArrowRight")
        page.expect("the right arrow key", current=4)
        driver.press("ArrowLeft")
        driver.press("ArrowLeft")
        page.expect("the left arrow key, twice", current=2)
        driver.press("End")
        page.expect("End: the result unfolds", current=last, nextDisabled=True, resultOpen=True)
        if not page.caption().startswith(f"Move {last} of {last}"):
            raise CheckFailed(f"End: the caption is {page.caption()!r}")
        driver.screenshot(out / "04-end.png")
        driver.press("Home")
        page.expect("Home", current=0, prevDisabled=True)
        driver.click(f'.move[data-ply="{middle}"]')
        page.expect("a click in the move list", current=middle)
        driver.screenshot(out / "02-midgame.png")
        driver.click(".views button:nth-child(3)")
        seen = page.expect("Greedy's view", views=["false", "false", "true"], current=middle)
        if "player-1-view" not in seen["svgClass"] or "Greedy's view" not in seen["title"]:
            raise CheckFailed(f"the view button did not switch the picture: {seen}")
        if seen["hiddenCards"] < 1:
            raise CheckFailed("Greedy's view shows no card back for ISMCTS's hand")
        driver.screenshot(out / "03-midgame-greedy-view.png")
        driver.press("v")
        page.expect("the V key cycles the views", views=["true", "false", "false"])
        driver.press("0")
        seen = page.expect("the 0 key: ISMCTS's view", views=["false", "true", "false"])
        if "player-0-view" not in seen["svgClass"]:
            raise CheckFailed(f"the 0 key did not switch the picture: {seen}")
        driver.press("ArrowRight")
        page.expect("stepping keeps the view", current=middle + 1, views=["false", "true", "false"])
        driver.press("g")
        page.expect("the G key: all cards", views=["true", "false", "false"], resources=0)
        for golden in sorted((ROOT / "tests" / "golden" / "svg").glob("*.svg")):
            driver.open(golden.resolve().as_uri())
            (out / "svg").mkdir(exist_ok=True)
            driver.screenshot(out / "svg" / golden.with_suffix(".png").name)
        print(f"ok  the golden pictures rendered to {out / 'svg'}")
    if docs is not None:
        docs.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(out / "02-midgame.png", docs / "replay-midgame.png")
        shutil.copyfile(out / "04-end.png", docs / "replay-end.png")
        print(f"copied the mid-game and end screenshots to {docs}")
    print(f"browser check passed; screenshots in {out}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the check; the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "browser-check")
    parser.add_argument("--docs", type=Path, help="copy the two README screenshots there")
    parser.add_argument("--seed", type=int, default=2, help="the game's seed (2, as hatsuden demo)")
    args = parser.parse_args(argv)
    try:
        check(args.out, args.docs, args.seed)
    except CheckFailed as error:
        print(f"browser check FAILED: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
