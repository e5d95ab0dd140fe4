"""The documentation holds together (issue 13): the README's blocks, the docs site's pages.

`make docs` builds the site strictly (a broken link, anchor or reference fails the build); these
tests check what a strict build cannot: that each README code block runs on its own, that every
command line the documents show is accepted by the command's own parser, that every public
module has an API page and every command a reference, and that every rule keeps its anchor.
"""

from __future__ import annotations

import doctest
import importlib
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import hatsuden_rules
from tests.support.paths import ROOT_DIR

ROOT = ROOT_DIR
DOCS = ROOT / "docs"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SCRIPTS: dict[str, str] = PYPROJECT["project"]["scripts"]
EXTRAS: dict[str, list[str]] = PYPROJECT["project"]["optional-dependencies"]
MKDOCS = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")

# Public modules documented on the command-line page rather than in the API reference.
COMMAND_MODULES = {"cli", "conformance.adapter"}
# The implementations behind the facades `openspiel`, `pettingzoo` and `vector`, documented there,
# and the rules core, whose public names `hatsuden_rules` re-exports (docs/architecture.md).
IMPLEMENTATIONS = {
    "integrations",
    "integrations.openspiel",
    "integrations.pettingzoo",
    "integrations.vector",
    "core",
    *(f"core.{path.stem}" for path in (ROOT / "src" / "hatsuden_rules" / "core").glob("[!_]*.py")),
}
# Public modules whose API page waits for their `Example:` docstring sections to become
# `Examples:` (another branch splits these files): excluded in mkdocs.yml, named here.
PENDING_MODULES: set[str] = set()


def _blocks(text: str, languages: tuple[str, ...]) -> list[str]:
    pattern = r"^```(?:" + "|".join(languages) + r")\n(.*?)^```"
    return re.findall(pattern, text, flags=re.MULTILINE | re.DOTALL)


README_PYTHON = _blocks((ROOT / "README.md").read_text(encoding="utf-8"), ("python",))
DOCUMENTS = sorted(
    [*ROOT.glob("*.md"), ROOT / "conformance" / "README.md", *DOCS.rglob("*.md")],
    key=str,
)


@pytest.mark.parametrize("index", range(len(README_PYTHON)))
def test_readme_python_block_runs_alone(index: int, tmp_path: Path) -> None:
    """Each README block, with nothing run before it, in a fresh interpreter."""
    block = tmp_path / f"readme-block-{index + 1}.txt"
    block.write_text(README_PYTHON[index], encoding="utf-8")
    if ">>>" in README_PYTHON[index]:
        command = [sys.executable, "-m", "doctest", "-o", "ELLIPSIS", "-o", "NORMALIZE_WHITESPACE"]
    else:
        command = [sys.executable]
    result = subprocess.run(
        [*command, str(block)], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, f"README block {index + 1}:\n{result.stdout}{result.stderr}"


def test_readme_has_the_blocks_issue_13_names() -> None:
    assert len(README_PYTHON) >= 6
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.index("pip install hatsuden-rules") < readme.index("make demo")
    assert readme.index("make test") < readme.index("```python")


@pytest.mark.parametrize("page", sorted(DOCS.rglob("*.md")), ids=lambda p: p.name)
def test_docs_page_examples_run(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False, optionflags=FLAGS)
    assert result.failed == 0


def test_getting_started_has_examples() -> None:
    result = doctest.testfile(
        str(DOCS / "getting-started.md"), module_relative=False, optionflags=FLAGS
    )
    assert result.attempted >= 20


def _shell_commands(text: str) -> list[str]:
    """The commands of the shell blocks: continuation lines joined, comments dropped."""
    commands = []
    for block in _blocks(text, ("sh", "bash", "shell", "console")):
        for line in block.replace("\\\n", " ").splitlines():
            lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
            lexer.whitespace_split, lexer.commenters = True, "#"
            words = list(lexer)
            # The command ends at a redirection, a pipe or a list operator.
            ends = [i for i, word in enumerate(words) if set(word) <= set("<>|&;")]
            words = words[: ends[0]] if ends else words
            if words:
                commands.append(shlex.join(words))
    return commands


def _makefile_targets() -> set[str]:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([a-z][\w-]*):", makefile, flags=re.MULTILINE))


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_documented_command_lines_are_accepted(document: Path) -> None:
    """Every `hatsuden...` line parses with its parser; `make` targets and extras exist."""
    for command in _shell_commands(document.read_text(encoding="utf-8")):
        words = shlex.split(command)
        if words[:2] in (["hatsuden", "check"], ["hatsuden", "replay"]):
            words = [f"hatsuden-{words[1]}", *words[2:]]  # delegated: the same arguments
        if words[0] in SCRIPTS:
            module = importlib.import_module(SCRIPTS[words[0]].split(":")[0])
            try:
                module.build_parser().parse_args(words[1:])
            except SystemExit:
                pytest.fail(f"{document.name}: {command!r} is refused by {words[0]}")
        elif words[0] == "make":  # targets, and variable assignments (BALANCE_ARGS=...)
            assert {w for w in words[1:] if "=" not in w} <= _makefile_targets(), command
        elif words[:2] == ["pip", "install"]:
            for extras in re.findall(r"hatsuden-rules\[([\w,]+)\]", command):
                assert set(extras.split(",")) <= set(EXTRAS), command


def test_every_extra_is_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = set(re.findall(r"^\| `([\w-]+)` \|", readme, flags=re.MULTILINE))
    assert set(EXTRAS) - {"mutation"} <= table  # mutation: `make mutation` only


def test_every_command_has_version_and_a_reference_page() -> None:
    cli_page = (DOCS / "cli.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^<!-- argparse ([\w.]+) -->$", cli_page, flags=re.MULTILINE))
    assert documented == {target.split(":")[0] for target in SCRIPTS.values()}
    for name, target in SCRIPTS.items():
        parser = importlib.import_module(target.split(":")[0]).build_parser()
        assert parser.prog == name
        with pytest.raises(SystemExit) as exit_info:
            parser.parse_args(["--version"])
        assert exit_info.value.code == 0


def _public_modules() -> set[str]:
    package = ROOT / "src" / "hatsuden_rules"
    found = set()
    for path in package.rglob("*.py"):
        parts = path.relative_to(package).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts and not any(part.startswith("_") for part in parts):
            found.add(".".join(parts))
    return found


def test_every_public_module_has_an_api_page() -> None:
    """Adding a public module means one page `docs/api/NAME.md` and one nav line."""
    pages = {path.stem for path in (DOCS / "api").glob("*.md")} - {"index"}
    for name in pages:
        text = (DOCS / "api" / f"{name}.md").read_text(encoding="utf-8")
        assert f"::: hatsuden_rules.{name}\n" in text, name
        if name not in PENDING_MODULES:
            assert f"api/{name}.md" in MKDOCS, f"api/{name}.md is not in the nav"
    assert _public_modules() - COMMAND_MODULES - IMPLEMENTATIONS == pages
    assert "::: hatsuden_rules\n" in (DOCS / "api" / "index.md").read_text(encoding="utf-8")


def test_every_rule_has_its_anchor() -> None:
    """`RULES.md#r12` is R12 on GitHub and on the site (the hook folds the marker in)."""
    rules = (ROOT / "RULES.md").read_text(encoding="utf-8")
    headings = re.findall(r"^### R(\d+)\. ", rules, flags=re.MULTILINE)
    anchored = re.findall(r'^<a id="r(\d+)"></a>\n\n### R\1\. ', rules, flags=re.MULTILINE)
    assert len(headings) == 41
    assert anchored == headings


def test_root_documents_are_pages_of_the_site() -> None:
    """Every root document the README links is included whole into a same-named page."""
    for document in re.findall(r"\]\(([A-Z]+\.md)\)", (ROOT / "README.md").read_text("utf-8")):
        page = DOCS / document
        assert page.read_text(encoding="utf-8") == f'--8<-- "{document}"\n', document
        assert f": {document}" in MKDOCS, f"{document} is not in the nav"


def test_version_is_the_package_version() -> None:
    assert PYPROJECT["project"]["version"] == hatsuden_rules.__version__
