"""The Cython kernel against the plain-Python reference on random sheets (grids and graphs)
and random maps, and its door rejecting bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

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
    with pytest.raises(ValueError):
        raw.legal_mask(bytes([255, 255]), nbr)
    with pytest.raises(ValueError):
        raw.gains(bytes([255] * 3), nbr, 3, 1)
    with pytest.raises(ValueError):
        raw.gains(bytes([1, 255, 255]), nbr, 0, 1)
