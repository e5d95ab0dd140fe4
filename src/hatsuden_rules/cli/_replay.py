"""The ``hatsuden-replay`` command: check a game record and print the game turn by turn.

``hatsuden-replay FILE`` reads a record in its text form or as a JSON document (``-`` reads
standard input), replays every move with the rules engine and prints each turn, with the boards
after it unless ``--moves-only``, then the final score and whether it matches the stated result.
``--html PAGE`` writes the game as one self-contained HTML page to step through instead
(`hatsuden_rules.svg.record_to_html`; ``-`` writes it to standard output).

The rule flags every command shares (``--rules``, ``--config``, ``--tiebreak``...) state the rule
set the record must have been played under: the base is the record's own rules (``--rules`` or
``--config`` replace it), each field flag replaces one field, and a record played under other
rules is refused (exit 1), naming both rule sets.

Exit codes: 0 the record replays and its result (if stated) matches; 1 the record is malformed
or does not replay (the message names the line, the JSON path or the ply); 2 a usage error or an
unreadable file.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from hatsuden_rules import __version__
from hatsuden_rules.cli._flags import add_rule_flags, overrides, rules_from_args
from hatsuden_rules.core.errors import InvalidInputError, InvalidRulesError
from hatsuden_rules.core.render import render
from hatsuden_rules.core.rules import Rules
from hatsuden_rules.core.state import Chance, EndReason
from hatsuden_rules.notation import format_move, format_rules
from hatsuden_rules.serialization import from_json
from hatsuden_rules.serialization._records import (
    GameRecord,
    GameResult,
    ReplayError,
    _check_result,
    _steps,
    parse_record,
)

__all__ = ["main", "read_record"]

PROG = "hatsuden-replay"


def read_record(text: str) -> GameRecord:
    """A record from its text form, or from a JSON document if `text` starts with ``{``.

    Examples:
        >>> read_record('{"type": "rules", "format_version": 1}')
        Traceback (most recent call last):
        ...
        hatsuden_rules.serialization.InvalidDocumentError: $.type: expected a record document, \
got 'rules'
    """
    if text.lstrip().startswith("{"):
        return from_json(text, "record")
    return parse_record(text)


def _result_line(result: GameResult) -> str:
    reason = "final turn" if result.end_reason is EndReason.FINAL_TURN else "stall"
    a, b = result.totals
    return (
        f"player {result.winner} wins {a} to {b} "
        f"(decided by {result.decided_by.value.replace('_', ' ')}; {reason})"
    )


def show(record: GameRecord, out: TextIO, *, boards: bool = True) -> None:
    """Replay `record`, printing it turn by turn to `out`.

    Raises:
        ReplayError: A move is not legal or the stated result does not match.
    """
    from hatsuden_rules.core.apply import new_game

    names = record.players or ("player 0", "player 1")
    mode = "explicit chance" if record.seed is None else f"seed {record.seed}"
    out.write(f"HATSUDEN record · rules {format_rules(record.rules)} · {mode}\n")
    if record.players is not None:
        out.write(f"Player 0: {names[0]} · Player 1: {names[1]}\n")
    state = new_game(record.seed, record.rules)
    line: list[str] = []
    turn, mover = 0, 0
    try:
        for _, move_turn, move, after in _steps(record, state):
            if line and move_turn != turn:
                _flush(out, turn, names[mover], line, render(state) if boards and turn else None)
                line = []
            if not line:
                turn, mover = move_turn, state.current_player
            line.append(format_move(move))
            state = after
    except ReplayError as error:
        # the turn so far, and the board the offending move was tried on
        if line and error.move is not None:
            ongoing = (
                state.pending_chance is Chance.SETUP if turn == 0 else state.current_player == mover
            )
            out.write(
                f"{_head(turn, names[mover])}: {', '.join(line)}{', ...' if ongoing else ''}\n"
            )
        if boards:
            out.write(f"The board before ply {error.ply}:\n{render(state)}\n\n")
        raise
    if line:
        _flush(out, turn, names[mover], line, render(state) if boards and turn else None)
    _check_result(record, state)
    if state.is_over:
        out.write(f"Game over: {_result_line(GameResult.of(state))}")
        out.write(" · matches the record\n" if record.result is not None else "\n")
    else:
        out.write(f"The game is not over after {len(record.moves)} moves\n")


def _head(turn: int, name: str) -> str:
    return "Deal" if turn == 0 else f"Turn {turn} · {name}"


def _flush(out: TextIO, turn: int, name: str, moves: list[str], board: str | None) -> None:
    out.write(f"{_head(turn, name)}: {', '.join(moves)}\n")
    if board is not None:
        out.write(board + "\n\n")


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    """The argument parser of ``hatsuden-replay`` (`prog`: ``hatsuden replay`` as a subcommand)."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Check a HATSUDEN game record (text or JSON) and print it turn by turn.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("file", help="the record file (text form or JSON document); - for stdin")
    parser.add_argument(
        "--moves-only", action="store_true", help="print the moves of each turn, not the boards"
    )
    parser.add_argument(
        "--html",
        metavar="PAGE",
        help="write the game as one HTML page to step through (- for stdout), not the text",
    )
    add_rule_flags(
        parser,
        configs=_configs(),
        default="the record's own rules (the flags state what the record must be played under)",
    )
    return parser


def _configs() -> dict[str, Rules]:
    from hatsuden_rules.modelcheck._configs import CONFIGS

    return dict(CONFIGS)


def _expected_rules(args: argparse.Namespace, record: GameRecord) -> Rules | None:
    """The rule set the flags require of `record`, or None when no rule flag is given."""
    if args.base_rules is None and args.config is None and not overrides(args):
        return None
    return rules_from_args(args, default=record.rules, configs=_configs())


def main(argv: Sequence[str] | None = None, prog: str = PROG) -> int:
    """Run ``hatsuden-replay``; returns the exit code.

    `prog` names the command in messages: ``hatsuden replay`` when run as ``hatsuden``'s
    subcommand.
    """
    args = build_parser(prog).parse_args(argv)
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        print(f"{prog}: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    try:
        record = read_record(text)
        try:
            expected = _expected_rules(args, record)
        except InvalidRulesError as error:
            print(f"{prog}: error: invalid rules: {error}", file=sys.stderr)
            return 2
        if expected is not None and expected != record.rules:
            print(
                f"{prog}: {args.file}: the record is played under rules "
                f"{format_rules(record.rules)}, not {format_rules(expected)}",
                file=sys.stderr,
            )
            return 1
        if args.html is not None:
            return _write_html(record, args.html, prog)
        show(record, sys.stdout, boards=not args.moves_only)
    except BrokenPipeError:  # the reader went away (e.g. `| head`): not an error of the record
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        return 0
    except ReplayError as error:
        sys.stdout.flush()
        # one numbering, the record's: 1-based ply and turn (not the 0-based moves[i] path)
        detail = str(error)[len(error.field) + 2 :] if error.ply is not None else str(error)
        print(f"{prog}: {args.file}: invalid record: {detail}", file=sys.stderr)
        return 1
    except InvalidInputError as error:
        sys.stdout.flush()
        print(f"{prog}: {args.file}: invalid record: {error}", file=sys.stderr)
        return 1
    return 0


def _write_html(record: GameRecord, path: str, prog: str = PROG) -> int:
    """Write the page of `record` to `path` (``-``: stdout); exit code 2 if it cannot be written.

    Raises:
        ReplayError: A move is not legal or the stated result does not match.
    """
    from hatsuden_rules.svg import record_to_html

    page = record_to_html(record)
    if path == "-":
        sys.stdout.write(page)
        return 0
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(page)
    except OSError as error:
        print(f"{prog}: cannot write {path}: {error}", file=sys.stderr)
        return 2
    print(
        f"{path}: {len(record.moves) + 1} positions in 3 views, {len(page.encode()):,} bytes; "
        "open it in a browser"
    )
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
