"""The Cython kernel against the plain-Python reference on random sheets (grids and graphs)
and random maps, and its door rejecting bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from lumen_helpers import DUEL, small_games

from lumicore._ext import lumen as raw
from lumicore.errors import LumicoreError
from lumicore.lumen import kernel, reference
from lumicore.lumen.sheet import Layout, Sheet, grid_layout


@st.composite
def sheets(draw) -> Sheet:
    if draw(st.booleans()):
        rows, cols = draw(st.integers(1, 8)), draw(st.integers(1, 8))
        layout = grid_layout([(r, c) for r in range(rows) for c in range(cols)])
    else:
        n = draw(st.integers(1, 64))
        edges = draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)),
                             max_size=3 * n))
        nbrs = [set() for _ in range(n)]
        for a, b in edges:
            if a != b:
                nbrs[a].add(b)
                nbrs[b].add(a)
        layout = Layout(tuple((i // 8, i % 8) for i in range(n)),
                        tuple(tuple(sorted(x)) for x in nbrs))
    n = len(layout.cells)
    small = draw(st.booleans())  # small values make many links
    values = draw(st.lists(st.one_of(st.none(), st.integers(0, 4 if small else 36)),
                           min_size=n, max_size=n))
    return Sheet(layout, tuple(values))


@given(sheets())
def test_legal_cells_match_the_reference(sheet):
    assert kernel.legal_cells(sheet) == reference.legal_cells(sheet.values,
                                                              sheet.layout.neighbors)


@given(sheets(), st.lists(st.integers(0, 36), min_size=1, max_size=6))
def test_gains_match_the_reference(sheet, values):
    table, cells = kernel.gains_all(sheet, values)
    empty = [i for i, v in enumerate(sheet.values) if v is None]
    assert cells.tolist() == kernel.legal_cells(sheet)
    for row, cell in zip(table, cells, strict=True):
        for (ident, seq), value in zip(row, values, strict=True):
            expected = reference.gains(sheet.values, sheet.layout.neighbors, int(cell), value)
            assert (ident, seq) == expected
    for cell in empty[:4]:
        assert kernel.gains(sheet, cell, values[0]) == reference.gains(
            sheet.values, sheet.layout.neighbors, cell, values[0])


@given(st.integers(1, 12), st.integers(1, 16), st.data())
def test_strength_sums_match_the_reference(territories, counts, data):
    units = data.draw(st.lists(st.lists(st.lists(st.integers(0, 9), min_size=counts,
                                                 max_size=counts), min_size=2, max_size=2),
                               min_size=territories, max_size=territories))
    strengths = data.draw(st.lists(st.integers(0, 5), min_size=counts, max_size=counts))
    assert kernel.strength_sums(units, strengths) == reference.strength_sums(units, strengths)


TOP = 2**31 - 1  # the largest count and strength the door takes


@pytest.mark.parametrize("kinds", [1, 2])
def test_strength_sums_at_the_doors_limits_equal_the_reference(kinds):
    """Two kinds at the largest count and strength sum to just below 2**63: still exact."""
    units = [[[TOP] * kinds, [0] * kinds], [[TOP] * kinds, [TOP, 0][:kinds]]]
    assert kernel.strength_sums(units, [TOP] * kinds) == \
        reference.strength_sums(units, [TOP] * kinds)


@pytest.mark.parametrize("kinds", [3, 40])
def test_strength_sums_that_overflow_int64_are_refused(kinds):
    """Three kinds at the largest count and strength overflowed the kernel's int64 sum: it
    returned -4611686031312289789 where the reference gives 13835058042397261827."""
    units = np.zeros((2, 2, kinds), dtype=np.int64)
    units[1, 1] = TOP
    with pytest.raises(LumicoreError, match="sum below 2\\*\\*63.* player 1 in territory 1"):
        kernel.strength_sums(units, [TOP] * kinds)


def test_the_door_rejects_bad_input():
    sheet = Sheet.parse("4 . / . .")
    for bad in (0, 9, -1, True, 1.5):
        with pytest.raises(LumicoreError):
            kernel.gains(sheet, bad, 4)
    with pytest.raises(LumicoreError):
        kernel.gains(sheet, 1, 37)
    with pytest.raises(LumicoreError):
        kernel.gains_all(sheet, [40])
    with pytest.raises(LumicoreError):
        kernel.legal_cells("4 . / . .")
    with pytest.raises(LumicoreError):
        kernel.strength_sums([[[1, -2]]], [1, 1])
    with pytest.raises(LumicoreError):
        kernel.strength_sums([[[1, 2]]], [1])
    with pytest.raises(LumicoreError):
        kernel.strength_sums([[[1, 2]]], [1.5, 2])


def test_the_raw_kernel_checks_sizes_and_cells():
    nbr = np.zeros(3, dtype=np.uint64)
    with pytest.raises(ValueError, match="same length"):
        raw.legal_mask(bytes([255, 255]), nbr)
    with pytest.raises(ValueError, match="empty bubble"):
        raw.gains(bytes([255] * 3), nbr, 3, 1)
    with pytest.raises(ValueError, match="empty bubble"):
        raw.gains(bytes([1, 255, 255]), nbr, 0, 1)


# --- whole random games: the kernel's game loop against the Python GameState

@pytest.fixture(scope="module")
def games(tmp_path_factory):
    from lumicore.lumen.game import GameState

    small = small_games(tmp_path_factory.mktemp("lumen"))
    states = [GameState.new_game(), small["duel"], small["brawl"]]
    return [(s, kernel.setup(s)) for s in states]


@given(st.integers(0, 2**63 - 1), st.integers(0, 2))
def test_kernel_games_match_the_python_engine(games, seed, which):
    state, setup = games[which]
    assert kernel.random_game(setup, seed) == reference.random_game(state, seed)


def test_kernel_game_records_replay_in_python(games):
    from lumicore.lumen.game import replay

    state, setup = games[0]
    actions, winner, s0, s1, last = kernel.random_game(setup, 11)
    end = replay({"game": "lumen", "actions": actions})
    assert end.is_terminal() and end.round == last
    assert (end.score(0).total, end.score(1).total) == (s0, s1)
    assert (-1 if end.winner() is None else end.winner()) == winner


def test_brawls_end_by_elimination_in_both_engines(games):
    state, setup = games[2]
    early = [seed for seed in range(60) if kernel.random_game(setup, seed)[4] < 9]
    assert early, "no game ended before the last round"
    for seed in early[:5]:
        assert kernel.random_game(setup, seed) == reference.random_game(state, seed)


def test_random_games_counts(games):
    _, setup = games[0]
    wins0, wins1, nobody, actions = kernel.random_games(setup, 50, seed=3)
    assert wins0 + wins1 + nobody == 50 and actions > 50 * 17
    one = sum(kernel.random_game(setup, 3 + i)[1] == 0 for i in range(50))
    assert one == wins0


def test_setup_needs_a_fresh_game():
    from lumicore.game import play_randomly
    from lumicore.lumen.game import GameState

    with pytest.raises(LumicoreError):
        kernel.setup(play_randomly(GameState.new_game(), seed=1, max_steps=3))
    with pytest.raises(LumicoreError):
        kernel.setup("game")
    setup = kernel.setup(GameState.new_game())
    for bad in (-1, 2**63, 1.5):
        with pytest.raises(LumicoreError):
            kernel.random_game(setup, bad)
    with pytest.raises(LumicoreError):
        kernel.random_games(setup, -1)


def test_setup_rejects_numbers_beyond_the_kernel(tmp_path):
    from lumicore.lumen.game import GameState

    # a scenario file can no longer give such a count (its loader refuses it, naming the key)
    path = tmp_path / "huge.toml"
    path.write_text(DUEL.replace("deadly = 1, pusher = 1", "deadly = 99999999999"))
    with pytest.raises(LumicoreError, match=r"units.deadly must be an integer from 1 to 999"):
        GameState.new_game(scenario=str(path))
    # the door still checks a state changed by hand
    state = GameState.new_game()
    state.units[0][0][0] = 2**20
    with pytest.raises(LumicoreError, match="range"):
        kernel.setup(state)


def test_play_outs_follow_an_edited_board_file_and_a_relative_path_after_a_chdir(tmp_path,
                                                                                 monkeypatch):
    """The kernel's setup was kept by the file's name: after the board file was edited from 17
    rounds to 3, play-outs of a new game still played 17 rounds; so for a relative path
    naming another file after a change of folder."""
    from lumicore.data import data_dir
    from lumicore.lumen.game import GameState

    text = (data_dir() / "lumen_board.toml").read_text()
    path = tmp_path / "board.toml"
    path.write_text(text)
    kernel.playouts(GameState.new_game(board=str(path)), 2)
    path.write_text(text.replace("rounds = 17", "rounds = 3"))
    state = GameState.new_game(board=str(path))
    assert state.board.rounds == 3
    assert kernel.random_game_from(state, 5) == reference.random_game(state, 5)
    for folder, rounds in (("a", 2), ("b", 4)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "board.toml").write_text(
            text.replace("rounds = 17", f"rounds = {rounds}"))
        monkeypatch.chdir(tmp_path / folder)
        state = GameState.new_game(board="board.toml")
        assert kernel.random_game_from(state, 5) == reference.random_game(state, 5)


@pytest.mark.parametrize("threshold", [-999_999_999, -1, 0, 36, 37, 999_999_999])
def test_the_kernel_plays_every_high_command_threshold_a_layout_may_have(threshold, tmp_path):
    """A layout file may give a threshold of nine digits either way (no value crosses, or
    every value does); the kernel refused anything but 0..2**20 mid-game ("a board or scenario
    number is out of the kernel's range")."""
    from lumicore.data import data_dir
    from lumicore.game import play_randomly
    from lumicore.lumen.game import GameState

    layout = tmp_path / "layout.toml"
    layout.write_text(f"rows = 3\ncols = 3\n[high_command]\nthreshold = {threshold}\n"
                      "sections = [1, 1, 1]\n")
    board = tmp_path / "board.toml"
    board.write_text((data_dir() / "lumen_board.toml").read_text().replace(
        'layout = "default"', f'layout = "{layout.as_posix()}"'))
    state = GameState.new_game(board=str(board))
    assert state.sheets[0].layout.high_command.threshold == threshold
    for seed in range(3):
        assert kernel.random_game(kernel.setup(state), seed) == reference.random_game(state, seed)
        later = play_randomly(state, seed=seed, max_steps=60)
        expected = reference.random_game(later, seed)
        assert kernel.random_game_from(later, seed) == (expected[0][len(later.history):],
                                                         *expected[1:])


@given(st.integers(0, 2**32), st.integers(1, 400), st.integers(0, 2))
def test_kernel_games_from_any_position_match_the_python_engine(games, seed, steps, which):
    from lumicore.game import play_randomly

    state, _ = games[which]
    position = play_randomly(state, seed=seed, max_steps=steps)
    expected = reference.random_game(position, seed)
    expected = (expected[0][len(position.history):], *expected[1:])
    assert kernel.random_game_from(position, seed) == expected


def test_position_rejects_non_states():
    with pytest.raises(LumicoreError):
        kernel.position("state")
    with pytest.raises(LumicoreError):
        kernel.playouts("state", 3)


def test_random_games_reject_anything_but_a_setup_without_crashing():
    # the C methods read their first argument as a Setup: a GameState (a natural slip), a
    # string or None once crashed the interpreter with a segmentation fault
    from lumicore.lumen.game import GameState

    for bad in (GameState.new_game(), "setup", None):
        with pytest.raises(LumicoreError, match="kernel.setup"):
            kernel.random_game(bad, 1)
        with pytest.raises(LumicoreError, match="kernel.setup"):
            kernel.random_games(bad, 2, 1)


def test_long_kernel_runs_are_batched_and_stop_on_ctrl_c(monkeypatch):
    import signal
    from types import SimpleNamespace

    from lumicore.game import play_randomly
    from lumicore.lumen.game import GameState

    setup = kernel.setup(GameState.new_game())
    state = play_randomly(GameState.new_game(seed=2), seed=2, max_steps=30)
    game, fields = kernel.position(state)
    whole = raw.Setup.random_games(setup, 300, 2**63 - 1)
    from_state = raw.Setup.random_games(game, 300, 5, fields)[:3]
    monkeypatch.setattr(kernel, "BATCH", 64)  # game i keeps seed + i however split
    assert kernel.random_games(setup, 300, 2**63 - 1) == whole
    assert kernel.playouts(state, 300, 5) == from_state
    monkeypatch.undo()
    # the C loop holds no GIL and sees no Ctrl-C: a long run must come back between batches.
    # The press comes with the second batch; counting the kernel calls (not the clock)
    # shows the loop stopped there rather than playing on through the other ~190 batches.
    real = kernel._k
    sizes: list[int] = []

    def batch(game, n, seed, position):
        sizes.append(n)
        if len(sizes) == 2:
            signal.raise_signal(signal.SIGINT)
        return real.Setup.random_games(game, n, seed, position)

    monkeypatch.setattr(kernel, "_k", SimpleNamespace(Setup=SimpleNamespace(random_games=batch)))
    monkeypatch.setattr(kernel, "_game", lambda game: game)  # checked above: a real setup
    with pytest.raises(KeyboardInterrupt):
        kernel.random_games(setup, 400_000, 1)  # ten seconds and more in one call
    monkeypatch.undo()
    assert len(sizes) == 2 and max(sizes) <= kernel.BATCH < 400_000 // 100


# ---- the kernel's own Setup (what kernel.setup and kernel.position return) checks its
# arguments: its methods took C ints (a plain OverflowError or TypeError, 1.5 read as 1) and a
# position dict as it came (a KeyError; a count of -1 or 2**31 - 1 killed the process)

def _setup_and_fields():
    from lumicore.lumen.game import GameState

    return kernel.position(GameState.new_game())


def _new_game():
    from lumicore.lumen.game import GameState

    return GameState.new_game()


SETUP_CALLS = {  # argument -> (call with the value, the values that are bad)
    "seed": (lambda game, fields, v: game.random_game(v), (-1, 2**64, np.int64(-2), "1", 1.5,
                                                           None, True)),
    "cap": (lambda game, fields, v: game.random_game(1, v), (-1, 2**20 + 1, 2**70,
                                                             np.int32(-5), "9", 9.0, None)),
    "n": (lambda game, fields, v: game.random_games(v, 1), (-1, 2**31, 2**70, np.int64(-1),
                                                            "2", 2.0, None, True)),
    "seed ": (lambda game, fields, v: game.random_games(2, v), (-1, 2**64, "1", 1.5)),
}


@pytest.mark.parametrize("argument, bad", [
    pytest.param(a, b, id=f"{a.strip()}={b!r}") for a, (_, bads) in SETUP_CALLS.items()
    for b in bads])
def test_kernel_setup_methods_name_a_bad_argument(argument, bad):
    game, fields = _setup_and_fields()
    with pytest.raises(LumicoreError, match=f"^{argument.strip()} must be .*, got "):
        SETUP_CALLS[argument][0](game, fields, bad)


def _with(fields, key, value, *path):
    import copy

    out = copy.deepcopy(fields)
    if not path:
        out[key] = value
        return out
    item = out[key]
    for i in path[:-1]:
        item = item[i]
    item[path[-1]] = value
    return out


@pytest.mark.parametrize("change", [
    ("units", -1, 0, 0, 0), ("units", 2**31 - 1, 0, 0, 0), ("bag", -1, 0, 0),
    ("supply", 2**20, 1, 0), ("pool", -5, 0), ("round", -1), ("left", 2**31 - 1),
    ("disc", -1, 0), ("obj_cnt", 2**20, 0), ("uses", -1, 0, 0), ("collected", -3, 1),
    ("after_round", 7), ("phase", 99), ("round", 2**40), ("round", "1"), ("units", None, 0),
], ids=repr)
@pytest.mark.parametrize("method", ["random_game", "random_games"])
def test_kernel_setup_refuses_a_bad_position_without_crashing(change, method):
    """A count out of the kernel's range in the position dict made the C game loop divide by
    zero or pick outside its arrays (the process died: SIGFPE or a segmentation fault)."""
    game, fields = _setup_and_fields()
    bad = _with(fields, change[0], change[1], *change[2:])
    with pytest.raises(LumicoreError, match="^position must be"):
        if method == "random_game":
            game.random_game(1, 1000, bad)
        else:
            game.random_games(2, 1, bad)
    for broken in ({}, {"round": 1}, 5, [], "position"):
        with pytest.raises(LumicoreError, match="^position must be"):
            game.random_game(1, 1000, broken)
    assert game.random_game(1, 1000, fields) == kernel.random_game_from(_new_game(), 1)


def _setup_data():
    """The dict kernel.setup hands the kernel's Setup for a new game of Scenario A."""
    captured = {}
    real = kernel._k.Setup
    try:
        kernel._k.Setup = lambda d: captured.setdefault("d", d)
        kernel.setup(_new_game())
    finally:
        kernel._k.Setup = real
    return captured["d"]


@pytest.mark.parametrize("key, index, value", [
    ("rounds", None, 2**31 - 1), ("ability", 0, 99), ("moves", 0, 5), ("strength", 0, -1),
    ("tnbr", 0, 2**63), ("limits", 0, -1), ("bag", 0, -1), ("nk", None, 0), ("vp", 0, "1"),
    ("units", None, None),
], ids=repr)
def test_kernel_setup_refuses_bad_data_and_keeps_its_game(key, index, value):
    """Setup(d), reachable as type(setup)(d) or setup.__init__(d), read the dict as it came: a
    number of rounds near 2**31 made random_games run for ever (past Ctrl-C), and a failure
    halfway left the Setup half rewritten."""
    game = kernel.setup(_new_game())
    before = game.random_game(5)
    data = dict(_setup_data())
    if index is None:
        data[key] = value
    else:
        data[key] = list(data[key])
        data[key][index] = value
    with pytest.raises(LumicoreError, match="^d must be a game's data"):
        game.__init__(data)
    with pytest.raises(LumicoreError, match="^d must be a game's data"):
        type(game)(data)
    assert game.random_game(5) == before
    assert type(game)(_setup_data()).random_game(5) == before
