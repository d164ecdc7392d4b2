"""The whole game of Lumicora: one test per rule of the rulebook (setup, turn steps, jellyfish,
scoring phase, rounds, final scoring, variants, empty bag), records and replay."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from lumicore.errors import DataError, IllegalMoveError, LumicoreError
from lumicore.game import CHANCE, new_game
from lumicore.reef import Lumino, Reef, kernel, load_board
from lumicore.reef.decisions import Orient, Pick, Place, Return, Score, Skip, Spend, SwapDone, Turn
from lumicore.reef.game import (
    CORAL_GROWTH,
    CORAL_WEIGHT,
    Game,
    SplitMix64,
    least_tiles,
    read_records,
)
from lumicore.reef.scoring import VISIBLE_WEIGHT, final_scores


def draw(game: Game, *tiles: str) -> None:
    """Apply the chance outcomes that draw these tiles, in order."""
    for text in tiles:
        assert game.is_chance_node() and game.current_player() == CHANCE
        game.apply_action(game.kinds.index(Lumino.parse(text)))


DISPLAYS = [["pink 3", "pink 2", "pink 4", "pink 6"], ["green 3", "green 2", "green 4 crab",
                                                     "green 6"],
            ["yellow 3", "yellow 2", "yellow 4", "yellow 6"], ["blue 3", "blue 4", "blue 6",
                                                               "blue 3 crab"]]


def dealt(players: int = 2, display=None, atoll=None, **options) -> Game:
    """A game with chance nodes, starts dealt in box order and oriented as dealt, then known
    displays (player 1's ``display`` if given) and Atoll drawn."""
    game = Game.new(players=players, seed=5, auto_chance=False, **options)
    for _ in range(players):
        game.apply_action(game.legal_actions()[0])
    for _ in range(players):
        game.apply_action(0)
    for p in range(players):
        draw(game, *(display if display and p == 0 else DISPLAYS[p]))
    draw(game, *(atoll or ["blue 2", "blue 5 crab", "yellow 1 crab", "green 4"]))
    return game


FRESH = ["pink 1 crab", "pink 1 shellfish", "blue 1 shellfish", "yellow 1 shellfish",
         "blue 1 crab", "green 1 shellfish"]
"""Tiles in no display or Atoll of :func:`dealt`."""


def find(game: Game, kind, **fields):
    """The action id of the legal decision of type ``kind`` with these fields."""
    for a, d in enumerate(game.decisions()):
        if isinstance(d, kind) and all(getattr(d, k) == v for k, v in fields.items()):
            return a
    raise AssertionError(f"no legal {kind.__name__} with {fields}")


# ---- setup ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players, in_bag, emergency", [(2, 72, 0), (3, 82, 6), (4, 98, 6)])
def test_bag_sorted_by_fish_with_an_emergency_stack(players, in_bag, emergency):
    game = Game.new(players=players, seed=1, auto_chance=False)
    assert game.bag_left == in_bag and game.emergency == emergency
    assert sum(game.unseen) == in_bag + emergency
    assert sum(game.unseen) == {2: 72, 3: 88, 4: 104}[players]


def test_setup_deals_starts_displays_and_atoll():
    game = Game.new(players=3, seed=2)
    assert game.phase == "orient" and game.current_player() == 0
    assert len({game.dealt[p] for p in range(3)}) == 3      # three different starting Luminos
    start = game.dealt[0]
    assert [d.start for d in game.decisions()] == [start, type(start)(start.color_b,
                                                                      start.color_a)]
    for p in range(3):
        game.play(game.decisions()[p % 2])
    assert game.reefs[1].start == (start_b := game.dealt[1]).colors[::-1]
    assert start_b is not None
    assert [len(d) for d in game.displays] == [4, 4, 4] and len(game.atoll) == 4
    assert game.bag_left == 82 - 16
    assert game.octopus == 0 and game.round == 1 and game.phase == "turn"


def test_bad_setups_are_one_line_errors():
    for bad in ({"players": 5}, {"players": 1}, {"players": "2"}, {"seed": -1},
                {"seed": 2**63}, {"side": "C"}, {"scoreboard": "grey"}):
        with pytest.raises(LumicoreError):
            Game.new(**bad)
    with pytest.raises(LumicoreError):
        new_game("reef", players=5)


def small_tile_set(path, tiles: int, starts: int = 6) -> str:
    """A tile file of ``tiles`` pink tiles without fish and the first ``starts`` of the 6
    starting Luminos."""
    pairs = [["pink", "green"], ["pink", "blue"], ["pink", "yellow"], ["green", "blue"],
             ["green", "yellow"], ["blue", "yellow"]][:starts]
    specs = ",\n".join(f'{{ number = {1 + k % 6}, animal = "crab" }}' for k in range(tiles))
    path.write_text(f'colors = ["pink"]\nstarts = {json.dumps(pairs)}\ntiles = [\n{specs}\n]\n',
                    encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("players, least", [(2, 12), (3, 22), (4, 26)])
def test_a_tile_set_too_small_for_the_setup_is_refused(tmp_path, players, least):
    """The setup fills every display and the Atoll from the bag, the emergency stack set aside
    (3 and 4 players). Before: Game.new took any tile set, and one smaller than the emergency
    stack failed at a draw (AssertionError, ZeroDivisionError; IndexError in the arena)."""
    assert least_tiles(players) == least
    path = small_tile_set(tmp_path / "tiles.toml", least - 1)
    stack = "the emergency stack of 6, " if players > 2 else ""
    with pytest.raises(DataError, match=(
            f"^'{re.escape(path)}': the tile set puts {least - 1} tiles .* in the bag for "
            f"{players} players, a game needs at least {least}: {stack}4 in each of the "
            f"{players} displays and 4 in the Atoll$")):
        Game.new(players=players, seed=0, tiles=path)
    for tiles in (1, 5):        # fewer than the emergency stack
        with pytest.raises(DataError, match="a game needs at least"):
            Game.new(players=players, tiles=small_tile_set(tmp_path / "tiles.toml", tiles))
    path = small_tile_set(tmp_path / "tiles.toml", least, starts=players - 1)
    with pytest.raises(DataError, match=f"^'{re.escape(path)}': the tile set has "
                                        f"{players - 1} starting Luminos? \\(starts\\)"):
        Game.new(players=players, tiles=path)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_smallest_tile_set_plays_to_a_premature_end(tmp_path, players):
    path = small_tile_set(tmp_path / "tiles.toml", least_tiles(players))
    for seed in range(3):
        game = Game.new(players=players, seed=seed, tiles=path)
        while game.phase == "orient":
            game.play(game.decisions()[0])
        assert [len(d) for d in game.displays] == [4] * players and len(game.atoll) == 4
        k = 0
        while not game.is_terminal():
            moves = game.decisions()
            game.play(moves[(k * 7 + seed) % len(moves)])
            k += 1
        assert game.round < 10 and len(game.final_scores()) == players
        assert Game.deserialize(game.serialize()).is_terminal()


def test_seeded_generator_is_splitmix64():
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(2)] == [6457827717110365317, 3203168211198807973]


# ---- a turn --------------------------------------------------------------------------------


def test_turn_order_starts_with_the_octopus():
    game = dealt(3)
    assert game.current_player() == 0
    game.octopus = 1
    game._start_round()
    assert game.current_player() == 1


def test_action_a_takes_the_number_in_limestone_capped_at_10():
    game = dealt(display=["pink 6", "green 1 crab", "blue 4", "yellow 3"])
    game.limestone[0] = 7
    game.apply_action(find(game, Turn, put=Lumino("pink", 6), action="A"))
    assert game.limestone[0] == 10                   # 7 + 6, storage holds 10
    assert Lumino("pink", 6) in game.atoll and len(game.displays[0]) == 3
    assert game.current_player() == 1                # no hand: the turn is over


def test_action_b_takes_one_of_the_three_remaining_display_tiles():
    game = dealt(display=["pink 6", "green 1 crab", "blue 4", "yellow 3"])
    options = {d.take for d in game.decisions() if isinstance(d, Turn) and d.action == "B"
               and d.put == Lumino("pink", 6)}
    assert options == {(Lumino("green", 1, "crab"),), (Lumino("blue", 4),), (Lumino("yellow", 3),)}
    game.apply_action(find(game, Turn, put=Lumino("pink", 6), action="B",
                           take=(Lumino("green", 1, "crab"),)))
    assert game.displays[0] == [Lumino("blue", 4), Lumino("yellow", 3)]
    assert game.hand == [Lumino("green", 1, "crab")] and game.phase == "place"


def test_action_c_takes_one_to_three_of_one_other_colour():
    game = dealt(display=["pink 6", "green 1 crab", "blue 4", "yellow 3"],
                 atoll=["blue 2", "blue 5 crab", "yellow 1 crab", "pink 4"])
    takes = {d.take for d in game.decisions() if isinstance(d, Turn) and d.action == "C"
             and d.put == Lumino("pink", 6)}
    blue2, blue5 = Lumino("blue", 2), Lumino("blue", 5, "crab")
    assert takes == {(blue2,), (blue5,), (blue2, blue5), (Lumino("yellow", 1, "crab"),)}  # no pink
    takes_after_blue = {d.take for d in game.decisions() if isinstance(d, Turn)
                        and d.action == "C" and d.put == Lumino("blue", 4)}
    assert (Lumino("pink", 4),) in takes_after_blue and (blue5,) not in takes_after_blue
    game.apply_action(find(game, Turn, put=Lumino("pink", 6), action="C", take=(blue2, blue5)))
    assert game.hand == [blue2, blue5]


def test_action_c_never_takes_more_than_three():
    game = dealt(atoll=["blue 2", "blue 5 crab", "blue 1 shellfish", "blue 3"])
    assert max(len(d.take) for d in game.decisions() if isinstance(d, Turn)) == 3


def test_step_3_refills_the_atoll_to_four_only_when_fewer():
    game = dealt(display=["pink 6", "green 1 crab", "blue 4", "yellow 3"],
                 atoll=["blue 2", "blue 5 crab", "yellow 1 crab", "green 4"])
    game.apply_action(find(game, Turn, put=Lumino("pink", 6), action="A"))
    assert len(game.atoll) == 5 and not game.is_chance_node()   # 5 stay 5
    game.apply_action(find(game, Turn, put=Lumino("green", 3), action="C",
                           take=(Lumino("blue", 2), Lumino("blue", 5, "crab"))))
    assert len(game.atoll) == 4 and game.phase == "place"        # 4 left: no draw needed
    game2 = dealt()
    game2.apply_action(find(game2, Turn, put=Lumino("pink", 3), action="C",
                            take=(Lumino("blue", 2), Lumino("blue", 5, "crab"))))
    assert game2.is_chance_node() and len(game2.atoll) == 3
    draw(game2, "yellow 6")
    assert game2.atoll[-1] == Lumino("yellow", 6) and game2.phase == "place"


def test_step_4_places_each_tile_or_returns_it_for_minus_one():
    game = dealt(display=["pink 6", "green 1 crab", "blue 4", "yellow 3"])
    game.apply_action(find(game, Turn, put=Lumino("pink", 6), action="B",
                           take=(Lumino("green", 1, "crab"),)))
    places = [d for d in game.decisions() if isinstance(d, Place)]
    assert places == [Place(p) for p in game.reefs[0].placements(Lumino("green", 1, "crab"),
                                                                   game.limestone[0])]
    kind = game.kinds.index(Lumino("green", 1, "crab"))
    before = game.returned[kind], game.bag_left
    game.apply_action(find(game, Return, lumino=Lumino("green", 1, "crab")))
    assert game.vp[0] == -1 and game.returned[kind] == before[0] + 1
    assert game.bag_left == before[1] + 1 and game.current_player() == 1


def test_placing_on_water_pays_limestone():
    game = dealt(display=["pink 6", "pink 1 crab", "blue 4", "yellow 3"], side="B")
    game.limestone[0] = 2
    game.apply_action(find(game, Turn, put=Lumino("pink", 6), action="B",
                           take=(Lumino("pink", 1, "crab"),)))
    water = [d for d in game.decisions() if isinstance(d, Place) and d.placement.cost == 1]
    assert water
    game.apply_action(game.decisions().index(water[0]))
    assert game.limestone[0] == 1 and len(game.reefs[0].pieces) == 2


def test_several_tiles_are_placed_in_any_order():
    game = dealt(atoll=["blue 2", "blue 5 crab", "yellow 1 crab", "green 4"])
    game.apply_action(find(game, Turn, put=Lumino("pink", 3), action="C",
                           take=(Lumino("blue", 2), Lumino("blue", 5, "crab"))))
    draw(game, "yellow 6")
    firsts = {d.placement.lumino for d in game.decisions() if isinstance(d, Place)}
    assert firsts == {Lumino("blue", 2), Lumino("blue", 5, "crab")}
    blue5 = next(d for d in game.decisions() if isinstance(d, Place)
                 and d.placement.lumino == Lumino("blue", 5, "crab"))
    game.apply_action(game.decisions().index(blue5))
    assert game.hand == [Lumino("blue", 2)] and game.current_player() == 0


# ---- jellyfish --------------------------------------------------------------------------------


def test_jellyfish_swap_needs_a_jellyfish_and_swaps_from_one_place():
    game = dealt(atoll=["blue 2", "blue 5 crab", "yellow 1 crab", "green 4"])
    assert not [d for d in game.decisions() if isinstance(d, Spend)]
    game.jellyfish[0] = 1
    game._moves = None
    assert {d.where for d in game.decisions() if isinstance(d, Spend)} == {"atoll", "display"}
    game.apply_action(find(game, Spend, where="atoll"))
    assert game.jellyfish[0] == 0 and not any(isinstance(d, SwapDone) for d in game.decisions())
    assert {d.lumino for d in game.decisions()} == set(game.atoll)   # Atoll tiles only
    game.apply_action(find(game, Pick, lumino=Lumino("blue", 2)))
    game.apply_action(find(game, Pick, lumino=Lumino("blue", 5, "crab")))
    assert Pick(Lumino("blue", 2)) not in game.decisions()            # each tile once
    game.apply_action(find(game, SwapDone))
    assert game.bag_left == 72 - 12 + 2
    draw(game, "yellow 6", "blue 2")                                  # may draw one back
    assert Counter(game.atoll) == Counter([Lumino("yellow", 1, "crab"), Lumino("green", 4),
                                           Lumino("yellow", 6), Lumino("blue", 2)])
    assert game.phase == "turn" and game.current_player() == 0
    assert not [d for d in game.decisions() if isinstance(d, Spend)]  # the tile went to the box


def test_every_subset_of_the_atoll_can_be_swapped_one_way():
    game = dealt(atoll=["blue 2", "blue 5 crab", "yellow 1 crab", "green 4"])
    game.jellyfish[0] = 1
    game._moves = None
    game.apply_action(find(game, Spend, where="atoll"))
    subsets = set()

    def walk(state, chosen):
        for a, d in enumerate(state.decisions()):
            if isinstance(d, SwapDone):
                subsets.add(tuple(sorted(map(str, chosen))))
            else:
                child = state.clone()
                child.apply_action(a)
                walk(child, chosen + [d.lumino])

    walk(game, [])
    assert len(subsets) == 15


def test_several_jellyfish_swap_several_times():
    game = dealt()
    game.jellyfish[0] = 2
    game._moves = None
    game.apply_action(find(game, Spend, where="display"))
    game.apply_action(find(game, Pick, lumino=Lumino("pink", 3)))
    game.apply_action(find(game, SwapDone))
    draw(game, "yellow 2")
    assert [d for d in game.decisions() if isinstance(d, Spend)]
    assert Lumino("yellow", 2) in game.displays[0]


# ---- the scoring phase ---------------------------------------------------------------------


def play_action_phase(game: Game) -> None:
    """Every player takes limestone (action A) with its first display tile."""
    while game.phase == "turn":
        game.apply_action(next(a for a, d in enumerate(game.decisions())
                               if isinstance(d, Turn) and d.action == "A"))


def test_scoring_phase_refills_displays_in_order_from_the_octopus():
    game = dealt(3)
    game.octopus = 2
    game._start_round()
    play_action_phase(game)
    assert game.phase == "draw"
    assert game.queue == [2, 0, 1]        # one tile each, octopus first
    draw(game, *FRESH[:3])
    assert game.displays[2][-1] == Lumino.parse(FRESH[0])
    assert game.displays[1][-1] == Lumino.parse(FRESH[2])
    assert game.phase == "score" and game.current_player() == 2


def anni_reef() -> Reef:
    """The rulebook's coral scoring example: pink 3 in level 1, pink 5 and 2 in level 2, no
    numbered pink in level 3, pink 6 in level 4."""
    return Reef.build(load_board("A"), ("pink", "green"), [
        ("pink 3", (5, 6), (4, 7)), ("pink 1 shellfish", (3, 8), (4, 7)),
        ("pink 1", (3, 4), (4, 5)), ("pink 3 crab", (3, 2), (4, 3)),
        ("pink 5", (4, 3), (4, 5)), ("pink 4 seahorse", (4, 5), (4, 7)),
        ("pink 2", (3, 4), (3, 6)), ("pink 2 starfish", (3, 6), (3, 8)),
        ("pink 6 crab", (3, 6), (4, 5)),
    ])


def test_coral_scoring_through_the_game_gives_annis_11_vp_and_the_rounds_limestone():
    game = dealt()
    game.reefs[0] = anni_reef()
    play_action_phase(game)
    draw(game, *FRESH[:2])
    assert [d.vp for d in game.decisions() if isinstance(d, Score)
            and d.color == "pink"] == [11]
    assert str(game.decisions()[0]) == "coral scoring: pink (+11 VP)"
    stone = game.limestone[0]
    game.apply_action(find(game, Score, color="pink"))
    assert game.vp[0] == 11 and game.jellyfish[0] == 1 and "pink" not in game.coral[0]
    assert game.limestone[0] == min(10, stone + 4)             # round 1: 4 markers
    stone1 = game.limestone[1]
    game.apply_action(find(game, Skip))
    assert game.limestone[1] == stone1                         # no scoring, no limestone
    assert game.octopus == 0 and game.round == 2               # the turtle moves on


def test_octopus_goes_to_the_last_scorer_or_stays():
    game = dealt(3)
    play_action_phase(game)
    draw(game, *FRESH[:3])
    game.apply_action(find(game, Score, color="blue"))
    game.apply_action(find(game, Score, color="blue"))
    game.apply_action(find(game, Skip))
    assert game.octopus == 1 and game.current_player() == 1     # player 2 scored last
    play_action_phase(game)
    draw(game, *FRESH[3:])
    for _ in range(3):
        game.apply_action(find(game, Skip))
    assert game.octopus == 1


def test_each_colour_scores_once_and_one_scoring_per_phase():
    game = dealt()
    play_action_phase(game)
    draw(game, *FRESH[:2])
    game.apply_action(find(game, Score, color="green"))
    assert game.current_player() == 1                           # one scoring, then the next
    game.apply_action(find(game, Skip))
    play_action_phase(game)
    draw(game, *FRESH[2:4])
    assert "green" not in {d.color for d in game.decisions() if isinstance(d, Score)}
    assert {d.color for d in game.decisions() if isinstance(d, Score)} == {"pink", "blue",
                                                                          "yellow"}


# ---- rounds, final scoring, winner ---------------------------------------------------------


def test_ten_rounds_then_the_final_scoring():
    game = Game.new(players=2, seed=3)
    rounds = set()
    while not game.is_terminal():
        rounds.add(game.round)
        game.play(game.decisions()[-1] if game.phase == "score" else game.decisions()[0])
    assert rounds == set(range(1, 11)) and game.round == 10
    scores = game.final_scores()
    assert game.totals() == [v + s.total for v, s in zip(game.vp, scores, strict=True)]
    assert sum(game.returns()) == pytest.approx(1.0)


def test_final_scoring_counts_jellyfish_limestone_animals_majorities():
    game = Game.new(players=2, seed=4)
    while not game.is_terminal():
        game.play(game.decisions()[0])
    from lumicore.reef.scoring import final_scores
    expected = final_scores(game.reefs, game.jellyfish, game.limestone)
    assert game.final_scores() == expected
    assert game.final_scores()[0].jellyfish == 2 * game.jellyfish[0]


def test_tie_broken_by_limestone_then_shared():
    game = Game.new(players=2, seed=4)
    while not game.is_terminal():
        game.play(game.decisions()[0])
    game.vp = [100 - s.total for s in game.final_scores()]      # force equal totals
    game.limestone = [3, 5]
    assert game.winners() == [1] and game.returns() == [0.0, 1.0]
    game.limestone = [5, 5]
    assert game.winners() == [0, 1] and game.returns() == [0.5, 0.5]


# ---- variants ----------------------------------------------------------------------------


def test_b_side_and_light_board_change_the_final_scoring():
    games = {}
    for side, board in (("A", "dark"), ("B", "light")):
        game = Game.new(players=2, seed=6, side=side, scoreboard=board)
        while not game.is_terminal():
            game.play(game.decisions()[0])
        games[side] = game
    b = games["B"]
    assert b.board.remote_mask and all(s.remote_penalties == -r.remote_penalty()
                                       for s, r in zip(b.final_scores(), b.reefs, strict=True))
    assert all(s.animals == r.animal_points("light")
               for s, r in zip(b.final_scores(), b.reefs, strict=True))
    assert all(s.remote_penalties == 0 for s in games["A"].final_scores())


# ---- the empty bag -------------------------------------------------------------------------


def test_emergency_stack_goes_in_and_the_game_ends_after_one_more_scoring_phase():
    game = dealt(3)
    game.round = 4
    # 6 tiles left before the emergency stack
    game.bag_left = 1
    play_action_phase(game)       # nobody takes tiles: no draws until the displays refill
    assert game.queue == [0, 1, 2]
    assert game.emergency == 6
    draw(game, FRESH[0])           # the last tile of the bag; the next draw needs the stack
    assert game.emergency == 0 and game.ending and game.bag_left == 6
    draw(game, *FRESH[1:3])
    for _ in range(3):
        game.apply_action(find(game, Skip))
    assert game.extra and game.round == 5 and game.phase == "score"   # the extra phase
    stone = game.limestone[0]
    game.apply_action(find(game, Score, color="pink"))
    assert game.limestone[0] == min(10, stone + 2)                    # round 5 limestone
    for _ in range(2):
        game.apply_action(find(game, Skip))
    assert game.is_terminal() and game.round == 5


def test_estimate_counts_only_the_scoring_phases_a_premature_end_leaves():
    game = dealt(3)
    game.round = 4
    game.bag_left = 1
    play_action_phase(game)
    draw(game, *FRESH[:3])              # the bag ran out in round 4: this phase and one more
    assert game.ending and game.phase == "score"

    def coral_part(g):
        now = [v + s.total for v, s in zip(g.vp, final_scores(
            g.reefs, g.jellyfish, g.limestone), strict=True)]
        return [e - n for e, n in zip(g.estimate(), now, strict=True)]

    def best_scorings(g, p, phases):
        later = CORAL_GROWTH * (phases - 1)
        return sum(sorted((g.reefs[p].coral_score(c) + later + 2 for c in g.coral[p]),
                          reverse=True)[:phases])

    # round 4 of 10 would leave 7 scoring phases, the premature end leaves 2: 5.4 VP each
    # for the four tiles still to score at 0 (the estimate counted 7 phases: 24.8 VP)
    assert coral_part(game) == pytest.approx([best_scorings(game, p, 2) for p in range(3)])
    for _ in range(3):
        game.apply_action(find(game, Skip))
    assert game.extra and game.round == 5
    # the extra phase is the last one: one scoring each, 2 VP (was 6 phases: 22.0 VP)
    assert coral_part(game) == pytest.approx([best_scorings(game, p, 1) for p in range(3)])
    game.apply_action(find(game, Score, color="pink"))
    assert coral_part(game)[0] == 0     # player 1 has scored in the last phase: nothing to come


def test_estimate_counts_the_tiles_in_hand_where_they_would_go_now():
    """Before: the estimate ignored the hand, so taking a tile (action B or C) was worth
    nothing until it was placed, and returning it to the bag cost nothing."""
    game = dealt(display=["pink 6", "green 1 crab", "blue 4", "yellow 3"])
    crab = Lumino("green", 1, "crab")
    game.apply_action(find(game, Turn, put=Lumino("pink", 6), action="B", take=(crab,)))
    assert game.phase == "place" and game.hand == [crab]
    without = game.clone()
    without.hand = []                   # the same state, the tile not in hand
    held, empty = game.estimate(), without.estimate()
    # the crab (2 VP on the dark board) and 2 more visible green spaces, for player 1 only
    assert held[0] >= empty[0] + 2 and held[1] <= empty[1]
    placed = game.hand_placement()
    assert len(placed.placements) == 1 and not placed.returned
    returned = game.clone()
    returned.apply_action(find(returned, Return, lumino=crab))
    assert returned.estimate()[0] == pytest.approx(empty[0] - 1)
    # the estimate with the tile in hand is the estimate once it lies where hand_placement says
    game.apply_action(game.decisions().index(Place(placed.placements[0])))
    assert game.estimate() == pytest.approx(held)


def test_placement_weights_are_those_of_the_turn_objective_and_check_the_player():
    game = dealt()
    game.coral[0].remove("pink")
    weights = dict(zip(kernel.FEATURES, game.placement_weights(0), strict=True))
    assert weights["animals:dark"] == weights["remote"] == 1 and weights["animals:light"] == 0
    assert weights["coral:pink"] == 0 and weights["coral:blue"] == CORAL_WEIGHT
    assert weights["visible:pink"] == VISIBLE_WEIGHT
    with pytest.raises(LumicoreError, match="player must be an index 0..1, got '2'"):
        game.placement_weights(2)


def test_estimate_at_the_end_is_the_totals():
    game = played(3)
    assert game.is_terminal() and not game.hand
    assert game.estimate() == [float(t) for t in game.totals()]


def test_bag_empty_again_means_no_more_refills():
    game = dealt(2)
    game.round = 3
    game.unseen = [0] * len(game.unseen)
    game.bag_left = 0
    play_action_phase(game)
    assert game.phase == "score" and [len(d) for d in game.displays] == [3, 3]
    assert game.ending


def test_emergency_in_round_10_plays_on_as_usual():
    game = dealt(3)
    game.round = 10
    game.bag_left = 1
    play_action_phase(game)
    draw(game, *FRESH[:3])
    assert not game.ending
    for _ in range(3):
        game.apply_action(find(game, Skip))
    assert game.is_terminal() and game.round == 10


# ---- records and replay --------------------------------------------------------------------


def played(seed: int, players: int = 2) -> Game:
    game = Game.new(players=players, seed=seed)
    k = 0
    while not game.is_terminal():
        moves = game.decisions()
        game.play(moves[(k * 7 + seed) % len(moves)])
        k += 1
    return game


def test_record_replays_every_state_and_the_final_scores(tmp_path):
    game = played(11, players=3)
    record = game.record()
    assert set(record) >= {"players", "seed", "side", "scoreboard", "decisions", "totals"}
    states = list(Game.iter_replay(record))
    assert states[-1] == game and states[-1].totals() == game.totals()
    assert len(states) == len(record["decisions"]) + 1
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert Game.replay(path).totals() == game.totals()


def test_json_lines_file_holds_many_records(tmp_path):
    games = [played(s) for s in (1, 2)]
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(json.dumps(g.record()) for g in games) + "\n")
    records = read_records(path)
    assert [Game.replay(r).totals() for r in records] == [g.totals() for g in games]
    with pytest.raises(DataError, match="2 records"):
        Game.replay(path)


def test_replay_rejects_an_illegal_decision_naming_its_turn_and_why():
    record = played(3).record()
    k = next(i for i, d in enumerate(record["decisions"]) if d.startswith("put "))
    bad = dict(record, decisions=record["decisions"][:k] + ["put pink 9 into the Atoll; A: x"])
    with pytest.raises(IllegalMoveError, match=rf"decision {k + 1} \(round 1, player 1.*not in"):
        Game.replay(bad)
    wrong = dict(record, totals=[0, 0])
    with pytest.raises(DataError, match="totals"):
        Game.replay(wrong)


@pytest.mark.parametrize("version", [2, True, "1", None])
def test_replay_refuses_a_record_of_another_version(version):
    record = dict(played(3).record(), version=version)
    with pytest.raises(DataError, match="game record version"):
        Game.replay(record)
    unversioned = {k: v for k, v in record.items() if k != "version"}
    assert Game.replay(unversioned).totals() == played(3).totals()


def test_replay_of_a_game_with_outside_draws_keeps_them():
    game = Game.new(players=2, seed=8, auto_chance=False)
    k = 0
    while not game.is_terminal():
        actions = game.legal_actions()
        game.apply_action(actions[(k * 5) % len(actions)])
        k += 1
    record = game.record()
    assert "actions" in record
    assert Game.replay(record) == game


def test_clone_and_serialize():
    game = played(2)
    assert Game.deserialize(game.serialize()) == game
    mid = Game.new(players=4, seed=9)
    for _ in range(30):
        mid.play(mid.decisions()[-1])
    copy = mid.clone()
    copy.play(copy.decisions()[0])
    assert copy != mid and Game.deserialize(mid.serialize()) == mid


def test_decisions_print_readably():
    game = dealt(display=["pink 6", "green 1 crab", "blue 4", "yellow 3"])
    texts = [str(d) for d in game.decisions()]
    assert "put pink 6 into the Atoll; A: take 6 limestone" in texts
    assert "put pink 6 into the Atoll; B: take green 1 crab from your display" in texts
    assert "put pink 6 into the Atoll; C: take blue 2, blue 5 crab from the Atoll" in texts
    assert all(isinstance(game.action_to_string(a), str) for a in game.legal_actions())
    assert isinstance(Orient, type)


@pytest.mark.parametrize("key", ["actions", "decisions"])
def test_replay_names_the_bad_step_of_a_record(key):
    # the message said 'decisions' whatever the key and named no bad value
    record = {k: v for k, v in played(3).record().items() if k != "decisions"}
    steps = played(3).record()["decisions"]
    with pytest.raises(DataError, match=rf"'{key}' entry 3 must be a decision text, got '7'$"):
        Game.replay({**record, key: [*steps[:2], 7, *steps[3:]]})
    with pytest.raises(DataError, match=rf"'{key}' must be a list of decision texts, got 'x'$"):
        Game.replay({**record, key: "x"})


@pytest.mark.parametrize("field", ["unseen", "bag_left"])
def test_a_tile_count_beyond_the_set_is_named_shortly(field):
    """Counts had no upper bound: a 4000-digit one passed the field check and came back in a
    4088-character message from the consistency check."""
    game = Game.new(players=3, seed=0)
    data = json.loads(game.serialize())
    data[field] = [10**4000, *data[field][1:]] if field == "unseen" else 10**4000
    with pytest.raises(DataError, match=f"field '{field}(\\[0\\])?' must be an integer from 0 "
                                        "to") as err:
        Game.deserialize(json.dumps(data))
    assert len(str(err.value)) < 300


@pytest.mark.parametrize("value", ["x", 1, None])
def test_auto_chance_must_be_true_or_false(value):
    """``auto_chance="x"`` was taken as true (``bool("x")``): it is refused, naming it."""
    with pytest.raises(LumicoreError, match="auto_chance must be True or False"):
        Game.new(auto_chance=value)


def test_a_record_names_its_game_and_old_records_still_replay():
    """Reef records had no ``"game"`` key (every other game's has one): another game's replay
    said the field was missing. They name it now; one without it replays, one naming another
    game is refused."""
    record = Game.new(seed=1).record()
    assert record["game"] == "reef"
    old = {k: v for k, v in record.items() if k != "game"}
    assert Game.replay(old) == Game.replay(record)
    with pytest.raises(DataError, match="field 'game' must be \"reef\", got \"lumen\""):
        Game.replay({**record, "game": "lumen"})
