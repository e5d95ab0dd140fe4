"""Pictures of the game: SVG boards for files and notebooks, and a game as one HTML page.

`board_svg` draws a `GameState` with every card (the god view) or an `Observation` from its
player's side, showing nothing that player has not seen: an opponent's secret plant is a ``?``,
their hand and tech cards are backs, and a pylon built from hand shows no card. The picture has
both grids (cards coloured by energy, with their letter and value), stacks, pylons, the
Accumulator and Smart, each city's supply against its tolerance, each energy's generation and
leader, the discards, the hands, the deck counts, the phase and the score if the game ended
now. It is standard SVG (no external fonts or images), with ``<title>`` and ``<desc>`` (the
text rendering) for screen readers, real ``<text>`` for every label, and a colour-blind-safe
palette (Okabe and Ito).

`GameState` and `Observation` display as pictures in Jupyter (``_repr_svg_``).

`record_to_html` turns a game record into one self-contained HTML page to step through the game
(``hatsuden replay game.txt --html game.html`` on the command line).

Examples:
    >>> from hatsuden_rules import new_game, observe
    >>> from hatsuden_rules.svg import board_svg
    >>> state = new_game(seed=5)
    >>> picture = board_svg(state, size=600)
    >>> picture.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox=')
    True
    >>> 'width="600"' in picture, picture._repr_svg_() == picture
    (True, True)
    >>> import xml.etree.ElementTree as ET
    >>> ET.fromstring(board_svg(observe(state, 1))).find("{http://www.w3.org/2000/svg}title").text
    "HATSUDEN, Player 1's view: Player 0 to play · action"
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from hatsuden_rules.core import publish
from hatsuden_rules.core.cards import Cell
from hatsuden_rules.core.errors import InvalidInputError
from hatsuden_rules.core.printable import is_printable
from hatsuden_rules.core.state import GameState
from hatsuden_rules.observation import Observation
from hatsuden_rules.svg._board import draw
from hatsuden_rules.svg._html import record_to_html, touched_cells
from hatsuden_rules.svg._paint import DEFAULT_COLORS
from hatsuden_rules.svg._view import View, view_of

__all__ = ["DEFAULT_COLORS", "SvgWrapper", "board_svg", "record_to_html", "touched_cells"]

publish(__name__, __all__, globals())  # public names, not the private modules defining them


class SvgWrapper(str):
    """An SVG document: a `str` that Jupyter and IPython display as a picture."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return self


def board_svg(
    state_or_observation: GameState | Observation,
    *,
    perspective: int | None = None,
    size: int | None = None,
    highlight: Iterable[tuple[int, Cell]] | None = None,
    names: tuple[str, str] | None = None,
    colors: Mapping[str, str] | None = None,
) -> SvgWrapper:
    """A picture of a position, as everyone or as one player sees it.

    A `GameState` is drawn with every card; an `Observation` as its player sees it, never
    showing a card that player has not seen (R30, R37).

    Args:
        state_or_observation: What to draw. A `GameState` is the god view: both hands, every
            secret value and the card of every pylon. An `Observation` shows its player's own
            cards, the opponent's hand and tech cards as backs (known cards face up, R36), an
            opponent's secret plant as ``?`` and points that depend on it as ``?``.
        perspective: The seat drawn at the bottom; default the observer of an `Observation`,
            player 0 for a `GameState`. It only turns the table around: what is shown is
            decided by the subject.
        size: The width in pixels (the height follows); default None, which sets no size, so
            the picture fills its container (its ``viewBox`` keeps the proportions).
        highlight: ``(player, cell)`` pairs to mark, e.g. the cells the last move touched
            (`touched_cells`).
        names: The players' names, for the labels (default "Player 0", "Player 1").
        colors: Colours to override, by the names in `DEFAULT_COLORS`, as ``"#rrggbb"``.

    Returns:
        The SVG document, a `str` with ``_repr_svg_`` (Jupyter shows it as a picture). Each
        top-level element is on its own line; the output is the same for equal arguments.

    Raises:
        InvalidInputError: A subject that is neither a `GameState` nor an `Observation`, or a
            malformed option (the message names it).

    Examples:
        >>> from hatsuden_rules import Cell, Energy, new_game, observe
        >>> state = new_game(seed=3)
        >>> god = board_svg(state, highlight=[(0, Cell(0, Energy.SOLAR))])
        >>> 'class="cell player-0 c0S solar empty highlighted"' in god
        True
        >>> seen = board_svg(observe(state, 1), names=("Ann", "Bo"))
        >>> "Bo's view" in seen, seen.count('class="card hidden')  # Ann's five cards
        (True, 5)
    """
    view = view_of(state_or_observation)
    if perspective is None:
        bottom = 0 if view.observer is None else view.observer
    elif type(perspective) is int and perspective in (0, 1):
        bottom = perspective
    else:
        raise InvalidInputError("perspective", f"must be None, 0 or 1, got {perspective!r}")
    if size is not None and (type(size) is not int or size < 1):
        raise InvalidInputError("size", f"must be None or a positive int, got {size!r}")
    return SvgWrapper(
        draw(
            view,
            bottom=bottom,
            size=size,
            marked=_check_highlight(highlight, view),
            names=_check_names(names),
            colors=colors,
            standalone=True,
        )
    )


def _check_highlight(highlight: object, view: View) -> frozenset[tuple[int, Cell]]:
    if highlight is None:
        return frozenset()
    if isinstance(highlight, str | bytes) or not isinstance(highlight, Iterable):
        raise InvalidInputError(
            "highlight", f"expected (player, cell) pairs, got {type(highlight).__name__}"
        )
    cells = view.rules.cells
    out: set[tuple[int, Cell]] = set()
    item: object
    for item in highlight:
        if (
            type(item) is not tuple
            or len(item) != 2
            or type(item[0]) is not int
            or item[0] not in (0, 1)
            or type(item[1]) is not Cell
        ):
            raise InvalidInputError(
                "highlight", f"expected (player, Cell) pairs with player 0 or 1, got {item!r}"
            )
        if item[1] not in cells:
            raise InvalidInputError("highlight", f"{item[1]!r} is not in play under these rules")
        out.add((item[0], item[1]))
    return frozenset(out)


def _check_names(names: object) -> tuple[str, str]:
    if names is None:
        return ("Player 0", "Player 1")
    if (
        type(names) is not tuple
        or len(names) != 2
        or not all(type(n) is str and n.strip() and is_printable(n) for n in names)
    ):
        raise InvalidInputError("names", f"expected two printable, non-blank names, got {names!r}")
    return (names[0], names[1])
