"""``hatsuden play``: a human against a bot in the terminal."""

from __future__ import annotations

import os
from collections.abc import Sequence
from types import MappingProxyType
from typing import Final, TextIO

from hatsuden_rules.cli._board import LEGEND, LEGEND_LINE, render_board
from hatsuden_rules.core.apply import apply, new_game
from hatsuden_rules.core.errors import HatsudenError, IllegalMoveError
from hatsuden_rules.core.legal import legal_moves
from hatsuden_rules.core.moves import Move
from hatsuden_rules.core.rng import SplitMix64, splitmix64
from hatsuden_rules.core.rules import STANDARD, Rules
from hatsuden_rules.core.scoring import Decision, score
from hatsuden_rules.core.state import GameState, Phase
from hatsuden_rules.notation import format_move, format_rules, format_seen_move, parse_move
from hatsuden_rules.observation import observe
from hatsuden_rules.players import Player
from hatsuden_rules.serialization._records import format_record, record_game

__all__ = ["HELP", "fresh_path", "play_session"]

HELP = """\
Type the number of a move from the list, or the move itself in notation:
  C S3 0S   construct S3 (solar 3) on city 0, solar column    C* ...  the same, secret
  I S4 0S   improve the solar plant of city 0 with S4          D ...   downsize (needs Down)
  P S3 1W   build a pylon with S3 on city 1, wind column       X S3    discard S3
  DT / NT   draw / decline a tech card                         F 1W    flip the plant on 1W
  DD        draw from the deck      DX S3  take S3 from the discards      E  end the turn
  A 0       put the Accumulator on city 0                      M W     put Smart on wind
  PASS      act with an empty hand
Energies: S solar, G geothermal, W wind, H hydro, B biomass. Rows (cities) are 0 and 1.
Commands: help (this text), board (show the board again), legend (what every symbol means),
undo (take back your turn: the start of this turn, or of your previous one if you have not
moved yet), quit (stop; the game so far is saved).
Goal: win energies (the higher column sum; 2 points with Smart) and keep each city at exactly
10 (+1; 8 or less is -1). A row over 11 (12 with the Accumulator) overflows: flip plants."""

_WHY: Final = MappingProxyType(
    {
        Decision.TOTAL: "the higher total",
        Decision.CITY_POINTS: "tie-break 1, the higher city points",
        Decision.SUPPLY: "tie-break 1, the higher total supply",
        Decision.SECOND_PLAYER: "tie-break 2: the second player wins a full tie",
    }
)


def _columns(moves: Sequence[Move]) -> str:
    cells = [f"{n:>3}. {format_move(m):<9}" for n, m in enumerate(moves, 1)]
    rows = [" ".join(cells[i : i + 5]).rstrip() for i in range(0, len(cells), 5)]
    return "\n".join(rows)


class _Session:
    """The state of one terminal game (local to `play_session`)."""

    def __init__(
        self,
        bot: Player,
        bot_name: str,
        seed: int,
        human: int,
        rules: Rules,
        out: TextIO,
    ) -> None:
        self.bot = bot
        self.human = human
        self.names = ("You", bot_name) if human == 0 else (bot_name, "You")
        self.seed = seed
        self.rules = rules
        self.out = out
        self.state = new_game(seed, rules)
        self.moves: list[Move] = []
        self.starts: list[tuple[GameState, int]] = []  # the start of each of the human's turns
        _, self.stream = splitmix64(seed ^ 0x6A09E667F3BCC909)

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def play(self, move: Move) -> None:
        self.state = apply(self.state, move)
        self.moves.append(move)

    def bot_turn(self) -> None:
        seat = 1 - self.human
        while not self.state.is_over and self.state.current_player == seat:
            legal = legal_moves(self.state)
            if len(legal) == 1:
                move = legal[0]
            else:
                self.stream, value = splitmix64(self.stream)
                move = self.bot.choose(observe(self.state, seat), legal, SplitMix64(value))
                if move not in legal:
                    raise HatsudenError(f"the bot chose an illegal move {move!r}")
            self.play(move)
        seen = observe(self.state, self.human).last_turn
        self.say(f"\n{self.names[seat]} played: {', '.join(format_seen_move(m) for m in seen)}")

    def show(self) -> None:
        seen = observe(self.state, self.human)
        self.say()
        self.say(render_board(seen, self.names))
        self.say(LEGEND_LINE)
        self.say(f"Your moves ({self.state.phase.name}):")
        self.say(_columns(legal_moves(self.state)))

    def undo(self) -> None:
        if not self.starts:
            self.say("Nothing to undo yet.")
            return
        start, count = self.starts[-1]
        if self.state is start:
            if len(self.starts) == 1:
                self.say("Nothing to undo: this is your first turn.")
                return
            self.starts.pop()
            start, count = self.starts[-1]
            self.say("Back to the start of your previous turn.")
        else:
            self.say("Back to the start of this turn.")
        self.state = start
        del self.moves[count:]

    def human_move(self, text: str) -> bool:
        """Play the move `text` names; False (with an explanation) if it is not one."""
        legal = legal_moves(self.state)
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                self.play(legal[number - 1])
                return True
            self.say(f"There is no move {number}: choose 1 to {len(legal)}.")
            return False
        typed = " ".join(text.split())
        try:
            move = parse_move(typed.upper(), self.rules)
        except HatsudenError as error:
            self.say(f"I cannot read {text!r}: {users_case(str(error), typed)}.")
            self.say("Type a number from the list, a move such as 'C S3 0S', or help.")
            return False
        if move not in legal:
            try:
                apply(self.state, move)
            except IllegalMoveError as error:
                self.say(f"{format_move(move)} is not legal now: {error}")
                return False
            self.say(f"{format_move(move)} is not legal now.")  # pragma: no cover - defensive
            return False
        self.play(move)
        return True

    def finish(self) -> None:
        sheet = score(self.state)
        self.say()
        self.say(render_board(observe(self.state, self.human), self.names))
        self.say(LEGEND_LINE)
        self.say("\nFinal score")
        for seat, sheet_p in enumerate(sheet.players):
            self.say(
                f"  {self.names[seat]:<10} energy {sheet_p.energy_points} + cities "
                f"{sheet_p.city_points:+d} = {sheet_p.total}   (rows {sheet_p.row_supply[0]} and "
                f"{sheet_p.row_supply[1]})"
            )
        winner = "You win" if sheet.winner == self.human else f"{self.names[sheet.winner]} wins"
        self.say(f"{winner}, by {_WHY[sheet.decided_by]}.")


def play_session(
    bot: Player,
    *,
    bot_name: str,
    seed: int,
    human_first: bool,
    rules: Rules,
    record_path: str | None,
    stdin: TextIO,
    stdout: TextIO,
    overwrite: bool = False,
) -> int:
    """Run one game between the human on `stdin`/`stdout` and `bot`; return the exit code.

    The record is saved to `record_path` (None: not saved). An existing file is replaced only
    if `overwrite`; otherwise the record goes to a fresh name beside it (`fresh_path`), and the
    player is told.
    """
    session = _Session(bot, bot_name, seed, 0 if human_first else 1, rules, stdout)
    session.say(
        f"HATSUDEN · you are player {session.human} ({'first' if human_first else 'second'}) "
        f"against {bot_name} · seed {seed} · type help for the notation and commands"
    )
    if rules != STANDARD:
        session.say(f"Rules {format_rules(rules)}")
    try:
        _loop(session, stdin)
    except KeyboardInterrupt:
        session.say("\n(interrupted)")
    if session.state.is_over:
        session.finish()
    else:
        session.say("Game stopped.")
    return _save(session, record_path, overwrite)


def _loop(session: _Session, stdin: TextIO) -> None:
    """Alternate the bot's turns and the human's until the game ends or the human stops."""
    while not session.state.is_over:
        if session.state.current_player != session.human:
            session.bot_turn()
            continue
        state = session.state
        at_start = state.phase is Phase.ACTION and not state.this_turn
        if at_start and (not session.starts or session.starts[-1][0] is not state):
            session.starts.append((state, len(session.moves)))
        legal = legal_moves(state)
        if len(legal) == 1:
            session.say(f"You play {format_move(legal[0])}, the only legal move.")
            session.play(legal[0])
            continue
        session.show()
        while True:
            session.out.write("your move> ")
            session.out.flush()
            line = stdin.readline()
            if not line:
                session.say("\n(end of input)")
                return
            text = line.strip()
            command = text.lower()
            if not text:
                continue
            if command in ("help", "h", "?"):
                session.say(HELP)
            elif command in ("board", "b"):
                session.show()
            elif command in ("legend", "key", "l"):
                session.say(LEGEND)
            elif command in ("quit", "q", "exit"):
                return
            elif command in ("undo", "u"):
                session.undo()
                break
            elif session.human_move(text):
                break


def fresh_path(path: str) -> str:
    """`path` if no file has that name, else the first free ``stem-2.ext``, ``stem-3.ext``...

    Examples:
        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> name = os.path.join(folder, "game.txt")
        >>> fresh_path(name) == name
        True
        >>> open(name, "w").close()
        >>> os.path.basename(fresh_path(name))
        'game-2.txt'
    """
    if not os.path.lexists(path):
        return path
    stem, ext = os.path.splitext(path)
    number = 2
    while os.path.lexists(f"{stem}-{number}{ext}"):
        number += 1
    return f"{stem}-{number}{ext}"


def _save(session: _Session, record_path: str | None, overwrite: bool) -> int:
    if record_path is None or not session.moves:
        return 0
    record = record_game(
        session.moves, seed=session.seed, rules=session.rules, players=session.names
    )
    text = format_record(record)
    path = record_path
    try:
        if overwrite:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
        else:
            while True:
                path = fresh_path(path)
                try:
                    with open(path, "x", encoding="utf-8") as handle:
                        handle.write(text)
                    break
                except FileExistsError:  # created meanwhile: try the next name
                    continue
    except OSError as error:
        session.say(f"Could not save the game record to {path}: {error.strerror or error}")
        return 1
    if path != record_path:
        session.say(f"{record_path} exists (not overwritten).")
    session.say(f"Game record saved to {path} (replay it: hatsuden replay {path})")
    return 0


def users_case(message: str, typed: str) -> str:
    """`message` about ``typed.upper()`` (what is parsed), quoting `typed` as the user wrote it.

    Examples:
        >>> users_case("found 'FOO' at position 0 of 'FOO'", "foo")
        "found 'foo' at position 0 of 'foo'"
        >>> users_case("found 'X' at position 4 of 'C S3 X'", "c s3 x")
        "found 'x' at position 4 of 'c s3 x'"
    """
    upper = typed.upper()
    if len(upper) != len(typed):  # a letter whose capital is longer (ß): keep the message
        return message
    message = message.replace(f" of {upper!r}", f" of {typed!r}")
    for start in range(len(upper)):
        for end in range(len(upper), start, -1):
            quoted = f"found {upper[start:end]!r}"
            if quoted in message and upper[start:end] != typed[start:end]:
                return message.replace(quoted, f"found {typed[start:end]!r}", 1)
    return message
