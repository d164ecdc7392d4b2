"""Helpers for the Lumen tests: set up positions of a game by hand and play moves by their
tuples (``GameState.moves()``)."""

from __future__ import annotations

from pathlib import Path

from lumicore.lumen import load_map
from lumicore.lumen.game import GameState
from lumicore.lumen.units import load_board

KINDS = load_board().kinds

# two small scenarios and a board for them (kills, eliminations, Mercenaries, objectives)
DUEL = ('name = "Duel"\ninitiative = "m"\nadjacency = [["w", "m"], ["m", "e"], ["e", "x"]]\n'
        '[territories]\nw = { season = "winter" }\nm = { season = "spring" }\n'
        'e = { season = "autumn", discovery = 4 }\nx = { season = "summer" }\n'
        '[[start]]\nplayer = 1\nterritory = "w"\nunits = { deadly = 1, pusher = 1 }\n'
        '[[start]]\nplayer = 2\nterritory = "x"\nunits = { deadly = 1, feathered = 1 }\n')
BRAWL = ('name = "Brawl"\ninitiative = "r"\nadjacency = [["r", "s"]]\n'
         '[territories]\nr = { season = "spring" }\ns = { season = "winter", discovery = 2 }\n'
         '[[start]]\nplayer = 1\nterritory = "r"\nunits = { deadly = 1 }\n'
         '[[start]]\nplayer = 2\nterritory = "r"\nunits = { deadly = 1 }\n')
SMALL_BOARD = ('rounds = 9\nsupply = 2\n[limits]\nlow = 1\nhigh = 2\nsum = 2\nproduct = 2\n'
               'difference = 1\n'
               '[units.deadly]\nstrength = 1\nability = "kill"\nbag = 3\n'
               '[units.pusher]\nstrength = 1\nability = "push"\nbag = 2\n'
               '[units.feathered]\nstrength = 2\nability = "fly"\nbag = 2\n'
               '[units.restorer]\nstrength = 1\nability = "restore"\nbag = 1\n'
               '[units.mercenary]\nstrength = 3\nspecial = true\n'
               '[bonus]\nmercenary = 2\nsecret = 1\nglow = 3\n[objectives]\nvalues = [1, 1, 6]\n')
SMALL_SHEET = 'rows = 2\ncols = 4\n[high_command]\nthreshold = 5\nsections = [1, 2, 1]\n'
"""A command area whose High Command row is quickly complete (objective tokens early)."""


def small_games(folder: Path) -> dict[str, GameState]:
    """Fresh games of the two small scenarios on the small board (files written in
    ``folder``): "duel", "brawl", and "duel-objectives" on a board with :data:`SMALL_SHEET`."""
    for name, text in (("duel", DUEL), ("brawl", BRAWL), ("small", SMALL_BOARD),
                       ("sheet", SMALL_SHEET)):
        (folder / f"{name}.toml").write_text(text)
    quick = SMALL_BOARD.replace("rounds = 9\n", f"rounds = 9\nlayout = '{folder / 'sheet.toml'}'\n")
    (folder / "quick.toml").write_text(quick)
    small = str(folder / "small.toml")
    return {"duel": GameState.new_game(scenario=str(folder / "duel.toml"), board=small),
            "brawl": GameState.new_game(scenario=str(folder / "brawl.toml"), board=small),
            "duel-objectives": GameState.new_game(scenario=str(folder / "duel.toml"),
                                                  board=str(folder / "quick.toml"))}


def find(state: GameState, *prefix) -> int:
    """The action of the first move starting with ``prefix``."""
    for a, move in enumerate(state.moves()):
        if move[:len(prefix)] == prefix:
            return a
    raise AssertionError(f"no move {prefix} among {state.moves()[:8]}...")


def has(state: GameState, *prefix) -> bool:
    return any(m[:len(prefix)] == prefix for m in state.moves())


def do(state: GameState, *prefix) -> None:
    state.apply_action(find(state, *prefix))


def k(name: str) -> int:
    return KINDS.index(name)


def t(name: str) -> int:
    return load_map("A").index(name)


def started(first: int = 0) -> GameState:
    """A game after the first-player draw and the supply draws (Shroomlings first)."""
    state = GameState.new_game(seed=0)
    do(state, "first", first)
    while state.phase == "draw":
        state.apply_action(0)
    return state


def clear(state: GameState) -> GameState:
    for sides in state.units:
        for side in sides:
            side[:] = [0] * len(side)
    state._moves = None
    return state


def put(state: GameState, where: str, player: int, kind: str, n: int = 1,
        inactive: bool = False) -> None:
    state.units[t(where)][player][2 * k(kind) + inactive] += n
    state._moves = None


def sequence_step(state: GameState, player: int = 0, left: int = 1) -> GameState:
    """Make ``state`` the second resolver's sequence step with ``left`` choices."""
    state.phase, state.actor, state.left, state.todo, state.resolving = \
        "sequence", player, left, [], 1
    state._moves = None
    return state
