"""README.md "In AI frameworks": each example runs on its own and prints what it says."""

from __future__ import annotations

import contextlib
import io
import re

from tests.support.paths import ROOT_DIR

README = ROOT_DIR / "README.md"


def _examples() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## In AI frameworks") :]
    section = section[: section.index("\n## ", 1)]
    return re.findall(r"```python\n(.*?)```", section, re.DOTALL)


def _run(code: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {"__name__": "__readme__"})
    return out.getvalue()


def test_there_are_two_short_examples() -> None:
    examples = _examples()
    assert len(examples) == 2
    assert all(len(code.splitlines()) <= 14 for code in examples)


def test_the_openspiel_example_runs() -> None:
    nash_conv = float(_run(_examples()[0]))
    assert 0 < nash_conv < 0.05


def test_the_pettingzoo_example_runs() -> None:
    printed = _run(_examples()[1])
    assert sorted(eval(printed).values()) == [-1, 1]
