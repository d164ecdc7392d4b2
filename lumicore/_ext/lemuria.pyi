"""Type stubs of the compiled ``lumicore._ext.lemuria`` (ext/lemuria.pyx): each kernel writes
into its output arrays."""

import numpy as np

def building_turn(nxt: np.ndarray, succ: np.ndarray, gains: np.ndarray, only: int,
                  remodel: bool, bonus: np.ndarray, admin: int, out: np.ndarray) -> None: ...
def held_draws(nxt: np.ndarray, values: np.ndarray, succ: np.ndarray, least: np.ndarray,
               pending: np.ndarray, pg: np.ndarray, pf: np.ndarray, food: float,
               discard: np.ndarray, jm: int, must: int, housings: np.ndarray, onto: np.ndarray,
               reset: np.ndarray, free_swap: np.ndarray, out: np.ndarray,
               best_from: np.ndarray) -> None: ...
def waiting_release(drawn: np.ndarray, upto: np.ndarray, succ: np.ndarray, reset: np.ndarray,
                    closed: np.ndarray, best_from: np.ndarray) -> None: ...
