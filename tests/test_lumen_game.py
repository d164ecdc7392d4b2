"""The rules of Lumen: The Lost World, one test (or more) per sentence of the rulebook, played
through lumicore.lumen.game.GameState."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from damage_helpers import check_damage, states
from lumen_helpers import clear, do, has, k, put, sequence_step, small_games, started, t

from lumicore.errors import DataError, IllegalMoveError, LumicoreError
from lumicore.game import CHANCE, TERMINAL, play_randomly, sample_chance
from lumicore.lumen import load_map
from lumicore.lumen.game import GameState, replay
from lumicore.lumen.map import map_from_dict
from lumicore.lumen.sheet import Sheet
from lumicore.lumen.units import load_board

# --- "Tienes 17 rondas"

def test_a_game_has_17_rounds():
    end = play_randomly(GameState.new_game(seed=2), seed=2)
    assert end.is_terminal() and end.round == 17
    rolls = sum(1 for a, s in zip(end.history, _states(end), strict=True) if s.phase == "roll")
    assert rolls == 17


def _states(end: GameState) -> list[GameState]:
    state, out = GameState.new_game(seed=end.seed), []
    for a in end.history:
        out.append(state.clone())
        state.apply_action(a)
    return out


# --- "El primer jugador se decide al azar al inicio"

def test_first_player_is_random_at_the_start():
    state = GameState.new_game()
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert started(1).first == 1 and started(1).current_player() == CHANCE


# --- "Un turno comprende una tirada, una selección, un plan y luego una emisión"
# --- "El primer jugador tira los dados"

def test_round_starts_with_a_roll_then_the_first_player_chooses():
    state = started(1)
    assert state.phase == "roll" and len(state.chance_outcomes()) == 21
    do(state, "roll", 2, 5)
    assert state.phase == "choose" and state.current_player() == 1


# --- "el segundo jugador no puede elegir la misma selección que hizo el primero"

def test_second_player_cannot_take_the_first_players_selection():
    state = started(0)
    do(state, "roll", 2, 5)
    do(state, "choose", 2)  # sum
    assert state.current_player() == 1
    assert {m[1] for m in state.moves()} == {0, 1, 3, 4}


# --- "Cada opción tiene un límite de usos durante la partida"

def test_a_spent_selection_cannot_be_chosen():
    state = started(0)
    state.uses[0][3] = load_board().limits["product"]
    do(state, "roll", 2, 5)
    assert 3 not in {m[1] for m in state.moves()}


def test_a_player_with_nothing_to_choose_passes():
    state = started(0)
    state.uses[1] = [load_board().limits[s] for s in ("low", "high", "sum", "product",
                                                       "difference")]
    do(state, "roll", 1, 1)
    do(state, "choose", 0)
    assert state.moves() == [("pass",)]
    do(state, "pass")
    assert state.sheets[1].written == 0


# --- "este se ingresa en una burbuja ... adyacentes a selecciones previas"

def test_the_value_is_written_in_the_chosen_bubble():
    state = started(0)
    do(state, "roll", 3, 4)
    do(state, "choose", 3, 7)   # product 12 in bubble 7 = (1, 2)
    do(state, "choose", 0, 0)   # low 3 in bubble 0
    assert state.sheets[0][(1, 2)] == 12 and state.sheets[1][(0, 0)] == 3
    do(state, "roll", 1, 2)
    do(state, "choose", 0)
    assert {m[2] for m in state.moves()} == {1, 5}


# --- "Si el valor fue 7 o superior, también tachas una casilla en tu fila de Alto Mando"
# --- "Si al tachar una casilla se completa esa sección, puedes robar una ficha de Bonificación"

def test_completing_a_section_draws_a_bonus_token():
    state = started(0)
    state.sheets[0] = Sheet.parse("9 . . . . / . . . . . / . . . . . / . . . . .")
    do(state, "roll", 4, 5)
    do(state, "choose", 2, 1)  # sum 9 next to the 9
    do(state, "choose", 0, 0)
    assert state.phase == "bonus" and state.current_player() == CHANCE
    assert [m[1] for m in state.moves()] == [0, 1, 2]  # mercenary, secret, glow
    do(state, "bonus", 1)
    assert state.secrets[0] == 1 and state.bonus_pool[1] == 3


def test_last_two_sections_also_draw_an_objective_token():
    state = started(0)
    state.sheets[0] = Sheet.parse("9 9 9 9 9 / 9 9 . . . / . . . . . / . . . . .")
    do(state, "roll", 4, 5)
    do(state, "choose", 2, 7)  # the eighth box completes section 3
    do(state, "choose", 0, 0)
    do(state, "bonus", 2)
    assert state.phase == "objective" and state.glows[0] == 1
    do(state, "objective", 5)
    assert state.objectives[0] == [5] and 5 not in state.objective_pool


def test_a_mercenary_is_placed_where_its_owner_has_units():
    state = started(0)
    state.sheets[0] = Sheet.parse("9 . . . . / . . . . . / . . . . . / . . . . .")
    do(state, "roll", 4, 5)
    do(state, "choose", 2, 1)
    do(state, "choose", 0, 0)
    do(state, "bonus", 0)
    assert state.phase == "mercenary" and state.moves() == [("mercenary", t("a1"))]
    do(state, "mercenary")
    assert state.units[t("a1")][0][2 * k("mercenary")] == 1


# --- "Si tienes la suerte de crear tanto un Idéntico como una Secuencia, debes elegir cuál
#     resolver completamente primero"

def test_both_chains_let_the_player_choose_the_order():
    state = started(0)
    state.sheets[0] = Sheet.parse("4 . 3 . . / . . . . . / . . . . . / . . . . .")
    do(state, "roll", 4, 6)
    do(state, "choose", 0, 1)   # low 4 between 4 and 3
    do(state, "choose", 4, 0)
    assert state.phase == "order" and state.current_player() == 0
    do(state, "order", "sequence")
    assert state.phase == "sequence" and state.left == 2
    do(state, "stop")
    assert state.phase == "reinforce" and state.left == 2


# --- Identical: "puedes añadir refuerzos al mapa hasta la cantidad de números nuevos"
# --- "coloca cada uno en un área donde ya tengas al menos 1 unidad ... pueden ir en áreas
#     diferentes"

def reinforcing(left: int) -> GameState:
    state = started(0)
    put(state, "b2", 0, "shroomling")
    state.phase, state.actor, state.left, state.todo, state.resolving = \
        "reinforce", 0, left, [], 1
    state._moves = None
    return state


def test_reinforcements_go_where_the_player_already_is():
    state = reinforcing(2)
    assert {m[2] for m in state.moves() if m[0] == "place"} == {t("a1"), t("b2")}
    assert state.moves()[-1] == ("stop",)


def test_reinforcements_up_to_the_gain_in_different_areas_then_refill():
    state = reinforcing(2)
    bag_before = sum(state.bag[0])
    do(state, "place", k("shroomling"), t("a1"))
    assert state.phase == "reinforce" and sum(state.supply[0]) == 2  # no refill yet
    do(state, "place", k("shroomling"), t("b2"))
    assert state.units[t("b2")][0][0] == 2 and state.units[t("a1")][0][0] == 3
    assert state.phase == "draw" and state.current_player() == CHANCE
    while state.phase == "draw":
        state.apply_action(0)
    assert sum(state.supply[0]) == 3 and sum(state.bag[0]) == bag_before - 2


def test_reinforcing_less_than_the_gain_is_allowed():
    state = reinforcing(3)
    do(state, "place", k("shroomling"), t("a1"))
    do(state, "stop")
    assert state.phase == "draw"
    assert state.units_on_map(0) == 5


def test_an_empty_supply_still_refills_after_an_identical_chain():
    # "Solo después de que TODOS los refuerzos permitidos se hayan desplegado, repones tus
    # unidades básicas de tu bolsa": with nothing in the supply every allowed reinforcement
    # (none) is deployed, and the refill follows. The old code skipped the refill, so a unit a
    # Deadly Fighter had sent back to an emptied bag stayed there for the rest of the game.
    from lumicore.lumen import kernel, reference

    state = started(0)
    state.supply[0] = [0] * len(state.supply[0])
    state.bag[0] = [0] * len(state.bag[0])
    state.bag[0][k("pusher")] = 1            # killed earlier, back in the bag
    state.sheets[0] = Sheet.parse("4 . . . . / . . . . . / . . . . . / . . . . .")
    do(state, "roll", 4, 6)
    do(state, "choose", 0, 1)                # low 4 beside the 4: identical +2
    position = state.clone()                 # player 2 to choose
    do(state, "choose", 1, 0)
    # player 1 resolves: the reinforce step has nothing to place, then the supply draws
    assert state.phase == "draw" and state.current_player() == CHANCE and state.actor == 0
    do(state, "draw", k("pusher"))
    assert state.supply[0][k("pusher")] == 1 and sum(state.bag[0]) == 0
    # the kernel's game loop does the same
    for seed in range(4):
        actions, *result = reference.random_game(position, seed)
        assert kernel.random_game_from(position, seed) == \
            (actions[len(position.history):], *result)


def test_mercenaries_are_not_refilled():
    state = started(0)
    assert state.bag[0][k("mercenary")] == 0
    assert all(m[1] != k("mercenary") for m in state.moves() if state.phase == "draw")


# --- Sequence: "Mover: marchar con una sola unidad ... a una masa de tierra adyacente"
# --- "Si eres el primero en entrar al espacio, puedes ganar la ficha de descubrimiento"

def test_move_one_unit_to_an_adjacent_territory_taking_the_discovery_token():
    state = sequence_step(started(0))
    targets = {m[4] for m in state.moves() if m[0] == "move"}
    assert targets == {t("a2"), t("b1")}
    do(state, "move", k("shroomling"), 0, t("a1"), t("b1"))
    assert state.units[t("b1")][0][0] == 1 and state.collected[0] == [3]
    assert state.discovery[t("b1")] == 0


def test_only_the_first_to_enter_takes_the_token():
    state = sequence_step(started(0))
    state.discovery[t("b1")] = 0
    state.collected[1] = [3]
    do(state, "move", k("shroomling"), 0, t("a1"), t("b1"))
    assert state.collected[0] == []


def test_sequence_choices_count_like_reinforcements():
    state = sequence_step(started(0), left=2)
    do(state, "move", k("shroomling"), 0, t("a1"), t("a2"))
    assert state.phase == "sequence" and state.left == 1
    do(state, "move", k("shroomling"), 0, t("a2"), t("a3"))
    assert state.phase != "sequence"


# --- "Caparazón de Lodo: Fuerza 3. Está protegido contra Luchadores Mortales ..., pero no
#     puede moverse"

def test_mudshell_never_moves():
    state = sequence_step(started(0))
    assert not has(state, "move", k("mudshell"))


def test_mudshell_is_protected_from_deadly_fighters():
    state = sequence_step(clear(started(0)))
    put(state, "b2", 0, "deadly")
    put(state, "b2", 1, "mudshell")
    put(state, "b2", 1, "shroomling")
    kills = [m for m in state.moves() if m[0] == "activate" and m[1] == k("deadly")]
    assert [m[3] for m in kills] == [k("shroomling")]


# --- "Fungilino: Fuerza 2. Sin habilidad" and the strengths

def test_strengths_of_the_basic_units():
    board = load_board()
    assert {u.name: u.strength for u in board.units if not u.special} == {
        "shroomling": 2, "mudshell": 3, "restorer": 1, "pusher": 1, "deadly": 1, "feathered": 1}
    assert {u.name: board.bag[u.name] for u in board.units if not u.special} == {
        "shroomling": 6, "mudshell": 2, "restorer": 2, "pusher": 2, "deadly": 2, "feathered": 2}


def test_a_unit_without_ability_cannot_be_activated():
    state = sequence_step(started(0))
    assert not has(state, "activate")


# --- "Activar: voltear una unidad activa a su lado inactivo y llevar a cabo la habilidad"
# --- "Restaurador: Todas las aliadas en los territorios actuales y adyacentes se voltean a
#     activas"

def test_restorer_turns_allies_around_active():
    state = sequence_step(clear(started(0)))
    put(state, "b2", 0, "restorer")
    put(state, "b2", 0, "shroomling", inactive=True)
    put(state, "a2", 0, "pusher", inactive=True)
    put(state, "a1", 0, "feathered", inactive=True)   # not adjacent to b2
    put(state, "b2", 1, "shroomling", inactive=True)  # an enemy
    do(state, "activate", k("restorer"), t("b2"))
    assert state.units[t("b2")][0][2 * k("shroomling")] == 1
    assert state.units[t("a2")][0][2 * k("pusher")] == 1
    assert state.units[t("a1")][0][2 * k("feathered") + 1] == 1
    assert state.units[t("b2")][1][2 * k("shroomling") + 1] == 1
    assert state.units[t("b2")][0][2 * k("restorer") + 1] == 1  # the Restorer itself is spent


def test_only_active_units_can_be_activated():
    state = sequence_step(clear(started(0)))
    put(state, "b2", 0, "restorer", inactive=True)
    assert not has(state, "activate")


# --- "Empujador: Obliga a una de tus unidades o de tu oponente a moverse a un área adyacente"

def test_pusher_moves_a_unit_of_either_side():
    state = sequence_step(clear(started(0)))
    put(state, "b2", 0, "pusher")
    put(state, "b2", 1, "shroomling")
    put(state, "b2", 0, "deadly")
    pushes = {(m[3], m[4]) for m in state.moves() if m[:2] == ("activate", k("pusher"))}
    assert pushes == {(1, k("shroomling")), (0, k("deadly"))}
    do(state, "activate", k("pusher"), t("b2"), 1, k("shroomling"), 0, t("c2"))
    assert state.units[t("c2")][1][0] == 1 and state.units[t("b2")][1][0] == 0
    assert state.units[t("b2")][0][2 * k("pusher") + 1] == 1


# --- "Asesino: Elimina una unidad del mismo territorio y la devuelve a la bolsa del jugador"

def test_deadly_fighter_sends_an_enemy_back_to_its_bag():
    state = sequence_step(clear(started(0)))
    put(state, "b2", 0, "deadly")
    put(state, "b2", 1, "shroomling")
    put(state, "c3", 1, "shroomling")
    before = state.bag[1][0]
    do(state, "activate", k("deadly"), t("b2"), k("shroomling"))
    assert state.units[t("b2")][1][0] == 0 and state.bag[1][0] == before + 1


def test_a_killed_mercenary_leaves_the_game():
    state = sequence_step(clear(started(0)))
    put(state, "b2", 0, "deadly")
    put(state, "b2", 1, "mercenary")
    put(state, "c3", 1, "shroomling")
    do(state, "activate", k("deadly"), t("b2"), k("mercenary"))
    assert state.bag[1][k("mercenary")] == 0 and state.units[t("b2")][1] == [0] * 14


# --- "Emplumado: Muévelo a cualquier territorio cuando se active"

def test_feathered_flies_anywhere():
    state = sequence_step(clear(started(0)))
    put(state, "a1", 0, "feathered")
    flights = {m[3] for m in state.moves() if m[:2] == ("activate", k("feathered"))}
    assert flights == set(range(9)) - {t("a1")}
    do(state, "activate", k("feathered"), t("a1"), t("c2"))
    assert state.units[t("c2")][0][2 * k("feathered") + 1] == 1 and state.collected[0] == [2]


# --- "Resplandor: usar la habilidad en una ficha de resplandor ... luego descartas la ficha de
#     vuelta a la bolsa de suministro general"

def test_glow_is_used_then_goes_back_to_the_general_supply():
    state = sequence_step(clear(started(0)))
    put(state, "a1", 0, "shroomling", 2, inactive=True)
    assert not has(state, "glow")
    state.glows[0], state.bonus_pool[2] = 1, 4
    state._moves = None
    do(state, "glow")
    assert state.glows[0] == 0 and state.bonus_pool[2] == 5
    assert state.units[t("a1")][0][:2] == [2, 0]


# --- "Si un jugador no tiene unidades en el tablero, su oponente gana inmediatamente"

def test_a_player_without_units_loses_at_once():
    state = sequence_step(clear(started(0)))
    put(state, "b2", 0, "deadly")
    put(state, "b2", 1, "shroomling")
    do(state, "activate", k("deadly"), t("b2"), k("shroomling"))
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.winner() == 0 and state.returns() == [1.0, 0.0]


# --- "Para cada territorio, verifica qué jugador tiene la fuerza más alta y gana ese
#     territorio: 1 PV Invierno, 3 Otoño, 5 Verano, 7 Primavera. (Los empates no dan puntos)"

def test_territory_majorities_score_by_season():
    state = clear(started(0))
    put(state, "b2", 0, "shroomling")        # spring, 2 against 1
    put(state, "b2", 1, "pusher")
    put(state, "a2", 0, "mudshell")          # autumn, 3 alone
    put(state, "b3", 1, "shroomling")        # summer, tie 2-2: nobody
    put(state, "b3", 0, "shroomling")
    put(state, "c3", 1, "restorer")          # winter
    assert state.score(0).territories == 7 + 3
    assert state.score(1).territories == 1


def test_seasons_of_scenario_a():
    m = load_map("A")
    assert sorted(m.vp) == [1, 1, 1, 1, 3, 3, 5, 5, 7]
    assert m.territories[m.initiative] == "b2" and m.vp[m.initiative] == 7


# --- "Si has recolectado alguna Ficha de Descubrimiento ... suma los puntos (las que aún están
#     en el tablero ... no se reclaman)" and "Si has recolectado alguna Ficha de Objetivo"

def test_collected_tokens_score_and_tokens_left_on_the_map_do_not():
    state = clear(started(0))
    put(state, "b1", 1, "shroomling")   # b1 still holds its token: nobody scores it
    put(state, "a1", 0, "shroomling")
    state.collected[0] = [2]
    state.objectives[0] = [4]
    state.secrets[0] = 1
    s0, s1 = state.score(0), state.score(1)
    assert (s0.discovery, s0.objectives, s0.secrets) == (2, 4, 2)
    assert s1.discovery == 0 and s1.territories == 5


# --- "Gana quien tenga más PV o, en caso de empate, gana el jugador que controle el territorio
#     con la Ficha de Iniciativa o, si nadie lo controla, no gana nadie"

def finished(setup) -> GameState:
    state = clear(started(0))
    setup(state)
    state.phase = "over"
    return state


def test_more_vp_wins():
    state = finished(lambda s: (put(s, "b1", 1, "shroomling"), put(s, "a1", 0, "shroomling")))
    assert state.winner() == 1 and state.returns() == [0.0, 1.0]


def test_a_tie_goes_to_the_initiative_holder():
    def setup(s):
        put(s, "b2", 0, "shroomling", 2)
        put(s, "b2", 1, "shroomling")
        put(s, "b1", 1, "shroomling")
        s.collected[0] = [3]
    state = finished(setup)
    assert state.score(0).total == 10 and state.score(1).total == 5 + 0
    state.collected[0] = []
    state.collected[1] = [2]
    assert state.score(0).total == state.score(1).total == 7
    assert state.winner() == 0


def test_a_tie_with_nobody_on_the_initiative_means_nobody_wins():
    state = finished(lambda s: (put(s, "a1", 0, "shroomling"), put(s, "c3", 1, "shroomling")))
    assert state.winner() is None and state.returns() == [0.0, 0.0]


# --- "luego lo determina quien controle el territorio de la iniciativa"

def test_initiative_holder_goes_first_next_round():
    state = started(0)
    put(state, "b2", 1, "shroomling")
    state.resolving, state.todo = 1, []
    state._continue()
    assert state.first == 1 and state.round == 2 and state.phase == "roll"
    assert state.current_player() == CHANCE
    do(state, "roll", 1, 1)
    assert state.current_player() == 1


def test_without_an_initiative_holder_the_first_player_stays():
    state = started(1)
    state.resolving, state.todo = 1, []
    state._continue()
    assert state.first == 1 and state.round == 2


# --- setup, records, files

def test_starting_units_come_out_of_the_bag():
    state = GameState.new_game()
    assert state.unit_list(t("a1"), 0) == ["shroomling", "shroomling", "mudshell"]
    assert state.unit_list(t("c3"), 1) == ["shroomling", "shroomling", "mudshell"]
    assert state.bag[0][k("shroomling")] == 4 and state.bag[0][k("mudshell")] == 1


def test_supplies_start_full():
    state = started(0)
    assert sum(state.supply[0]) == sum(state.supply[1]) == 3


@pytest.mark.parametrize("seed", range(3))
def test_records_replay_exactly(seed):
    end = play_randomly(GameState.new_game(seed=seed), seed=seed)
    record = end.record()
    assert replay(json.dumps(record)) == end
    assert GameState.replay(record).history == end.history


def test_a_record_with_an_illegal_action_names_it():
    record = {"game": "lumen", "players": 2, "seed": 0, "options": {}, "actions": [0, 999]}
    with pytest.raises(IllegalMoveError, match=r"actions\[1\]: action 999 is not legal"):
        replay(record)
    with pytest.raises(DataError):
        replay({"game": "reef"})


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a":' * 5000 + "1" + "}" * 5000, "NaN", ""])
def test_a_record_that_is_no_json_object_is_a_data_error(text):
    # JSON nested deeper than the parser's recursion limit escaped as RecursionError
    with pytest.raises(DataError):
        replay(text)


@pytest.mark.parametrize("fields", [{"seed": "abc"}, {"seed": 1.5}, {"seed": float("nan")},
                                    {"seed": float("inf")}, {"seed": -1}, {"players": "x"},
                                    {"players": 2.0}, {"options": "ab"}, {"options": [1]},
                                    {"options": {"scenario": 5}}, {"options": {"colour": "red"}}])
def test_a_record_with_bad_fields_is_a_data_error(fields, tmp_path, capsys):
    # a seed or player count that int() refuses escaped as ValueError or OverflowError (a
    # traceback from ``lumicore lumen replay``); a float seed was silently truncated
    from solvers.cli import main

    record = {"game": "lumen", "players": 2, "seed": 0, "actions": [], **fields}
    with pytest.raises(LumicoreError):
        replay(record)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main(["lumen", "replay", str(path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_serialize_round_trip_mid_game():
    state = GameState.new_game(seed=3)
    end = play_randomly(state, seed=3, max_steps=400)
    copy = GameState.deserialize(end.serialize())
    assert copy == end and copy.moves() == end.moves()


@pytest.mark.parametrize("bad", ["", "{}", '{"game": "lumen"}', "[1]"])
def test_deserialize_rejects_garbage(bad):
    with pytest.raises(DataError):
        GameState.deserialize(bad)


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> dict[str, GameState]:
    return small_games(tmp_path_factory.mktemp("lumen"))


def _game(name: str, small: dict[str, GameState], seed: int) -> GameState:
    return GameState.new_game(seed=seed) if name == "default" else small[name].clone()


@pytest.mark.parametrize("name, seed", [("default", 0), ("default", 1), ("brawl", 2),
                                        ("brawl", 3), ("duel-objectives", 4)])
def test_every_state_of_a_random_game_loads_back(name, seed, small):
    # the checks of a loaded state reject nothing that play reaches: kills and eliminations
    # (brawl), Mercenaries, Glows, objective tokens (duel-objectives)
    for state in states(_game(name, small, seed), seed):
        copy = GameState.deserialize(state.serialize())
        assert copy == state and copy.moves() == state.moves()


@pytest.mark.parametrize("name, seed", [("default", 5), ("brawl", 6), ("duel-objectives", 7)])
def test_a_damaged_saved_state_is_a_data_error_or_plays_on(name, seed, small):
    # one field (top-level, or one of 40 nested ones) replaced by junk: a value of the wrong
    # type is a LumicoreError, and whatever loads plays to the end without a stray exception
    # ('first: -1', 'uses: []' or 'sheets: {}' loaded, then failed with an IndexError)
    for i, state in enumerate(states(_game(name, small, seed), seed, every=40)):
        check_damage(state, GameState.deserialize, nullable=r"^picks\[\d\]$", seed=i)


@pytest.mark.parametrize("field, value, message", [
    ("first", -1, "field 'first' must be a player index from 0 to 1, got -1"),
    ("round", True, "field 'round' must be a round from 1 to 17, got true"),
    ("uses", [], "field 'uses' must be a list of 2 items"),
    ("sheets", {}, "field 'sheets' must be a list of 2 items"),
    ("after_draw", "x", "field 'after_draw' must be one of \"round\", \"continue\", got \"x\""),
    ("todo", ["fly"], "field 'todo\\[0\\]' must be a step"),
    ("units", None, "field 'units' must be a list of 9 items"),
    ("dice", [5, 2], "field 'dice' must be \\[0, 0\\] before the first roll"),
    ("history", [0, -3], "field 'history\\[1\\]' must be an action index >= 0, got -3"),
    ("colour", "red", "unknown field 'colour'"),
])
def test_a_bad_field_is_named(field, value, message):
    data = json.loads(play_randomly(GameState.new_game(seed=1), seed=1, max_steps=30).serialize())
    data[field] = value
    with pytest.raises(DataError, match="^serialized lumen game: " + message):
        GameState.deserialize(json.dumps(data))


def test_a_missing_field_is_named():
    data = json.loads(GameState.new_game(seed=1).serialize())
    for field in data:
        with pytest.raises(DataError, match=f"field '{field}' is missing"):
            GameState.deserialize(json.dumps({k: v for k, v in data.items() if k != field}))


def test_fields_that_disagree_are_named():
    state = play_randomly(GameState.new_game(seed=1), seed=1, max_steps=60)
    data = json.loads(state.serialize())

    def damaged(**changes) -> str:
        return json.dumps({**data, **changes})

    bag = [list(b) for b in data["bag"]]
    bag[0][0] += 1  # a Shroomling out of nowhere
    with pytest.raises(DataError, match=r"field 'bag\[0\]\[0\]' must be \d+: player 1 has"):
        GameState.deserialize(damaged(bag=bag))
    with pytest.raises(DataError, match="field 'collected' must be the discovery tokens"):
        GameState.deserialize(damaged(collected=[[3, 3], []]))
    with pytest.raises(DataError, match=r"field 'uses\[0\]' must be one use per value"):
        GameState.deserialize(damaged(uses=[[0] * 5, data["uses"][1]]))
    with pytest.raises(DataError, match=r"field 'sheets\[1\]' must be a sheet of the default"):
        GameState.deserialize(damaged(sheets=[data["sheets"][0], "1 2 / 3 4"]))
    with pytest.raises(DataError, match="field 'options': "):
        GameState.deserialize(damaged(options={"scenario": "Z", "board": "default"}))


@pytest.mark.parametrize("change, field", [({"todo": ["bonus"]}, "todo"),
                                           ({"todo": ["objective"]}, "todo"),
                                           ({"gains": [0, 2]}, "gains")])
def test_an_order_choice_with_a_step_pending_could_not_arise_and_is_refused(change, field):
    """Loaded, it made the kernel (which drops the pending step) and the Python engine (which
    keeps it) play different games from it: kernel (0, 11, 5, 17), Python (1, 16, 18, 17)."""
    rng = np.random.default_rng(0)
    state = GameState.new_game(seed=0)
    while state.phase != "order":
        if state.is_terminal():
            state = GameState.new_game(seed=int(rng.integers(1000)))
        actions = state.legal_actions()
        state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                           else actions[int(rng.integers(len(actions)))])
    assert GameState.deserialize(state.serialize()).phase == "order"
    with pytest.raises(DataError, match=f"field '{field}' must be"):
        GameState.deserialize(json.dumps({**json.loads(state.serialize()), **change}))


def test_map_adjacency_naming_a_missing_territory_is_an_error():
    data = {"territories": {"x": {"season": "winter"}}, "adjacency": [["x", "zz9"]],
            "initiative": "x", "start": [{"player": 1, "territory": "x", "units": {"a": 1}},
                                         {"player": 2, "territory": "x", "units": {"a": 1}}]}
    with pytest.raises(DataError, match="'zz9'") as err:
        map_from_dict(data)
    assert "\n" not in str(err.value)



@pytest.mark.parametrize("player", [1, 2])
def test_a_discovery_token_where_units_start_is_refused(player):
    """Nobody enters a starting territory first: the owner stepping out and back in took it."""
    data = {"territories": {"x": {"season": "winter"}, "y": {"season": "winter"},
                            "z": {"season": "winter", "discovery": 3}},
            "adjacency": [["x", "y"], ["y", "z"]], "initiative": "y",
            "start": [{"player": 1, "territory": "x", "units": {"a": 1}},
                      {"player": 2, "territory": "z" if player == 2 else "y", "units": {"a": 1}}]}
    if player == 1:
        data["territories"]["x"]["discovery"] = 2
    with pytest.raises(DataError, match=f"territory '{'x' if player == 1 else 'z'}': a "
                                        f"discovery token where player {player}'s units start"):
        map_from_dict(data)
    data["territories"]["x"].pop("discovery", None)
    data["start"][1]["territory"] = "y"
    assert map_from_dict(data).discovery == (0, 0, 3)


_SCENARIO = ('initiative = "x"\n[territories]\nx = { season = "winter" }\n'
             '[[start]]\nplayer = 1\nterritory = "x"\nunits = { shroomling = 1 }\n'
             '[[start]]\nplayer = 2\nterritory = "x"\nunits = { shroomling = 1 }\n')


@pytest.mark.parametrize("at", ["[inf, nan]", "[0, nan]", "[-inf, 0]", "[1e300, 0]", "[-1, 2]",
                                "[true, 0]"])
def test_a_territory_position_must_be_a_finite_row_and_column(at, tmp_path):
    """at = [inf, nan] loaded, and map_svg drew the territory at x="nan" y="inf"."""
    path = tmp_path / "scenario.toml"
    path.write_text(_SCENARIO.replace('{ season = "winter" }',
                                      f'{{ season = "winter", at = {at} }}'))
    with pytest.raises(DataError, match=r"scenario.toml': territory 'x': bad position .*"
                                        r"expected \[row, col\]"):
        load_map(str(path))
    path.write_text(_SCENARIO.replace('{ season = "winter" }',
                                      '{ season = "winter", at = [2.5, 63] }'))
    assert load_map(str(path)).at == ((2.5, 63),)


_LIMITS = "[limits]\nlow = 1\nhigh = 1\nsum = 1\nproduct = 1\ndifference = 1\n"


@pytest.mark.parametrize("kind, text", [
    ("scenario", _SCENARIO.replace("units = { shroomling = 1 }", "units = 5", 1)),
    ("scenario", _SCENARIO.replace("units = { shroomling = 1 }", 'units = "ab"', 1)),
    ("scenario", "adjacency = 5\n" + _SCENARIO),
    ("scenario", 'adjacency = [[["x"], "x"]]\n' + _SCENARIO),
    ("scenario", _SCENARIO.replace('initiative = "x"', 'initiative = ["x"]')),
    ("scenario", _SCENARIO.replace('territory = "x"', 'territory = ["x"]', 1)),
    ("scenario", _SCENARIO.replace("player = 1", "player = 1.0")),
    ("scenario", 'start = 5\ninitiative = "x"\n[territories]\nx = { season = "winter" }\n'),
    ("board", "limits = 5\n[units.shroomling]\nstrength = 2\n"),
    ("board", "[units.shroomling]\nstrength = 2\n"),  # no limits: 17 rounds of passing
    ("board", "[limits]\nlow = 4\n[units.shroomling]\nstrength = 2\n"),
    ("board", "objectives = 5\n" + _LIMITS + "[units.shroomling]\nstrength = 2\n"),
    ("board", "bonus = 5\n" + _LIMITS + "[units.shroomling]\nstrength = 2\n"),
    ("layout", "bubbles = 5\n"),
    ("layout", "bubbles = [[0, 0], [0, 1]]\nlinks = 5\n"),
    ("layout", "rows = inf\ncols = 2\n"),
    ("layout", "rows = 1\ncols = 2\n[high_command]\nthreshold = inf\nsections = [1]\n"),
])
def test_malformed_data_files_are_data_errors(kind, text, tmp_path):
    # each raised TypeError, AttributeError or OverflowError (a traceback from the CLI)
    from lumicore.lumen import load_board, load_layout
    from solvers.cli import main

    path = tmp_path / f"{kind}.toml"
    path.write_text(text)
    load = {"scenario": load_map, "board": load_board, "layout": load_layout}[kind]
    with pytest.raises(DataError, match=str(path.name)):
        load(str(path))
    if kind != "layout":
        assert main(["lumen", "play", f"--{kind}", str(path)]) == 2


_BOARD = (Path(__file__).resolve().parents[1] / "lumicore" / "data" / "lumen_board.toml"
          ).read_text()


def _without(section: str) -> str:
    """The default board file with its ``[section]`` table (header and keys) left out."""
    lines, out, skipping = _BOARD.splitlines(), [], False
    for line in lines:
        if line.startswith("["):
            skipping = line == f"[{section}]"
        if not skipping:
            out.append(line)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("text, match", [
    # a board without these tables played with empty token pools: High Command gave nothing
    (_without("bonus"), r"no \[bonus\] table \(the bonus tokens of each kind: mercenary, "
                        r"secret, glow; 0 for none\)"),
    (_without("objectives"), r"no \[objectives\] table \(values = the VP of each objective "
                             r"token; \[\] for none\)"),
    (_without("limits"), r"no \[limits\] table"),
    (_BOARD.replace("glow = 5\n", ""), r"\[bonus\] leaves out glow \(give 0 to play without"),
    (_BOARD.replace("glow = 5", "glows = 5"), r"unknown key 'glows' in \[bonus\]"),
    (_BOARD.replace("values = [2, 3, 4, 5]", "vp = [2, 3, 4, 5]"),
     r"unknown key 'vp' in \[objectives\]"),
    (_BOARD.replace("values = [2, 3, 4, 5]", ""), r"\[objectives\] leaves out values"),
    (_BOARD.replace("rounds = 17", "round = 10"), r"unknown key 'round' in the board file"),
    (_BOARD.replace("strength = 3\nability", "strenght = 3\nability", 1),
     r"unknown key 'strenght' in \[units.mudshell\]"),
    (_BOARD.replace("moves = false", 'moves = "no"'), r"units.mudshell.moves must be true or "
                                                        r"false"),
])
def test_a_board_file_names_what_it_lacks(text, match, tmp_path):
    from lumicore.lumen import load_board

    path = tmp_path / "board.toml"
    path.write_text(text)
    with pytest.raises(DataError, match=match):
        load_board(path)


@pytest.mark.parametrize("old, new, match", [
    # each was accepted, and a game with the fastmc bot failed mid-game with "a board or
    # scenario number is out of the kernel's range (0..2**20)", naming neither file nor key
    ("values = [2, 3, 4, 5]", "values = [-2, 3]", r"objectives.values must be a list of at "
                                                  r"most 999 integers from 0 to 999"),
    ("values = [2, 3, 4, 5]", f"values = [{', '.join(['1'] * 1000)}]", "objectives.values"),
    ("strength = 2", "strength = 2000000", r"units.shroomling.strength must be an integer "
                                           r"from 0 to 999, not '2000000'"),
    ("strength = 1\nability = \"restore\"", "strength = -1\nability = \"restore\"",
     r"units.restorer.strength must be an integer from 0 to 999, not '-1'"),
    ("bag = 6", "bag = 1048576", r"units.shroomling.bag must be an integer from 0 to 999"),
    # a million rounds kept `lumen play` busy for hours
    ("rounds = 17", "rounds = 1000000", r"rounds must be an integer from 1 to 64"),
    ("rounds = 17", "rounds = 65", r"rounds must be an integer from 1 to 64"),
    ("supply = 3", "supply = 1048576", r"supply must be an integer from 0 to 999"),
    ("low = 4", "low = 1000", r"limits.low must be an integer from 0 to 999"),
    ("glow = 5", "glow = 1000", r"bonus.glow must be an integer from 0 to 999"),
    ("secret_vp = 2", "secret_vp = 1000", r"bonus.secret_vp must be an integer from 0 to 999"),
    ('layout = "default"', "layout = 5", r"layout must be text, not '5'"),
    ("rounds = 17", "rounds = 17\nname = 5", r"name must be text, not '5'"),
    # a drawn Mercenary on the map made a position that deserialize refused
    ("bag = 0\nspecial = true", "bag = 0\nspecial = false",
     "units.mercenary, the unit of the mercenary bonus tokens, must be special = true"),
    ("bag = 0\nspecial = true", "bag = 1\nspecial = true", "units.mercenary.*with bag = 0"),
])
def test_a_board_file_refuses_numbers_the_game_cannot_play(old, new, match, tmp_path):
    from lumicore.lumen import load_board

    assert old in _BOARD
    path = tmp_path / "board.toml"
    path.write_text(_BOARD.replace(old, new, 1))
    with pytest.raises(DataError, match="^'.*board.toml': " + match):
        load_board(path)


def test_a_game_at_every_bound_of_the_board_and_scenario_files_plays_in_the_kernel(tmp_path):
    """The bounds keep every count of a game inside the kernel's range (999 objective tokens
    of 999 VP collected add up to less than 2**20)."""
    from lumicore.lumen import kernel

    board = tmp_path / "board.toml"
    text = _BOARD.replace("rounds = 17", "rounds = 64").replace(
        "[2, 3, 4, 5]", f"[{', '.join(['999'] * 999)}]")
    for key in ("strength", "bag", "supply", "low", "high", "sum", "product", "difference",
                "mercenary", "secret", "glow", "secret_vp"):
        text = "\n".join(f"{key} = 999" if line.startswith(f"{key} = ") else line
                         for line in text.splitlines())
    merc = '[units.mercenary]\nstrength = 999\nability = "none"\nbag = '
    text = text.replace(merc + "999", merc + "0")  # the bonus tokens' unit has no bag
    board.write_text(text + "\n")
    scenario = tmp_path / "scenario.toml"
    scenario.write_text(_SCENARIO_A.replace("discovery = 2", "discovery = 999").replace(
        "shroomling = 2, mudshell = 1", "shroomling = 999, mudshell = 999"))
    state = GameState.new_game(scenario=str(scenario), board=str(board), seed=1)
    assert state.board.rounds == 64 and max(state.map.discovery) == 999
    assert sum(kernel.random_games(kernel.setup(state), 4, seed=1)[:3]) == 4
    later = play_randomly(state, seed=3, max_steps=400)
    assert sum(kernel.playouts(later, 4, seed=1)) == 4


_SCENARIO_A = (Path(__file__).resolve().parents[1] / "lumicore" / "data" /
               "lumen_scenario_a.toml").read_text()


@pytest.mark.parametrize("old, new, match", [
    # the scenario loader read its keys with get(): a misspelt one was left out silently
    ("adjacency = [", "adjacancy = [", r"unknown key 'adjacancy' in the scenario file"),
    ("discovery = 2 }", "discovry = 2 }", r"unknown key 'discovry' in territory 'a2'"),
    ('territory = "a1"', 'territory = "a1"\ncount = 2', r"unknown key 'count' in \[\[start\]\] #1"),
    ("player = 2\n", "", r"\[\[start\]\] #2 leaves out player"),
    ('name = "Primer Contacto"', "name = 5", r"name must be text, not '5'"),
    # numbers the kernel cannot take
    ("discovery = 2 }", "discovery = 1000 }", r"territories.a2.discovery must be an integer "
                                              r"from 0 to 999"),
    ("shroomling = 2, mudshell = 1 }", "shroomling = 1000 }",
     r"\[\[start\]\] #1: units.shroomling must be an integer from 1 to 999"),
    ('[[start]]\nplayer = 2', '[[start]]\nplayer = 1\nterritory = "a1"\n'
                               'units = { shroomling = 998 }\n[[start]]\nplayer = 2',
     r"player 1 starts with 1000 'shroomling' units, more than 999"),
    # malformed data (TypeError: unhashable type: 'list'), or 'int' has no attribute 'items'
    ('initiative = "b2"', 'initiative = ["b2"]', r"initiative must be a territory name, not "
                                                 r"\"\['b2'\]\""),
    ("units = { shroomling = 2, mudshell = 1 }", "units = 5", r"\[\[start\]\] #1: units must be "
                                                              r"a table of unit counts"),
    ('["a1", "a2"]', '[["a1"], "a2"]', r"bad adjacency entry \"\[\['a1'\], 'a2'\]\" \(expected a "
                                       r"pair of territory names\)"),
])
def test_a_scenario_file_names_a_bad_key(old, new, match, tmp_path):
    assert old in _SCENARIO_A
    path = tmp_path / "scenario.toml"
    path.write_text(_SCENARIO_A.replace(old, new, 1))
    with pytest.raises(DataError, match="^'.*scenario.toml': " + match) as err:
        load_map(str(path))
    assert "\n" not in str(err.value)


def test_a_start_unit_the_board_lacks_names_the_scenario_file(tmp_path):
    # it was "unknown unit 'dragon' (known: ...)": which file, of the scenario and the board?
    path = tmp_path / "scenario.toml"
    path.write_text(_SCENARIO_A.replace("shroomling = 2, mudshell = 1", "dragon = 2", 1))
    with pytest.raises(DataError, match=r"^'.*scenario.toml': start unit 'dragon' is not a unit "
                                        r"of the board 'default' \(known: shroomling, mudshell"):
        GameState.new_game(scenario=str(path))


def test_a_board_names_its_missing_or_bad_layout_file(tmp_path, monkeypatch):
    # a missing layout file was "'my_layout.toml' is neither a built-in name ('default') nor a
    # file" and an empty one "a command area has 1 to 64 bubbles, not 0": no board, no key
    path = tmp_path / "board.toml"
    path.write_text(_BOARD.replace('layout = "default"', 'layout = "my_layout.toml"'))
    with pytest.raises(DataError, match=r"^'.*board.toml': layout 'my_layout.toml' is neither a "
                                        r"built-in layout \('default'\) nor a file \(a path is "
                                        r"relative to the board file's folder\)"):
        load_board(path)
    (tmp_path / "my_layout.toml").write_text("bubbles = []\n")
    with pytest.raises(DataError, match=r"^'.*board.toml': layout: '.*my_layout.toml': a command "
                                        r"area has 1 to 64 bubbles, not 0$"):
        GameState.new_game(board=str(path))
    # a relative path is the board file's neighbour, whatever the working folder (it was
    # looked for in the working folder)
    (tmp_path / "my_layout.toml").write_text("rows = 2\ncols = 3\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "my_layout.toml").write_text("rows = 1\ncols = 1\n")
    monkeypatch.chdir(elsewhere)
    assert GameState.new_game(board=str(path)).sheets[0].layout.shape == (2, 3)


def test_a_board_plays_without_tokens_when_it_says_so(tmp_path):
    from lumicore.lumen import load_board

    path = tmp_path / "board.toml"
    path.write_text(_BOARD.replace("mercenary = 3\nsecret = 4\nglow = 5", "mercenary = 0\n"
                                   "secret = 0\nglow = 0").replace("[2, 3, 4, 5]", "[]"))
    assert load_board(path).objectives == () and not any(load_board(path).bonus.values())
    state = GameState.new_game(board=str(path), seed=1)
    assert state.bonus_pool == [0, 0, 0] and state.objective_pool == []
    assert play_randomly(state, seed=1).is_terminal()
    assert load_board(_write(tmp_path, _BOARD.replace("secret_vp = 2\n", ""))).secret_vp == 2


def _write(folder, text: str):
    path = folder / "other.toml"
    path.write_text(text)
    return path


def test_other_scenarios_load_from_files(tmp_path):
    path = tmp_path / "duel.toml"
    path.write_text('name = "Duel"\ninitiative = "m"\n'
                    'adjacency = [["w", "m"], ["m", "e"], ["m", "m2"]]\n'
                    '[territories]\nw = { season = "winter" }\nm = { season = "spring" }\n'
                    'e = { season = "autumn" }\nm2 = { season = "summer", discovery = 4 }\n'
                    '[[start]]\nplayer = 1\nterritory = "w"\nunits = { shroomling = 1 }\n'
                    '[[start]]\nplayer = 2\nterritory = "e"\nunits = { pusher = 2 }\n')
    state = GameState.new_game(scenario=str(path), seed=1)
    assert state.map.name == "Duel" and state.map.graph().number_of_edges() == 3
    end = play_randomly(state, seed=1)
    assert end.is_terminal()


@pytest.mark.parametrize("options, match", [({"players": 3}, "the integer 2 for Lumen"),
                                             ({"scenario": "Z"}, "'Z'"),
                                             ({"seed": -1}, "seed"),
                                             ({"board": 5}, "board")])
def test_bad_game_options(options, match):
    with pytest.raises(LumicoreError, match=match):
        GameState.new_game(**options)


# --- "Se sugiere comenzar con el Escenario A: Primer Contacto"

def test_scenario_a_is_the_default():
    state = GameState.new_game()
    assert state.map.name == "Primer Contacto" and state.options["scenario"] == "A"
    assert load_map("default") == load_map("A")


# --- "Si un valor crea o se añade a una línea de 2 o más números idénticos, puedes añadir
#     refuerzos al mapa hasta la cantidad de números nuevos"

def test_the_identical_gain_is_the_number_of_reinforcements():
    state = started(0)
    state.sheets[0] = Sheet.parse("3 . 3 . . / . . . . . / . . . . . / . . . . .")
    do(state, "roll", 1, 2)
    do(state, "choose", 2, 1)   # sum 3 joins two lone 3s: 3 reinforcements
    do(state, "choose", 0, 0)
    assert state.phase == "reinforce" and state.left == 3
    for _ in range(3):
        do(state, "place")
    assert state.units_on_map(0) == 6 and state.phase == "draw"


@pytest.mark.parametrize("player", [2, -1, "0", True, None])
def test_a_player_that_is_not_0_or_1_is_a_one_line_error(player):
    """score(-1) was player 2's score, score(2) / units_on_map(2) / strength_total(2) an
    IndexError and score('0') a TypeError."""
    state = GameState.new_game()
    for view in (state.score, state.units_on_map, state.strength_total,
                 lambda p: state.unit_list(0, p)):
        with pytest.raises(LumicoreError, match="player must be a player index from 0 to 1"):
            view(player)
    with pytest.raises(LumicoreError, match="territory must be an index"):
        state.unit_list(9, 0)


def test_a_board_file_edited_while_the_process_runs_is_read_again(tmp_path):
    """The loaded files were cached by path: the edited file kept its old contents."""
    import os

    from lumicore.data import data_dir
    from lumicore.lumen import load_board

    path = tmp_path / "board.toml"
    text = (data_dir() / "lumen_board.toml").read_text()
    path.write_text(text)
    assert load_board(path).supply == 3
    path.write_text(text.replace("supply = 3", "supply = 4"))
    stat = os.stat(path)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert load_board(path).supply == 4


# --- str(state): the whole state as text, repr the short form


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_str_shows_map_sheets_and_scores_at_every_point(seed):
    from lumicore.lumen.render import map_text

    state = GameState.new_game(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        text = str(state)
        lines = text.splitlines()
        assert text != repr(state)
        assert lines[0].startswith(f"Lumen round {state.round}/17, phase {state.phase}")
        assert map_text(state) in text
        for p in (0, 1):
            head = next(i for i, line in enumerate(lines)
                        if line.startswith(f"player {p + 1}: "))
            assert f"player {p + 1}: {state.score(p).total} VP" in lines[head]
            rows = str(state.sheets[p]).splitlines()
            assert lines[head + 1:head + 1 + len(rows)] == ["  " + r for r in rows]
        if state.is_terminal():
            break
        if not state.is_chance_node():
            assert f"to move (player {state.current_player() + 1})" in lines[0]
        state.apply_action(int(rng.choice(state.legal_actions())))
    w = state.winner()
    assert lines[0].endswith("nobody wins" if w is None else f"player {w + 1} wins")
