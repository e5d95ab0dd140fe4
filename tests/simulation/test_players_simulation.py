"""Bot games and matches (issue 6): reproducible, seats alternated, the same for any --jobs."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from hatsuden_rules import (
    STANDARD,
    EndReason,
    InvalidInputError,
    Move,
    Rules,
    SplitMix64,
    apply,
    new_game,
    score,
)
from hatsuden_rules.observation import Observation
from hatsuden_rules.players import GreedyPlayer, RandomPlayer
from hatsuden_rules.simulation import (
    GameSummary,
    deal_seed,
    play_game,
    run_match,
    summarize,
    wilson_interval,
)


def test_play_game_is_reproducible_and_replays_with_apply() -> None:
    players = (GreedyPlayer(), RandomPlayer())
    game = play_game(players, seed=11)
    assert game == play_game(players, seed=11)
    assert game != play_game(players, seed=11, decision_seed=12)
    state = new_game(seed=11)
    for move in game.moves:
        state = apply(state, move)
    assert state == game.final
    assert state.is_over
    assert game.result == score(state)
    assert game.turns >= 10
    assert sum(game.decisions) <= len(game.moves)


def test_play_game_reports_every_move_and_the_tech_cards_drawn() -> None:
    seen: list[Move] = []
    game = play_game(
        (GreedyPlayer(), GreedyPlayer()), seed=3, on_move=lambda a, m, b: seen.append(m)
    )
    assert tuple(seen) == game.moves
    drawn = [t for seat in (0, 1) for t in game.techs_drawn[seat]]
    assert len(drawn) == len(set(drawn))
    assert len(drawn) == len(STANDARD.techs) - len(game.final.tech_deck)


def test_play_game_refuses_an_illegal_choice() -> None:
    @attrs.frozen
    class Cheater:
        def choose(self, observation: Observation, legal_moves: object, rng: SplitMix64) -> Move:
            from hatsuden_rules import Pass

            return Pass()

    with pytest.raises(InvalidInputError, match="illegal move"):
        play_game((Cheater(), RandomPlayer()), seed=1)


def test_play_game_validates_its_arguments() -> None:
    with pytest.raises(InvalidInputError):
        play_game((RandomPlayer(),), seed=1)
    with pytest.raises(InvalidInputError):
        play_game((RandomPlayer(), RandomPlayer()), seed="1")  # type: ignore[arg-type]


def test_matches_alternate_seats_on_shared_deals() -> None:
    games = run_match(("greedy", "random"), games=6, seed=5, jobs=1)
    assert [g.index for g in games] == list(range(6))
    for g in games:
        expected = ("greedy", "random") if g.index % 2 == 0 else ("random", "greedy")
        assert g.names == expected
        assert g.swapped == (g.index % 2 == 1)
        assert g.deal_seed == deal_seed(5, g.index)
    assert games[0].deal_seed == games[1].deal_seed != games[2].deal_seed


def test_matches_do_not_depend_on_the_number_of_processes() -> None:
    one = run_match(("greedy", "random"), games=6, seed=8, jobs=1)
    two = run_match(("greedy", "random"), games=6, seed=8, jobs=2)
    assert one == two
    assert run_match(("greedy", "random"), games=6, seed=9, jobs=1) != one


def test_match_progress_is_reported() -> None:
    calls: list[tuple[int, int]] = []
    run_match(("random", "random"), games=3, jobs=1, progress=lambda d, n: calls.append((d, n)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"players": ("greedy",)}, "players"),
        ({"players": ("greedy", "nobody")}, "player"),
        ({"games": 0}, "games"),
        ({"seed": 1.5}, "seed"),
        ({"jobs": 0}, "jobs"),
        ({"rules": "standard"}, "rules"),
    ],
)
def test_run_match_validates_eagerly(kwargs: dict[str, object], field: str) -> None:
    arguments: dict[str, object] = {"players": ("greedy", "random"), "games": 2, "jobs": 1}
    arguments.update(kwargs)
    with pytest.raises(InvalidInputError) as error:
        run_match(**arguments)  # type: ignore[arg-type]
    assert error.value.field == field


def test_summary_counts_per_player_whatever_the_seat() -> None:
    games = run_match(("greedy", "random"), games=8, seed=2, jobs=1)
    s = summarize(games)
    assert s.names == ("greedy", "random")
    assert s.games == 8
    assert sum(s.wins) == 8
    assert s.wins == (
        sum(1 for g in games if g.names[g.winner] == "greedy"),
        sum(1 for g in games if g.names[g.winner] == "random"),
    )
    assert s.first_player_wins == sum(1 for g in games if g.winner == 0)
    assert sum(s.first_seat_wins) == s.first_player_wins
    assert s.mean_total[0] == sum(g.totals[1 if g.swapped else 0] for g in games) / 8
    assert sum(n for _, n in s.end_reasons) == 8
    document = s.to_dict()
    assert document["games"] == 8
    assert document["wins"] == {"greedy": s.wins[0], "random": s.wins[1]}
    lo, hi = s.win_interval(0)
    assert lo <= s.wins[0] / 8 <= hi


def test_summary_of_a_player_against_itself_labels_the_two_specs() -> None:
    games = run_match(("random", "random"), games=4, seed=1, jobs=1)
    s = summarize(games)
    assert s.names == ("random#1", "random#2")
    assert s.first_seat_wins[0] == sum(1 for g in games if not g.swapped and g.winner == 0)


def test_summary_refuses_mixed_matches_and_nothing() -> None:
    a = run_match(("greedy", "random"), games=2, jobs=1)
    b = run_match(("random", "random"), games=2, jobs=1)
    with pytest.raises(InvalidInputError):
        summarize((*a, *b))
    with pytest.raises(InvalidInputError):
        summarize(())


def test_game_summary_counts_cities_and_energies() -> None:
    rules = Rules(energies=3, max_value=3, copies=2, hand_size=3, city_demand=5)
    game = play_game((GreedyPlayer(), RandomPlayer()), seed=2, rules=rules)
    summary = GameSummary.of(game, 0, ("greedy", "random"))
    sheet = game.result
    for seat in (0, 1):
        supplies = sheet.players[seat].row_supply
        assert summary.cities_on_demand[seat] == sum(1 for x in supplies if x == 5)
        assert summary.cities_short[seat] == sum(1 for x in supplies if x <= 3)
    assert sum(summary.energies_won) + summary.energies_tied == 3
    assert summary.end_reason in tuple(EndReason)


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(65, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.5525, 0.7364)  # p = 0.65, z = 1.96
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_greedy_beats_random_clearly() -> None:
    s = summarize(run_match(("greedy", "random"), games=10, seed=3, jobs=1))
    assert s.wins[0] >= 9


def test_run_match_checks_the_backend_arguments() -> None:
    match = ("greedy", "random")
    with pytest.raises(InvalidInputError) as error:
        run_match(match, games=2, backend="spark")
    assert error.value.field == "backend"
    with pytest.raises(InvalidInputError) as error:
        run_match(match, games=2, address="auto")  # the local backend has no address
    assert error.value.field == "address"
    with pytest.raises(InvalidInputError) as error:
        run_match(match, games=2, backend="ray", address="auto", jobs=2)
    assert error.value.field == "jobs"


def test_run_match_saves_records_and_never_overwrites_them(tmp_path: Path) -> None:
    from hatsuden_rules.records import parse_record, replay
    from hatsuden_rules.simulation import game_file_name

    folder = tmp_path / "a" / "b"  # created as needed
    games = run_match(("greedy", "random"), games=3, seed=6, jobs=1, save_games=folder, first=4)
    assert sorted(p.name for p in folder.iterdir()) == [game_file_name(6, i) for i in (4, 5, 6)]
    for game in games:
        record = parse_record((folder / game_file_name(6, game.index)).read_text())
        final = replay(record)
        assert final.is_over
        assert score(final).winner == game.winner
        assert record.players == game.names
    with pytest.raises(InvalidInputError, match=r"3 game record\(s\) of this match already exist"):
        run_match(("greedy", "random"), games=3, seed=6, jobs=1, save_games=folder, first=4)
    # Another slice of the same match, or another seed, does not collide.
    run_match(("greedy", "random"), games=2, seed=6, jobs=1, save_games=folder, first=7)
    run_match(("greedy", "random"), games=1, seed=7, jobs=1, save_games=folder)
    assert len(list(folder.iterdir())) == 6
    (folder / game_file_name(6, 4)).write_text("stale")
    run_match(
        ("greedy", "random"), games=1, seed=6, jobs=1, save_games=folder, first=4, overwrite=True
    )
    assert (folder / game_file_name(6, 4)).read_text().startswith('[Hatsuden "1"]')
    with pytest.raises(InvalidInputError) as error:
        run_match(("greedy", "random"), games=1, save_games=folder / game_file_name(6, 5))
    assert error.value.field == "save_games"
