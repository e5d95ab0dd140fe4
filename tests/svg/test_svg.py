"""SVG pictures of positions (issue 14 §1, §3): golden files, well-formed XML, options, and the
hidden-information guarantee: a player's picture is the same for every state they cannot tell
apart (R30, R37), `<desc>` included.

Positions come from svg_positions.py (played through `apply`); the golden files are rewritten by
``make svg-golden``. The HTML page is tested in test_svg_html.py.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator

import pytest

from hatsuden_rules import (
    STANDARD,
    BuildPylon,
    Card,
    Cell,
    Concealed,
    Construct,
    Deal,
    Discard,
    Downsize,
    DrawFromDeck,
    DrawFromDiscard,
    Energy,
    Flip,
    GameState,
    Improve,
    InvalidInputError,
    Phase,
    PlaceAccumulator,
    PlaceSmart,
    apply,
    legal_moves,
    new_game,
    observe,
    render,
    render_observation,
    score,
)
from hatsuden_rules.modelcheck.information import perturbations
from hatsuden_rules.svg import DEFAULT_COLORS, SvgWrapper, board_svg, touched_cells
from hatsuden_rules.svg._view import sheet_of, view_of
from tests.observation.test_hidden_information import RULES as SECRET_RULES
from tests.observation.test_hidden_information import _after_hidden_pylon, _after_secret
from tests.observation.test_observation import (
    SHORT,
    _taker,
    game_over,
    secret_downsized,
    secret_flipped,
    secret_improved,
    secret_on_top,
)
from tests.support.scripting import card, cards, deal, random_explicit_states
from tests.support.svg_positions import GOLDEN, SMALL, pictures, rich, rich_over

SVG = "{http://www.w3.org/2000/svg}"


def parse(picture: str) -> ET.Element:
    """The picture as XML (raises on anything malformed), with the checks every picture passes:
    an SVG root with a viewBox, a <title> then a <desc> first, text only as <text>, no image,
    link or external resource."""
    root = ET.fromstring(picture)
    assert root.tag == f"{SVG}svg"
    assert re.fullmatch(r"0 0 \d+ \d+", root.get("viewBox", ""))
    assert [child.tag for child in root[:2]] == [f"{SVG}title", f"{SVG}desc"]
    assert root[0].text
    for node in root.iter():
        assert node.tag.removeprefix(SVG) in _ALLOWED, node.tag
        assert not any("href" in key for key in node.attrib), node.attrib
        assert not any("url(" in value for value in node.attrib.values()), node.attrib
    assert "@import" not in picture
    assert "http" not in picture.replace('xmlns="http://www.w3.org/2000/svg"', "", 1)
    return root


_ALLOWED = {"svg", "title", "desc", "g", "rect", "path", "text"}


def texts(picture: str) -> list[str]:
    return [node.text or "" for node in ET.fromstring(picture).iter(f"{SVG}text")]


def groups(picture: str, word: str) -> list[ET.Element]:
    """The top-level groups whose class list holds `word`."""
    return [g for g in ET.fromstring(picture) if word in g.get("class", "").split()]


# -- golden pictures --------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(pictures()))
def test_the_golden_pictures_are_unchanged(name: str) -> None:
    expected = (GOLDEN / name).read_text(encoding="utf-8")
    assert pictures()[name]() == expected, f"{name} changed: review it, then `make svg-golden`"


def test_every_golden_file_is_made_by_the_generator() -> None:
    assert {path.name for path in GOLDEN.glob("*.svg")} == set(pictures())


@pytest.mark.parametrize("name", sorted(pictures()))
def test_the_golden_pictures_are_well_formed(name: str) -> None:
    parse((GOLDEN / name).read_text(encoding="utf-8"))


# -- what a picture shows -------------------------------------------------------------------------


def test_r19_r20_r13_r21_the_rich_position_shows_every_tech_card_stack_and_pylon() -> None:
    picture = board_svg(rich())
    shown = texts(picture)
    # R19: the Accumulator on player 0's city 0 raises its tolerance to 12 (4 + 1 + 3 + 4 = 12).
    assert "12/12" in shown
    assert "Accumulator +1" in shown
    # R20: Smart on Geothermal; player 1 leads it 4 to 1 and scores 2.
    assert "Smart \N{MULTIPLICATION SIGN}2" in shown
    assert "4 +2" in shown
    # R12, R13: the improved H stack and the flipped, downsized B stack have one card under.
    assert shown.count("+1") >= 2
    assert "flipped" in shown
    assert "B2" in shown  # the top card of the flipped stack, seen by everyone (R30)
    # R11, R14: in the god view the secret G2 and the pylon's B1 are shown.
    (secret,) = groups(picture, "secret")
    assert "c1G" in secret.get("class", "")
    assert [t.text for t in secret.iter(f"{SVG}text")][:2] == ["G", "2"]
    (pylon,) = [g for g in groups(picture, "pylon") if "player-0" in g.get("class", "")]
    assert "B1" in [t.text for t in pylon.iter(f"{SVG}text")]


def test_r30_an_opponents_secret_plant_and_pylon_show_no_card() -> None:
    picture = board_svg(observe(rich(), 1))
    (secret,) = groups(picture, "secret")
    assert [t.text for t in secret.iter(f"{SVG}text")][:2] == ["G", "?"]  # its energy is public
    (pylon,) = [g for g in groups(picture, "pylon") if "player-0" in g.get("class", "")]
    assert [t.text for t in pylon.iter(f"{SVG}text")] == ["pylon"]
    assert len(groups(picture, "hidden")) == 5  # player 0's hand: five backs
    # The player's own side is fully shown.
    own = board_svg(observe(rich(), 0))
    assert [t.text for t in groups(own, "secret")[0].iter(f"{SVG}text")][:2] == ["G", "2"]


def test_r28_what_a_hidden_value_cannot_change_is_still_shown() -> None:
    """Player 0's city 1 holds S1, the secret G2 and a pylon: 1 + v with 1 <= v <= 4 (R2), at
    most 5, which is 8 or less: -1 whatever v is (R28). The Geothermal column (1 + v against
    4) and so the energy points and totals stay open."""
    picture = board_svg(observe(rich(), 1))
    (row,) = [g for g in groups(picture, "supply") if "player-0 row-1" in g.get("class", "")]
    assert row.get("class") == "supply player-0 row-1 under"
    assert "1+?/11" in [t.text for t in row.iter(f"{SVG}text")]
    sheet = sheet_of(view_of(observe(rich(), 1)))
    assert sheet.row_points[0] == (0, -1)  # 12 scores 0 (R28: only exactly 10 scores +1)
    assert sheet.city_points == (-1, -1)
    assert sheet.energy_winners[1] == -1
    assert sheet.energy_points == (None, None)
    assert sheet.winner is None


def test_r26_at_the_end_the_secret_card_on_top_is_revealed_to_the_opponent() -> None:
    over = rich_over()
    picture = board_svg(observe(over, 1))
    (secret,) = groups(picture, "secret")
    assert [t.text for t in secret.iter(f"{SVG}text")][:2] == ["G", "2"]
    assert "Game over (stall)" in (ET.fromstring(picture)[0].text or "")
    sheet = score(over)
    assert sheet_of(view_of(observe(over, 1))) == sheet_of(view_of(over))
    assert sheet_of(view_of(over)).total == (sheet.players[0].total, sheet.players[1].total)


def test_r36_a_card_the_opponent_knows_is_marked_and_shown_to_them() -> None:
    state = _taker()  # player 1 took both G1 from the discards
    own = board_svg(observe(state, 1))
    assert len(groups(own, "known")) == 2
    theirs = board_svg(observe(state, 0))
    known = groups(theirs, "known")
    assert [[t.text for t in g.iter(f"{SVG}text")][:2] for g in known] == [["G", "1"]] * 2


def test_the_desc_is_the_text_rendering() -> None:
    state = rich()
    assert ET.fromstring(board_svg(state))[1].text == "\n" + render(state) + "\n"
    seen = observe(state, 1)
    assert ET.fromstring(board_svg(seen))[1].text == "\n" + render_observation(seen) + "\n"


def test_every_card_carries_its_energy_letter() -> None:
    """Colour is never the only cue (issue 14): each face-up card has its letter as text."""
    picture = board_svg(rich())
    faces = [
        g for g in ET.fromstring(picture) if re.search(r"\b(card|plant)\b", g.get("class", ""))
    ]
    # 5 + 4 cards in hand; plants S4 G1 W3 H4 S1 G2 (player 0) and S3 G4 W4 H3 (player 1).
    assert len(faces) == 19
    for g in faces:
        if "hidden" in g.get("class", ""):
            continue
        first = next(g.iter(f"{SVG}text")).text
        assert first in {e.letter for e in Energy}, g.get("class")


def test_the_colours_are_distinct_and_overridable() -> None:
    energies = [DEFAULT_COLORS[e.value] for e in Energy]
    assert len(set(energies)) == 5
    picture = board_svg(rich(), colors={"wind": "#123456"})
    assert 'fill="#123456"' in picture
    assert 'fill="#123456"' not in board_svg(rich())


# -- options --------------------------------------------------------------------------------------


def test_size_sets_width_and_height_and_none_sets_neither() -> None:
    root = ET.fromstring(board_svg(new_game(seed=1), size=600))
    width, height = (int(v) for v in root.get("viewBox", "").split()[2:])
    assert root.get("width") == "600"
    assert root.get("height") == str(round(600 * height / width))
    bare = ET.fromstring(board_svg(new_game(seed=1)))
    assert bare.get("width") is None
    assert bare.get("height") is None


def _seat_y(picture: str, seat: int) -> int:
    (panel,) = [g for g in groups(picture, "seat") if f"player-{seat}" in g.get("class", "")]
    return int(panel[0].get("y", ""))


def test_perspective_puts_a_seat_at_the_bottom() -> None:
    state = rich()
    assert _seat_y(board_svg(state), 0) > _seat_y(board_svg(state), 1)  # player 0 below
    assert _seat_y(board_svg(state, perspective=1), 1) > _seat_y(board_svg(state), 1)
    assert _seat_y(board_svg(observe(state, 1)), 1) > _seat_y(board_svg(observe(state, 1)), 0)
    turned = board_svg(observe(state, 1), perspective=0)
    assert _seat_y(turned, 0) > _seat_y(turned, 1)
    assert texts(turned).count("?") == texts(board_svg(observe(state, 1))).count("?")


def test_highlight_marks_the_cells_given() -> None:
    state = rich()
    marked = [(1, Cell(0, Energy.BIOMASS)), (0, Cell(1, Energy.WIND))]
    picture = board_svg(state, highlight=marked)
    assert sorted(g.get("class", "").split()[2] for g in groups(picture, "highlighted")) == [
        "c0B",
        "c1W",
    ]
    assert groups(board_svg(state), "highlighted") == []


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"perspective": 2}, "perspective"),
        ({"perspective": True}, "perspective"),
        ({"size": 0}, "size"),
        ({"size": 1.5}, "size"),
        ({"highlight": "0S"}, "highlight"),
        ({"highlight": [(2, Cell(0, Energy.SOLAR))]}, "highlight"),
        ({"highlight": [(0, "0S")]}, "highlight"),
        ({"highlight": [Cell(0, Energy.SOLAR)]}, "highlight"),
        ({"names": ("Ann",)}, "names"),
        ({"names": ("Ann", " ")}, "names"),
        ({"names": ["Ann", "Bo"]}, "names"),
        ({"colors": {"purple": "#000000"}}, "colors"),
        ({"colors": {"solar": "yellow"}}, "colors"),
        ({"colors": {"solar": "#fff"}}, "colors"),
    ],
)
def test_malformed_options_name_the_option(options: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidInputError, match=rf"^{field}: "):
        board_svg(new_game(seed=1), **options)  # type: ignore[arg-type]


def test_a_cell_not_in_play_cannot_be_highlighted() -> None:
    state = new_game(seed=1, rules=SMALL)
    with pytest.raises(InvalidInputError, match=r"^highlight: .* not in play"):
        board_svg(state, highlight=[(0, Cell(0, Energy.HYDRO))])


def test_the_subject_must_be_a_state_or_an_observation() -> None:
    with pytest.raises(InvalidInputError, match=r"^state_or_observation: expected"):
        board_svg("a state")  # type: ignore[arg-type]


def test_notebooks_display_states_and_observations() -> None:
    state = rich()
    assert state._repr_svg_() == board_svg(state, size=760)
    assert observe(state, 1)._repr_svg_() == board_svg(observe(state, 1), size=760)
    picture = board_svg(state)
    assert isinstance(picture, SvgWrapper)
    assert isinstance(picture, str)
    assert picture._repr_svg_() is picture


def test_touched_cells_of_every_kind_of_move() -> None:
    where = Cell(1, Energy.WIND)
    w3 = Card(Energy.WIND, 3)
    for move in (
        Construct(w3, where),
        Improve(w3, where),
        Downsize(w3, where),
        BuildPylon(w3, where),
        Flip(where),
        Concealed("BuildPylon", where),
        Concealed("Construct", where),
    ):
        assert touched_cells(move, 1) == ((1, where),)
    for other in (
        Discard(w3),
        DrawFromDeck(),
        DrawFromDiscard(w3),
        Deal(w3),
        PlaceAccumulator(0),
        PlaceSmart(Energy.WIND),
        Concealed("Deal"),
    ):
        assert touched_cells(other, 0) == ()
    with pytest.raises(InvalidInputError, match=r"^player: "):
        touched_cells(Flip(where), 2)


# -- every picture of random games ---------------------------------------------------------------


def _random_states() -> Iterator[GameState]:
    """Every fourth state and the last of three random explicit-mode games."""
    for seed, rules in ((1, STANDARD), (2, STANDARD), (3, SMALL)):
        states = random_explicit_states(rules, seed, limit=250)
        yield from states[:-1:4]
        yield states[-1]


def test_every_picture_of_random_games_is_well_formed_and_scores_like_score() -> None:
    """R27-R29: the sheet a picture shows is `score` when nothing is hidden, and what a player
    is shown never contradicts it."""
    count = hidden = over = 0
    for state in _random_states():
        over += state.is_over
        sheet = score(state)
        god = sheet_of(view_of(state))
        assert god.row_supply == tuple(p.row_supply for p in sheet.players)
        assert god.generation == tuple(p.generation for p in sheet.players)
        assert god.energy_winners == sheet.energy_winners
        assert god.energy_points == tuple(p.energy_points for p in sheet.players)
        assert god.city_points == tuple(p.city_points for p in sheet.players)
        assert god.total == tuple(p.total for p in sheet.players)
        assert (god.winner, god.decided_by) == (sheet.winner, sheet.decided_by)
        parse(board_svg(state))
        for player in (0, 1):
            seen = sheet_of(view_of(observe(state, player)))
            for shown, true in ((seen.total, god.total), (seen.city_points, god.city_points)):
                assert all(s is None or s == t for s, t in zip(shown, true, strict=True))
            assert seen.winner in (None, god.winner)
            hidden += seen.winner is None
            parse(board_svg(observe(state, player)))
            count += 1
    assert count > 100
    assert hidden > 0  # some positions hide a secret value that decides the score
    assert over > 0


# -- hidden information: twin states give byte-identical pictures (R30, R37) ----------------------


def _twins() -> Iterator[tuple[str, int, GameState, GameState]]:
    """Pairs of states that differ only in what `player` cannot know (tests of R30)."""
    hand0 = [card("S4"), card("G2")]
    for a, b in ((("G1", "G2"), ("S3", "G4")), (("S1", "S1"), ("G3", "S2"))):
        yield (
            "opponent's hand",
            0,
            deal(hand0, cards(*a), SECRET_RULES),
            deal(hand0, cards(*b), SECRET_RULES),
        )
    for other in ("S3", "G4", "S1"):
        yield "pylon card", 1, _after_hidden_pylon(card("S2")), _after_hidden_pylon(card(other))
    for other in ("S2", "S3", "S4"):
        yield "secret value", 1, _after_secret(card("S1")), _after_secret(card(other))


def test_r30_r37_twin_states_give_byte_identical_pictures_to_the_player_who_cannot_tell() -> None:
    for what, player, a, b in _twins():
        assert a != b, what
        assert board_svg(a) != board_svg(b), what  # the god view shows the difference
        assert board_svg(observe(a, player)) == board_svg(observe(b, player)), what


@pytest.mark.parametrize(
    "position",
    [secret_on_top, secret_improved, secret_downsized, secret_flipped, rich],
)
def test_r30_r37_no_change_of_hidden_information_changes_a_picture(position: object) -> None:
    """Changes of what the observer cannot know (the hidden-information checker's perturbations:
    the opponent's hand against the deck, the card under a pylon, a secret card, a logged deal,
    the generator) leave their picture byte for byte the same. Up to 8 changes of each kind
    per player (every one of the rarer kinds)."""
    assert callable(position)
    state = position()
    checked: Counter[str] = Counter()
    changed = 0
    for player in (0, 1):
        picture = board_svg(observe(state, player))
        for kind, twin in perturbations(state, player):
            if checked[f"{player}{kind}"] == 8:
                continue
            checked[f"{player}{kind}"] += 1
            assert board_svg(observe(twin, player)) == picture, kind
            changed += board_svg(twin) != board_svg(state)
    assert checked["1hand-deck"] > 0
    assert changed > 0  # the god views do change


def test_r26_r30_twins_at_the_end_of_the_game() -> None:
    """At GAME_OVER a covered or flipped secret card stays hidden (R26): the opponent's picture
    does not depend on it; a secret card on top is revealed, so it does."""
    for position in (secret_improved, secret_flipped, secret_downsized):
        state = game_over(position(SHORT))
        picture = board_svg(observe(state, 1))
        for kind, twin in perturbations(state, 1):
            assert board_svg(observe(twin, 1)) == picture, kind
    on_top = game_over(secret_on_top(SHORT))
    assert "?" not in [t.text for t in groups(board_svg(observe(on_top, 1)), "secret")[0]]


def test_r8_r37_a_seeded_game_and_its_explicit_twin_give_the_same_player_pictures() -> None:
    """The generator state is hidden from both players (R8, R37), so it is in no picture; the
    explicit twin is built as in test_observation.py."""
    rng = random.Random(7)
    seeded = new_game(seed=7)
    explicit = new_game()
    for c in (*seeded.hand(0), *seeded.hand(1)):
        explicit = apply(explicit, Deal(c))
    for ply in range(60):
        if ply % 6 == 0:
            for player in (0, 1):
                assert board_svg(observe(seeded, player)) == board_svg(observe(explicit, player))
        move = rng.choice(legal_moves(seeded))
        seeded = apply(seeded, move)
        explicit = apply(explicit, move)
        if explicit.phase is Phase.CHANCE:
            same_turn = seeded.current_player == explicit.current_player
            log = seeded.this_turn if same_turn else seeded.last_turn
            explicit = apply(explicit, log[len(explicit.this_turn)])
    assert board_svg(seeded) != board_svg(new_game(seed=7))
