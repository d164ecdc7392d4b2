"""Deals: dealing as the rulebook sets up, JSON round trips, bad input, the game state."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from lumicore.errors import DataError, IllegalMoveError, LumicoreError
from lumicore.game import CHANCE, TERMINAL, GameState, new_game, play_randomly
from lumicore.lucia import Action, Card, Train, load_deck, random_train
from lumicore.lucia.deal import GAME_DECK, Deal, deal
from lumicore.lucia.deal_game import DealState
from solvers.cli import main


def test_deal_follows_the_setup_and_shuffles_the_whole_deck():
    d = deal(11, players=3)
    assert Counter(d.deck) == Counter(load_deck(GAME_DECK).cards)
    assert d.train.is_standard and d.train.candles == 0 and d.train.lucia_position == 15
    assert [len(h) for h in d.hands()] == [3, 3, 3]
    assert d.hands()[1] == d.deck[3:6] and d.stock() == d.deck[9:]
    assert deal(11, players=3) == d and deal(12, players=3) != d


def test_deal_and_Deal_are_the_packages_names_as_issue_7_gives_them():
    import lumicore.lucia
    import solvers.lucia  # noqa: F401  (imports the submodule lumicore.lucia.deal too)

    dealt = lumicore.lucia.deal(7, players=2)
    assert isinstance(dealt, lumicore.lucia.Deal) and dealt == deal(7, players=2)
    assert lumicore.lucia.Deal is Deal and {"Deal", "deal"} <= set(lumicore.lucia.__all__)


def test_deal_train_is_the_setup_train_of_the_same_generator():
    # the train comes first from the seed's generator, then the deck order
    rng = np.random.default_rng(5)
    assert deal(5).train == random_train(rng)


def test_reconstructed_deck_stays_loadable_and_default_is_unchanged():
    assert load_deck("reconstructed").cards == load_deck("default").cards
    calibrated = load_deck("calibrated")
    assert len(calibrated) == 33 and calibrated.cards != load_deck("default").cards
    assert Counter(deal(3, deck="reconstructed").deck) == Counter(load_deck("default").cards)


@pytest.mark.parametrize("seed", [0, 1, 2**62])
def test_json_round_trip(seed):
    d = deal(seed, players=2)
    back = Deal.from_json(d.to_json())
    assert back == d and back.seed == seed and back.to_json() == d.to_json()


@pytest.mark.parametrize("change, match", [
    ({"train": "L0 S G h"}, "train"),
    ({"train": "L0 X"}, "train"),
    ({"players": 0}, "players"),
    ({"players": 9}, "players"),
    ({"deck": [0, 99]}, "deck card #2"),
    ({"cards": [{"actions": [{"kind": "jump"}]}]}, "deal: card #1: .*jump"),
    ({"cards": [{"x": 1}]}, "deal: card #1: card '': unknown key 'x'"),
    ({"extra": 1}, "unknown keys"),
    ({"hand_size": 2.0}, "hand_size"),
    ({"hand_size": "3"}, "hand_size"),
    # its DealState could not be read back from its own serialize()
    ({"deck": []}, "the deck must hold at least one card"),
])
def test_bad_deal_json_is_one_line_error(change, match):
    data = json.loads(deal(1).to_json())
    data.update(change)
    with pytest.raises(LumicoreError, match=match) as err:
        Deal.from_json(json.dumps(data))
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("kwargs, match", [
    ({"players": 0}, "players"), ({"players": 9}, "players"), ({"seed": -1}, "seed"),
    ({"seed": 2**63}, "seed"), ({"seed": "1"}, "seed"), ({"deck": 3}, "deck"),
    ({"deck": "no-such-deck"}, "no-such-deck"),
])
def test_bad_deal_arguments(kwargs, match):
    args = {"seed": 1, **kwargs}
    with pytest.raises(LumicoreError, match=match):
        deal(**args)


def test_deck_file_with_unknown_action_names_it(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_text('[[card]]\nname = "hop"\nactions = [{ kind = "hop" }]\n')
    with pytest.raises(DataError, match="hop"):
        deal(1, deck=str(path))
    assert main(["lucia", "deal", "--seed", "1", "--deck", str(path)]) == 2


def test_cli_deal_prints_a_deal_that_reads_back(capsys):
    assert main(["lucia", "deal", "--seed", "4", "--players", "2", "--json"]) == 0
    assert Deal.from_json(capsys.readouterr().out) == deal(4, players=2)
    assert main(["lucia", "deal", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert str(deal(4).train) in out and "hand 1:" in out
    assert main(["lucia", "deal", "--seed", "4", "--players", "9"]) == 2
    # a bad --time-limit is an error without --solve too (it was ignored)
    with pytest.raises(SystemExit):
        main(["lucia", "deal", "--seed", "4", "--time-limit", "-1"])


# -- the game state ---------------------------------------------------------------------------

LIGHT_T, LUCIA = Card((Action.light("T"),)), Card((Action.lucia(),))


def test_new_game_deals_hands_through_chance_nodes():
    state = new_game("lucia", players=2, seed=3)
    assert isinstance(state, DealState) and isinstance(state, GameState)
    deck = load_deck(GAME_DECK)
    outcomes = dict(state.chance_outcomes())
    assert state.current_player() == CHANCE and state.legal_actions() == sorted(outcomes)
    assert outcomes == pytest.approx({k: deck.copies(c) / 33 for k, c in enumerate(deck.kinds)})
    for _ in range(6):
        assert state.is_chance_node()
        state.apply_action(state.legal_actions()[0])
    assert not state.is_chance_node() and state.current_player() == 0
    assert [len(h) for h in state.hands] == [3, 3]
    assert sum(state.counts) == 27 and sum(state.unseen().values()) == 30


def test_a_play_draws_through_a_chance_node_then_passes_the_turn():
    state = new_game("lucia", players=2, seed=1)
    rng = np.random.default_rng(0)
    while state.is_chance_node():
        state.apply_action(int(rng.choice(state.legal_actions())))
    state.apply_action(0)
    if not state.is_terminal():
        assert state.is_chance_node() and state.owed == [0]
        state.apply_action(state.legal_actions()[0])
        assert len(state.hands[0]) == 3 and state.current_player() in (1, TERMINAL)


def test_fixed_deck_state_has_no_chance_and_wins_like_the_solver():
    from solvers.lucia import solve_deal

    d = Deal(Train.parse("H L3 T"), (LIGHT_T, LUCIA, LIGHT_T, LIGHT_T))
    state = DealState.from_deal(d)
    plan = solve_deal(d).plan
    for step in plan:
        assert not state.is_chance_node()
        moves = state._legal()
        state.apply_action(moves.index((step.card, step.train)))
    assert state.is_terminal() and state.returns() == [1.0]
    assert state.current_player() == TERMINAL


def test_player_without_a_playable_card_loses():
    state = DealState.from_deal(Deal(Train.parse("L3 T h"), (LUCIA, LUCIA, LUCIA)))
    assert state.is_terminal() and state.returns() == [0.0] and state.legal_actions() == []
    with pytest.raises(IllegalMoveError):
        state.apply_action(0)


def test_game_actions_are_cards_in_kind_order_then_trains_by_notation():
    # docs/lucia.md (the game state): cards in kind order, trains by notation. "G h h L0" comes
    # before "h G L0 h" and "h h G L0" by notation; by kid codes (h = 0 < G = 4) it came last
    wild = Card((Action.wild(1),))
    light = Card((Action.light("T"),))
    state = DealState.from_deal(Deal(Train.parse("h G h L0 T"), (light, wild, wild, wild)))
    assert state.kinds == (light, wild)
    shown = [state.action_to_string(a) for a in state.legal_actions()]
    assert shown == ["player 1: light from T => h G h L1 T",
                     "player 1: wild 1 => G h h L0 T", "player 1: wild 1 => h G L0 h T",
                     "player 1: wild 1 => h G h T L0", "player 1: wild 1 => h h G L0 T"]


def test_random_games_end_and_serialize():
    for seed in range(3):
        end = play_randomly(new_game("lucia", players=1 + seed, seed=seed), seed=seed)
        assert end.is_terminal() and end.returns() in ([0.0] * (1 + seed), [1.0] * (1 + seed))
        assert DealState.deserialize(end.serialize()) == end


@pytest.mark.parametrize("text", ["", "{}", '{"game": "lucia"}', "[1]",
                                  json.dumps({"game": "lucia", "train": "h L0", "cards": [],
                                              "hands": [[5]], "mover": 0, "order": [],
                                              "counts": None, "owed": [], "won": False})])
def test_deserialize_rejects_garbage(text):
    with pytest.raises(DataError):
        DealState.deserialize(text)


@pytest.mark.parametrize("field,value,named", [
    ("mover", -1, "mover"), ("mover", 1.0, "mover"), ("mover", 3, "mover"),
    ("won", "no", "won"), ("won", True, "won"), ("counts", [-1] * 99, "counts"),
    ("counts", [1], "counts"), ("owed", [7], "owed"), ("hands", [[True]], r"hands\[0\]\[0\]"),
    ("hands", [[0], "x"], "hands"), ("order", [0], "not both"),
])
def test_deserialize_checks_every_field(field, value, named):
    """A state whose fields the game could never reach is a DataError naming the field (a
    mover of -1 read as the end of the game, "no" read as won, ...)."""
    state = DealState.new_game(players=2, seed=1)
    data = json.loads(state.serialize())
    if field == "counts" and len(value) == 99:
        value = [-1] * len(data["counts"])
    assert DealState.deserialize(json.dumps(data)) == state
    data[field] = value
    with pytest.raises(DataError, match=named):
        DealState.deserialize(json.dumps(data))


def test_deserialize_keeps_owed_draws_to_hidden_decks():
    known = DealState.from_deal(Deal(Train.parse("H L3 T"), (LIGHT_T, LUCIA, LIGHT_T, LIGHT_T)))
    data = json.loads(known.serialize())
    assert DealState.deserialize(json.dumps(data)) == known
    data["owed"] = [0]
    with pytest.raises(DataError, match="owed"):
        DealState.deserialize(json.dumps(data))


def test_cli_reads_and_solves_a_shared_deal(tmp_path, capsys):
    path = tmp_path / "deal.json"
    d = Deal(Train.parse("H L3 T"), (LIGHT_T, LUCIA, LIGHT_T, LIGHT_T))
    path.write_text(d.to_json())
    assert main(["lucia", "deal", "--file", str(path), "--solve", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["solve"]["status"] == "winnable" and Deal.from_dict(
        {k: v for k, v in data.items() if k != "solve"}) == d
    path.write_text(d.to_json().replace("H L3 T", "H L3 X"))
    assert main(["lucia", "deal", "--file", str(path)]) == 2
    assert "deal: train" in capsys.readouterr().err
    assert main(["lucia", "deal", "--file", str(tmp_path / "missing.json")]) == 2
    capsys.readouterr()
    # the file holds the deal's players, deck and start: these options were silently ignored
    path.write_text(d.to_json())
    for option, value in [("--players", "3"), ("--deck", "nosuch"), ("--setup", "default")]:
        assert main(["lucia", "deal", "--file", str(path), option, value]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"lumicore: error: {option} with --file") and err.count("\n") == 1


@pytest.mark.parametrize("text", ["[" * 100_000, '{"train": ' * 100_000])
def test_deeply_nested_json_is_a_data_error(text, tmp_path, capsys):
    """json.loads raises RecursionError on deep nesting: a DataError, not a traceback."""
    from lumicore.lucia.game import PuzzleState

    for read in (Deal.from_json, DealState.deserialize, PuzzleState.deserialize):
        with pytest.raises(DataError, match="nested too deeply"):
            read(text)
    path = tmp_path / "deep.json"
    path.write_text(text)
    assert main(["lucia", "deal", "--file", str(path)]) == 2
    assert "nested too deeply" in capsys.readouterr().err


def test_deal_repr_is_one_line_naming_the_deal_not_its_cards():
    d = deal(2, players=2)
    text = repr(d)
    assert "\n" not in text and "Card(" not in text
    assert f"train '{d.train}'" in text and "2 players" in text and f"{len(d.deck)} cards" in text
    assert "of seed 2" in text
    unseeded = Deal(d.train, d.deck[:4], hand_size=2)
    assert "seed" not in repr(unseeded) and "1 player," in repr(unseeded)
    assert "4 cards" in repr(unseeded) and "hands of 2" in repr(unseeded)
