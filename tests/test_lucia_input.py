"""Arguments of the wrong type to Lucia's public functions are LumicoreErrors naming them, not
TypeError / AttributeError from deep inside (the Python edge validates before the kernels)."""

import pytest

from lumicore.errors import LumicoreError
from lumicore.lucia import Card, Train, load_deck
from lumicore.lucia.deal import Deal
from lumicore.lucia.start import fix_up, random_goal
from lumicore.lucia.train import Rules
from solvers.lucia import best_play, greedy_play, replay, search_kinds, solve, solve_deal
from solvers.lucia.deal import replay_deal, solve_position

TRAIN = Train.parse("L3 H T S")
CARD = load_deck().kinds[0]
DEAL = Deal(TRAIN, (CARD,) * 4)

CASES = {
    "solve rules": (lambda: solve(TRAIN, rules="x"), "rules"),
    "solve cards text": (lambda: solve(TRAIN, cards="abc"), "cards"),
    "solve cards int": (lambda: solve(TRAIN, cards=5), "cards"),
    "solve cards unhashable": (lambda: solve(TRAIN, cards=[[1]]), "cards card #1 "),
    "search_kinds": (lambda: search_kinds([1, 2]), "kinds card #1 "),
    "replay start": (lambda: replay(5, []), "start"),
    "replay play": (lambda: replay(TRAIN, [5]), "play 1"),
    "replay_deal step": (lambda: replay_deal(TRAIN, [CARD] * 4, 1, [5]), "step 1"),
    "solve_position hand": (lambda: solve_position(TRAIN, [CARD], []), "hand 1"),
    "solve_position deck": (lambda: solve_position(TRAIN, [[CARD]], 5), "deck"),
    "solve_deal tt_bits": (lambda: solve_deal(DEAL, tt_bits="x"), "tt_bits"),
    "solve_deal rules": (lambda: solve_deal(DEAL, rules="x"), "rules"),
    "best_play rules": (lambda: best_play(TRAIN, [CARD], [CARD, CARD], rules="x"), "rules"),
    "random_goal kids": (lambda: random_goal(kids="S h"), "kid codes"),
    "random_goal kid": (lambda: random_goal(kids=[8, 99]), "kid 1"),
    "fix_up": (lambda: fix_up(None), "kid codes"),
    "Rules flag": (lambda: Rules(lucia_partial="yes"), "lucia_partial"),
    "successors rules": (lambda: TRAIN.successors(CARD, "x"), "rules"),
    "Train codes int": (lambda: Train(5), "kid codes"),
    "Train codes None": (lambda: Train(None), "kid codes"),
    "Card actions None": (lambda: Card(None), "one or two actions"),
    "Card actions int": (lambda: Card(5), "one or two actions"),
    "Card name int": (lambda: Card(CARD.actions, name=5), "name"),
    "Card covers": (lambda: CARD.covers("wild 1"), "covers only cards"),
    "Action covers": (lambda: CARD.actions[0].covers(5), "covers only actions"),
    "plays card": (lambda: list(TRAIN.plays(5)), "card"),
    "successors card": (lambda: TRAIN.successors("wild 1"), "card"),
    "replay plan int": (lambda: replay(TRAIN, 5), "plan"),
    "replay plan None": (lambda: replay(TRAIN, None), "plan"),
    "replay_deal plan None": (lambda: replay_deal(TRAIN, [CARD] * 4, 1, None), "plan"),
    "replay_deal deck None": (lambda: replay_deal(TRAIN, None, 1, []), "deck"),
    "replay_deal deck text": (lambda: replay_deal(TRAIN, "abc", 1, []), "deck"),
    "replay_deal deck ints": (lambda: replay_deal(TRAIN, [1, 2], 1, []), "deck card #1"),
    "replay_deal players 0": (lambda: replay_deal(TRAIN, [CARD] * 4, 0, []), "players"),
    "replay_deal train": (lambda: replay_deal(5, [CARD] * 4, 1, []), "train"),
    "greedy_play hand text": (lambda: greedy_play(TRAIN, "ab"), "hand"),
    "greedy_play hand int": (lambda: greedy_play(TRAIN, 5), "hand"),
    "greedy_play kinds": (lambda: greedy_play(TRAIN, [CARD], kinds=[1]), "kinds"),
    "greedy_play train": (lambda: greedy_play(5, [CARD]), "train"),
}


@pytest.mark.parametrize("name", CASES)
def test_wrong_types_are_lumicore_errors(name):
    call, named = CASES[name]
    with pytest.raises(LumicoreError, match=named):
        call()


def test_the_same_calls_with_good_arguments_work():
    assert solve(TRAIN, cards=[CARD, CARD]).status in ("optimal", "unsolvable")
    assert replay(str(TRAIN), []) == TRAIN
    assert random_goal(1, kids=Train.parse("L0 H T S").codes).is_goal()
    assert fix_up(TRAIN.codes) == TRAIN.codes
    assert solve_deal(DEAL, tt_bits=10**30).status in ("winnable", "unwinnable")
    assert replay_deal(str(TRAIN), [CARD] * 4, 1, ()) == TRAIN
    assert greedy_play(str(TRAIN), (CARD,), kinds=(CARD,)) == greedy_play(TRAIN, [CARD])
    assert Train([8, 1, 2, 3]) == TRAIN and Card(list(CARD.actions), name="x") == CARD


def test_a_card_named_by_a_number_does_not_break_its_deal_json():
    # Card(name=5) was accepted; str(card) then raised TypeError and Deal.from_json refused the
    # deal's own to_json text
    with pytest.raises(LumicoreError, match="name"):
        Deal(TRAIN, (Card(CARD.actions, name=5),) * 4)
