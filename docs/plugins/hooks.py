"""MkDocs hooks of the documentation site (mkdocs.yml ``hooks:``).

Four things the stock plugins cannot do:

- **The command-line reference is generated.** A line ``<!-- argparse MODULE -->`` in a page is
  replaced, at build time, by the reference of the command whose parser ``MODULE.build_parser()``
  returns: usage, description, every argument and every subcommand. A flag added to a parser
  appears on the site with no edit to the docs.
- **Every rule has a short anchor.** RULES.md marks rule N with a line ``<a id="rN"></a>`` before
  its heading ``### RN. Title`` (so that ``RULES.md#r12`` works on GitHub too). On the site the
  marker is folded into the heading itself (``### R12. Improve {#r12}``), so the heading, its
  permalink and the table of contents all use ``#r12``. This runs as a Markdown preprocessor after
  pymdownx.snippets, which includes RULES.md into ``docs/RULES.md``.
- **Links work on GitHub and on the site alike.** The README links ``LICENSE``: the site serves
  the repository's file at the same relative address. A page of docs/ links a root document as
  ``../RULES.md`` (right on GitHub); on the site that link goes to the page docs/RULES.md. A
  root document included whole (the README) links ``docs/pictures.md``: ``pictures.md`` there.
- **Search works from the disk.** ``site/index.html`` opened as a file (no server) cannot fetch
  the search index: `on_post_build` also writes it as a script, which the theme loads there, and
  javascripts/file-worker.js runs the search worker, which a file: page may not start.
"""

from __future__ import annotations

import argparse
import enum
import importlib
import re
from pathlib import Path
from typing import Any

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

_ARGPARSE = re.compile(r"^<!-- argparse (?P<module>[\w.]+) -->$", re.MULTILINE)
_ROOT_LINK = re.compile(r"\]\(\.\./(?P<name>[A-Za-z_]+\.md)(?P<anchor>#[^)\s]*)?\)")
_RULE_ANCHOR = re.compile(r'^<a id="(r\d+)"></a>\n\n(### R\d+\. .+)$', re.MULTILINE)
_DOCS_LINK = re.compile(r"\]\(docs/(?P<path>[^)\s]+)")
_HELP_WIDTH = 80  # the usage lines, as a terminal of 80 columns shows them
_DEFAULT_GROUPS = ("positional arguments", "options", "optional arguments")
_ROOT = Path(__file__).resolve().parents[2]
_ROOT_FILES = ("LICENSE",)


# -- rule anchors ------------------------------------------------------------------------------


class _RuleAnchors(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        text = _RULE_ANCHOR.sub(r"\2 {#\1}", "\n".join(lines))
        # A root document included whole (the README) links docs/pictures.md; docs/ is the
        # site's root.
        return _DOCS_LINK.sub(r"](\g<path>", text).split("\n")


class RuleAnchorsExtension(Extension):
    """Fold ``<a id="rN"></a>`` markers into the ``### RN. Title`` heading that follows.

    Also turns links ``](docs/X)`` of included root documents into ``](X)``.
    """

    def extendMarkdown(self, md: Markdown) -> None:
        """Run after pymdownx.snippets (priority 32), on the text it included."""
        md.preprocessors.register(_RuleAnchors(md), "hatsuden_rule_anchors", 31)


def on_config(config: Any) -> Any:
    """Register the rule-anchor preprocessor with every page's Markdown."""
    config.markdown_extensions.append(RuleAnchorsExtension())
    return config


def on_files(files: Files, config: Any) -> Files:
    """Serve the root files that pages link but that are not pages (``LICENSE``)."""
    for name in _ROOT_FILES:
        files.append(File.generated(config, name, abs_src_path=str(_ROOT / name)))
    return files


# -- command-line reference --------------------------------------------------------------------


def _escape(text: str) -> str:
    """Text for a Markdown table cell: no pipes, no HTML, no line breaks."""
    text = " ".join(text.split())
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", r"\|")


def _formatter(parser: argparse.ArgumentParser) -> argparse.HelpFormatter:
    return argparse.HelpFormatter(parser.prog, width=_HELP_WIDTH, max_help_position=32)


def _help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    if action.help is None or action.help == argparse.SUPPRESS:
        return ""
    # argparse's own expansion of %(default)s, %(choices)s, %(prog)s...
    return _formatter(parser)._expand_help(action)


def _invocation(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    formatter = _formatter(parser)
    if action.option_strings:
        if action.nargs == 0:
            return ", ".join(f"`{option}`" for option in action.option_strings)
        metavar = formatter._format_args(
            action, formatter._get_default_metavar_for_optional(action)
        )
        return ", ".join(f"`{option} {metavar}`" for option in action.option_strings)
    metavar = formatter._format_args(action, formatter._get_default_metavar_for_positional(action))
    return f"`{metavar}`"


_PARENTHESIS = re.compile(r"\s*\(([^()]*)\)")
_DEFAULT_PART = re.compile(r"^(?:by )?default:?\s+(?P<text>.+)$")
_THE_DEFAULT = re.compile(r"(?P<word>[\w-]+): [^;]*?\((?:the )?default\)")
_TRAILING_DEFAULT = re.compile(r";\s*default:?\s+(?P<text>[^;]+)$")
_DEFAULT_OF = re.compile(r"\bthe default (?:of|for) (?P<what>[^;(),]+)")
_NONE = "\N{EM DASH}"


def _split_default(help_text: str) -> tuple[str, str | None]:
    """`help_text` without its ``(default: X)`` clause, and X (None if it states none).

    A parenthesis holding only the default goes; one holding more keeps the rest:
    ``(default 10; 1: every turn)`` becomes ``(1: every turn)``.
    """
    found: list[str] = []

    def strip(match: re.Match[str]) -> str:
        parts = [part.strip() for part in match[1].split(";")]
        kept = []
        for part in parts:
            default = _DEFAULT_PART.match(part)
            if default and not found:
                found.append(default["text"])
            else:
                kept.append(part)
        if len(kept) == len(parts):
            return match[0]
        return f" ({'; '.join(kept)})" if kept else ""

    text = _PARENTHESIS.sub(strip, help_text)
    trailing = _TRAILING_DEFAULT.search(text)
    if trailing and not found:  # "...; default: the bundled adapter" at the end
        found.append(trailing["text"].strip())
        text = text[: trailing.start()]
    return text, (found[0] if found else None)


def _value(value: object) -> str:
    """A default as it is typed on the command line."""
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, tuple | list):
        return ",".join(_value(item) for item in value)
    return str(value)


def _code(text: str) -> str:
    """A value in code spans, words as they are: ``10`` is code, ``every core`` is not."""
    return f"`{text}`" if text and " " not in text else _escape(text)


def _rule_field_default(action: argparse.Action) -> str | None:
    """A rule-set flag's default: the base rule set's field (STANDARD's value shown)."""
    from hatsuden_rules import STANDARD
    from hatsuden_rules.cli._flags import RULE_FLAGS

    if action.dest not in {flag.field for flag in RULE_FLAGS}:
        return None
    value = getattr(STANDARD, action.dest)
    if isinstance(value, bool):
        shown = "on" if value else "off"
    elif value is None:
        shown = "`none`"
    elif isinstance(value, frozenset):
        from hatsuden_rules.notation import TECH_CODES

        shown = f"`{','.join(TECH_CODES[t] for t in sorted(value, key=list(TECH_CODES).index))}`"
    else:
        shown = f"`{_value(value)}`"
    return f"the base rule set's (standard: {shown})"


def _default(action: argparse.Action, help_text: str) -> tuple[str, str]:
    """The default column of `action`'s row, and its help text without a repeated default.

    The default is argparse's (``on``/``off`` for a flag), else the one the help text states in
    words (``(default: a random one)``, then dropped from the text), else an em dash. A rule-set
    flag (default `argparse.SUPPRESS`: absent unless given) takes the base rule set's field.
    """
    text, stated = _split_default(help_text)
    default = action.default
    if isinstance(action, argparse._VersionAction) or action.required:
        return _NONE, help_text
    if default is argparse.SUPPRESS:
        rule = _rule_field_default(action)
        return (rule, help_text) if rule else (_NONE, help_text)
    if action.nargs == 0 and not isinstance(action, argparse._CountAction):
        # store_true, store_false, store_const: the flag is off until given; a flag that is
        # on for some configurations ("the default of choice and huge") says so.
        # ("you move first (default: second)" is "you move first", off).
        shown = "on" if isinstance(action, argparse.BooleanOptionalAction) and default else "off"
        if (where := _DEFAULT_OF.search(help_text)) is not None:
            shown += f"; on for {_escape(where['what'].strip())}"
        return shown, text
    if default is not None:
        shown = _value(default)
        # A bare "(10)" after the text repeats the default: the column says it.
        text = re.sub(rf"\s*\({re.escape(shown)}\)$", "", text)
        return f"`{shown}`", text
    if stated is not None:
        return _code(stated), text
    the_default = _THE_DEFAULT.search(help_text)
    if the_default:
        return f"`{the_default['word']}`", help_text
    return _NONE, help_text


def _subparsers(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, sub in action.choices.items():
                found.append((name, helps.get(name, ""), sub))
    return found


def _reference(parser: argparse.ArgumentParser, level: int) -> list[str]:
    heading = "#" * level
    out = [f"{heading} `{parser.prog}`", ""]
    usage = _formatter(parser)
    usage.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups, prefix="")
    out += ["```text", usage.format_help().strip(), "```", ""]
    if parser.description:
        out += [_escape(parser.description), ""]
    # One table per argument group: positionals and options first, then each named group (a
    # shared set of flags such as the rule-set options) under its own title.
    for group in parser._action_groups:
        rows = []
        for action in group._group_actions:
            if isinstance(action, argparse._SubParsersAction | argparse._HelpAction):
                continue
            default, text = _default(action, _help(parser, action))
            required = " (required)" if action.required and action.option_strings else ""
            rows.append(
                f"| {_invocation(parser, action)} | {_escape(text)}{required} | {default} |"
            )
        if not rows:
            continue
        if group.title not in _DEFAULT_GROUPS:
            out += [f"**{_escape(group.title or '')}**", ""]
            if group.description:
                out += [_escape(group.description), ""]
        out += ["| argument | meaning | default |", "|---|---|---|", *rows, ""]
    subcommands = _subparsers(parser)
    if subcommands:
        out += ["| command | what it does |", "|---|---|"]
        out += [
            f"| [`{name}`](#{_slug(sub.prog)}) | {_escape(text)} |"
            for name, text, sub in subcommands
        ]
        out.append("")
    if parser.epilog:
        out += [_escape(parser.epilog), ""]
    for _name, _text, sub in subcommands:
        out += _reference(sub, level + 1)
    return out


def _slug(prog: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", prog.lower()).strip("-")


def command_reference(module: str, level: int = 2) -> str:
    """The Markdown reference of the command whose parser ``module.build_parser()`` builds."""
    parser = importlib.import_module(module).build_parser()
    lines = _reference(parser, level)
    # Explicit heading ids, so that the subcommand links above resolve whatever the slugifier.
    return "\n".join(
        re.sub(r"^(#+ `(.+)`)$", lambda m: f"{m[1]} {{#{_slug(m[2])}}}", line) for line in lines
    )


def _root_links(markdown: str) -> str:
    """``](../RULES.md#r12)`` in a page of docs/ becomes ``](RULES.md#r12)`` on the site.

    A page under docs/ reaches a root document as ``../RULES.md`` on GitHub; on the site the
    root documents are pages of their own beside it (docs/RULES.md includes RULES.md).
    """

    def local(match: re.Match[str]) -> str:
        name = match["name"]
        if (_ROOT / "docs" / name).is_file():
            return f"]({name}{match['anchor'] or ''})"
        return match[0]

    return _ROOT_LINK.sub(local, markdown)


def on_post_build(config: Any) -> None:
    """The search index as a script too, so that search works from the disk (``file://``).

    A page opened from the disk cannot fetch ``search_index.json``; the theme then loads
    ``search/search_index.js``, which defines the same index as ``__index``, and
    javascripts/file-worker.js runs the search worker in a frame of the page.
    """
    folder = Path(config["site_dir"]) / "search"
    index = folder / "search_index.json"
    if index.is_file():
        script = "var __index = " + index.read_text(encoding="utf-8") + ";\n"
        (folder / "search_index.js").write_text(script, encoding="utf-8")


def on_page_markdown(markdown: str, page: Page, **kwargs: Any) -> str:
    """Generate the command references; point root-document links at their pages."""
    if "/" not in page.file.src_uri:
        markdown = _root_links(markdown)
    return _ARGPARSE.sub(lambda m: command_reference(m["module"]), markdown)
