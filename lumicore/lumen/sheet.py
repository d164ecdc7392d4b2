"""The command area of a Lumen player board (a :class:`Sheet`) and its High Command row.

A sheet is immutable: :meth:`Sheet.place` returns a new one. Its notation has one line per row
(or rows separated by ``/``), cells separated by whitespace, ``.`` for an empty bubble, an
integer 0..36 for a written value and ``-`` where a layout with holes has no bubble. Cells are
``(row, col)`` from the top left, 0-based. A layout that is not a plain grid (other neighbours,
another High Command row) adds ``links`` and ``high_command`` lines after the rows, so that the
notation of any sheet reads back as that sheet.

>>> sheet = Sheet.parse("4 . . . . / 4 . . . . / . . . . . / . . . . .")
>>> sheet.gains((0, 1), 4)
Gains(identical=1, sequence=0)
>>> sheet.gains((0, 1), 5)
Gains(identical=0, sequence=2)
>>> str(sheet.place((0, 1), 5)).splitlines()[0]
'4 5 . . .'
>>> Sheet.parse(str(sheet)) == sheet
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from lumicore.checks import check_int, check_known_keys, is_integer
from lumicore.data import plural, shorten
from lumicore.errors import DataError, IllegalMoveError, LumicoreError, NotationError
from lumicore.lumen import reference
from lumicore.lumen._files import (
    every_key,
    file_loader,
    int_key,
    malformed_is_data_error,
    table_key,
    text_key,
)
from lumicore.lumen.dice import MAX_VALUE

__all__ = ["Cell", "Gains", "HighCommand", "Layout", "Sheet", "load_layout", "grid_layout",
           "LAYOUTS"]

Cell = tuple[int, int]
"""A bubble of the command area as ``(row, col)`` from the top left, 0-based."""
LAYOUTS = {"default": "lumen_sheet.toml"}
"""Built-in command-area layouts by name."""
MAX_BUBBLES = 64
"""The most bubbles a layout may have (the kernel keeps a sheet in one 64-bit word)."""
MAX_THRESHOLD = 999_999_999
"""The largest High Command threshold either way (nine digits, what the notation reads)."""


def _whole_numbers(values: Any, what: str) -> tuple[int, ...]:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise LumicoreError(f"{what} must be a sequence of integers, got {shorten(values)}")
    out = tuple(values)
    if not all(is_integer(v) for v in out):
        raise LumicoreError(f"{what} must be integers, got {shorten(out)}")
    return tuple(int(v) for v in out)


class Gains(NamedTuple):
    """What writing a value earns: the most reinforcements (``identical``) and the most move /
    activate / glow choices (``sequence``)."""

    identical: int
    sequence: int


@dataclass(frozen=True)
class HighCommand:
    """The High Command row: a value of ``threshold`` or more crosses the next box; finishing a
    section gives a bonus token, and an objective token too for ``objective_sections``."""

    threshold: int = 7
    sections: tuple[int, ...] = (2, 2, 2, 2, 2)
    objective_sections: tuple[int, ...] | None = None
    """Sections (0-based) whose completion also gives an objective token; None: the last two
    (the rulebook's "+ una ficha de Objetivo para las 2 áreas finales")."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "threshold", check_int(
            self.threshold, "High Command threshold", -MAX_THRESHOLD, MAX_THRESHOLD,
            "an integer of at most nine digits"))
        sections = _whole_numbers(self.sections, "High Command sections")
        if not sections or min(sections) < 1:
            raise LumicoreError(f"every High Command section needs a box, got "
                                f"{shorten(sections)}")
        if sum(sections) > MAX_BUBBLES:
            raise LumicoreError(f"a High Command row has at most {MAX_BUBBLES} boxes (one per "
                                f"bubble a sheet may have), got {shorten(sum(sections))}")
        objectives = (tuple(range(max(0, len(sections) - 2), len(sections)))
                      if self.objective_sections is None
                      else _whole_numbers(self.objective_sections, "objective sections"))
        bad = [s for s in objectives if not 0 <= s < len(sections)]
        if bad:
            raise LumicoreError(f"objective section {bad[0]} is not a section "
                                f"(0..{len(sections) - 1})")
        object.__setattr__(self, "sections", sections)
        object.__setattr__(self, "objective_sections", objectives)

    @property
    def objectives(self) -> tuple[int, ...]:
        """The sections giving an objective token (``objective_sections`` with the default
        filled in)."""
        assert self.objective_sections is not None  # set by __post_init__
        return self.objective_sections

    @property
    def boxes(self) -> int:
        """How many boxes the row has."""
        return sum(self.sections)

    def completed(self, crossed: int) -> int:
        """How many sections are complete once ``crossed`` boxes are crossed.

        >>> HighCommand().completed(5)
        2
        """
        done, total = 0, 0
        for size in self.sections:
            total += size
            if crossed < total:
                break
            done += 1
        return done


@dataclass(frozen=True)
class Layout:
    """The bubbles of a command area (``cells`` as ``(row, col)``), which are neighbours
    (``neighbors[i]``: indices of the bubbles next to bubble ``i``) and the High Command row."""

    cells: tuple[Cell, ...]
    neighbors: tuple[tuple[int, ...], ...]
    high_command: HighCommand = HighCommand()
    name: str = field(default="custom", compare=False)
    _notation: tuple[str, ...] = field(default=(), init=False, repr=False, compare=False)
    """The lines after the rows of a sheet's notation that describe this layout."""
    masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Each bubble's neighbours as a bit mask (the kernel's form)."""

    def __post_init__(self) -> None:
        _check_layout(self)
        # each bubble's neighbours in ascending order, as the notation reads them back
        object.__setattr__(self, "neighbors", tuple(tuple(sorted(n)) for n in self.neighbors))
        object.__setattr__(self, "_index", {c: i for i, c in enumerate(self.cells)})
        masks = [sum(1 << j for j in nbrs) for nbrs in self.neighbors]
        object.__setattr__(self, "masks", tuple(masks))
        object.__setattr__(self, "_notation", self._notation_lines())

    def _notation_lines(self) -> tuple[str, ...]:
        """What a sheet's notation says after its rows so that it reads back as this layout:
        the links unless the neighbours are the orthogonal ones, the High Command row unless
        it is the default one."""
        lines = []
        if tuple(map(sorted, self.neighbors)) != tuple(map(sorted, _orthogonal(self.cells))):
            pairs = [(self.cells[i], self.cells[j]) for i, nbrs in enumerate(self.neighbors)
                     for j in nbrs if i < j]
            lines.append(" ".join(["links"] + [f"{a},{b}-{c},{d}" for (a, b), (c, d) in pairs]))
        hc = self.high_command
        if hc != HighCommand():
            objectives = ",".join(map(str, hc.objective_sections or ())) or "none"
            lines.append(f"high_command threshold={hc.threshold} "
                         f"sections={','.join(map(str, hc.sections))} "
                         f"objective_sections={objectives}")
        return tuple(lines)

    def index(self, cell: Any) -> int:
        """The bubble index of ``cell``, ``(row, column)`` (integers, numpy's too; a bool or a
        float is none); :class:`LumicoreError` naming it if there is none."""
        try:
            row, column = cell
            if is_integer(row) and is_integer(column):
                return self._index[(int(row), int(column))]  # type: ignore[attr-defined]
        except (KeyError, TypeError, ValueError):
            pass
        raise LumicoreError(f"no bubble at {shorten(cell)} on the {self.name} sheet")

    @property
    def shape(self) -> tuple[int, int]:
        """Rows and columns the notation spans."""
        return (max(r for r, _ in self.cells) + 1, max(c for _, c in self.cells) + 1)


def _is_index(x: object, size: int) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < size


def _check_layout(layout: Layout) -> None:
    """LumicoreError naming the first thing wrong with a layout built in Python (the layout
    files and the notation check their own words first): 1 to 64 distinct bubbles of
    coordinates 0..63, a tuple of neighbours per bubble, each another bubble's index, both
    ways, and a :class:`HighCommand`."""
    cells, neighbors = layout.cells, layout.neighbors
    if not isinstance(cells, tuple) or not 1 <= len(cells) <= MAX_BUBBLES:
        raise LumicoreError(f"a layout's cells are a tuple of 1 to {MAX_BUBBLES} (row, col), got "
                            f"{shorten(cells)}")
    for cell in cells:
        if not (isinstance(cell, tuple) and len(cell) == 2
                and all(_is_index(x, MAX_BUBBLES) for x in cell)):
            raise LumicoreError(f"bad bubble {shorten(cell)} (expected (row, col), each 0..63)")
    _check_once(cells, LumicoreError, "")
    if list(cells) != sorted(cells):
        raise LumicoreError("a layout's bubbles are listed in reading order (by row, then "
                            "column), as its sheets' notation reads them")
    if not isinstance(neighbors, tuple) or len(neighbors) != len(cells):
        raise LumicoreError(f"a layout needs a tuple of neighbours for each of its {len(cells)} "
                            f"bubbles, got {shorten(neighbors)}")
    for i, nbrs in enumerate(neighbors):
        if not isinstance(nbrs, tuple) or not all(_is_index(j, len(cells)) for j in nbrs) \
                or i in nbrs:
            raise LumicoreError(f"neighbours of bubble {cells[i]} must be indices of other "
                                f"bubbles, got {shorten(nbrs)}")
        for j in nbrs:
            if i not in neighbors[j]:
                raise LumicoreError(f"bubble {cells[j]} is a neighbour of {cells[i]} but not "
                                    "the other way round")
    if not isinstance(layout.high_command, HighCommand):
        raise LumicoreError(f"high_command must be a HighCommand, got "
                            f"{shorten(layout.high_command)}")


def _orthogonal(cells: tuple[Cell, ...]) -> tuple[tuple[int, ...], ...]:
    index = {c: i for i, c in enumerate(cells)}
    return tuple(tuple(index[(r + dr, c + dc)] for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
                       if (r + dr, c + dc) in index) for r, c in cells)


def _linked(cells: list[Cell], links: list[tuple[Cell, Cell]]) -> tuple[tuple[int, ...], ...]:
    """The neighbours of sorted ``cells`` joined by ``links`` (pairs of bubbles of ``cells``)."""
    index = {c: i for i, c in enumerate(cells)}
    nbrs: list[set[int]] = [set() for _ in cells]
    for a, b in links:
        nbrs[index[a]].add(index[b])
        nbrs[index[b]].add(index[a])
    return tuple(tuple(sorted(n)) for n in nbrs)


def _check_once(cells: Sequence[Cell], error: type[LumicoreError], prefix: str) -> None:
    """``error`` naming the first bubble ``cells`` list twice (``prefix`` before the message)."""
    seen: set[Cell] = set()
    for cell in cells:
        if cell in seen:
            raise error(f"{prefix}bubble {cell} is listed twice")
        seen.add(cell)


def grid_layout(cells: list[Cell] | tuple[Cell, ...], high_command: HighCommand = HighCommand(),
                name: str = "custom") -> Layout:
    """A layout of the given bubbles with orthogonal neighbours.

    >>> grid_layout([(0, 0), (0, 1), (1, 1)]).neighbors
    ((1,), (0, 2), (1,))
    """
    if isinstance(cells, str) or not isinstance(cells, list | tuple):
        raise DataError(f"bubbles must be a list of (row, col), got {shorten(cells)}")
    if not all(isinstance(c, list | tuple) and len(c) == 2
               and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in c)
               for c in cells):
        raise DataError(f"bubbles must be (row, col) pairs of integers >= 0, got "
                        f"{shorten(cells)}")
    cells = tuple(sorted((r, c) for r, c in cells))
    _check_once(cells, DataError, "")
    if not 1 <= len(cells) <= MAX_BUBBLES:
        raise DataError(f"cells: a command area has 1 to {MAX_BUBBLES} bubbles, not "
                        f"{len(cells)}")
    return Layout(cells, _orthogonal(cells), high_command, name)


def _cell(raw: Any, source: object) -> Cell:
    if (not isinstance(raw, list) or len(raw) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 64
                       for x in raw)):
        raise DataError(f"{shorten(source)}: bad bubble {shorten(raw)} (expected [row, col])")
    return (raw[0], raw[1])


LAYOUT_KEYS = ("name", "rows", "cols", "bubbles", "links", "high_command")
HIGH_COMMAND_KEYS = ("threshold", "sections", "objective_sections")


def _high_command(data: dict[str, Any], source: object) -> HighCommand:
    """The ``[high_command]`` table of a layout file (the default row when left out)."""
    if "high_command" not in data:
        return HighCommand()
    raw = table_key(data, "high_command", source, "the High Command row")
    check_known_keys(raw, HIGH_COMMAND_KEYS, "[high_command]", source)
    every_key(raw, ("sections",), "[high_command]", source, "the boxes of each section")
    for key in ("sections", "objective_sections"):
        if key in raw and not isinstance(raw[key], list):
            raise DataError(f"{shorten(source)}: high_command.{key} must be a list of "
                            f"integers, not {shorten(raw[key])}")
    objectives = raw.get("objective_sections")  # left out: the last two (HighCommand)
    try:
        return HighCommand(raw.get("threshold", 7), tuple(raw["sections"]),
                           None if objectives is None else tuple(objectives))
    except LumicoreError as exc:
        raise DataError(f"{shorten(source)}: {exc}") from None


def _bubble_count(n: int, source: object) -> None:
    if not 1 <= n <= MAX_BUBBLES:
        raise DataError(f"{shorten(source)}: a command area has 1 to {MAX_BUBBLES} bubbles, "
                        f"not {n}")


@malformed_is_data_error
def layout_from_dict(data: dict[str, Any], source: object = "layout") -> Layout:
    """A layout from the tables of a layout file (format in ``lumen_sheet.toml``): a grid
    (``rows`` and ``cols``) or a graph (``bubbles``, optionally ``links``), not both; an
    unknown key, at the top or in ``[high_command]``, is an error."""
    check_known_keys(data, LAYOUT_KEYS, "the layout file", source)
    hc = _high_command(data, source)
    name = text_key(data, "name", "custom", "", source)
    if "bubbles" in data:
        grid = [k for k in ("rows", "cols") if k in data]
        if grid:
            raise DataError(f"{shorten(source)}: give rows and cols, or bubbles, not both "
                            f"({grid[0]} and bubbles)")
        if not isinstance(data["bubbles"], list):
            raise DataError(f"{shorten(source)}: bubbles must be a list of [row, col], not "
                            f"{shorten(data['bubbles'])}")
        cells = [_cell(c, source) for c in data["bubbles"]]
        _check_once(cells, DataError, f"{shorten(source)}: ")
        _bubble_count(len(cells), source)
        if "links" not in data:
            return grid_layout(cells, hc, name)
        if not isinstance(data["links"], list):
            raise DataError(f"{shorten(source)}: links must be a list of pairs of bubbles, not "
                            f"{shorten(data['links'])}")
        cells = sorted(cells)
        links = []
        for link in data["links"]:
            if not isinstance(link, list) or len(link) != 2:
                raise DataError(f"{shorten(source)}: bad link {shorten(link)}")
            a, b = (_cell(c, source) for c in link)
            for c in (a, b):
                if c not in cells:
                    raise DataError(f"{shorten(source)}: link names {c}, which is not a bubble")
            links.append((a, b))
        return Layout(tuple(cells), _linked(cells, links), hc, name)
    if "links" in data:
        raise DataError(f"{shorten(source)}: links join bubbles: give bubbles too")
    if "rows" not in data or "cols" not in data:
        raise DataError(f"{shorten(source)}: give rows and cols, or bubbles")
    rows, cols = (int_key(data, key, 0, "", source, low=1, high=MAX_BUBBLES)
                  for key in ("rows", "cols"))
    if rows * cols > MAX_BUBBLES:
        raise DataError(f"{shorten(source)}: a {rows} x {cols} grid is not 1 to 64 bubbles")
    return grid_layout([(r, c) for r in range(rows) for c in range(cols)], hc, name)


_load = file_loader(Layout, layout_from_dict, LAYOUTS, "layout", cache=32)


def load_layout(name_or_path: str | Path | Layout = "default") -> Layout:
    """A command-area layout: a built-in name (``"default"``: 4 x 5), a layout file, or a
    :class:`Layout` (returned as is).

    >>> load_layout().shape, load_layout().high_command.boxes
    ((4, 5), 10)
    """
    return _load(name_or_path)


LAYOUT_LINES = ("links", "high_command")
"""The words that start the lines of a sheet's notation describing its layout."""
_LINK = re.compile(r"(\d{1,2}),(\d{1,2})-(\d{1,2}),(\d{1,2})", re.ASCII)
_NUMBERS = re.compile(r"none|-?\d{1,9}(,-?\d{1,9})*", re.ASCII)


def _drawn_layout(cells: list[Cell], extra: dict[str, list[str]]) -> Layout:
    """The layout of the bubbles ``cells`` with the ``links`` and ``high_command`` lines of a
    sheet's notation (their words after the first)."""
    if not 1 <= len(cells) <= MAX_BUBBLES:
        raise NotationError(f"a command area has 1 to {MAX_BUBBLES} bubbles, not {len(cells)}")
    links = []
    for word in extra.get("links", []):
        m = _LINK.fullmatch(word)
        if not m:
            raise NotationError(f"bad link {shorten(word)} (expected row,col-row,col)")
        a, b = (int(m[1]), int(m[2])), (int(m[3]), int(m[4]))
        if a not in cells or b not in cells or a == b:
            raise NotationError(f"link {word} does not join two bubbles of the sheet")
        links.append((a, b))
    given: dict[str, Any] = {}
    for word in extra.get("high_command", []):
        key, _, value = word.partition("=")
        if key not in ("threshold", "sections", "objective_sections") or key in given \
                or not _NUMBERS.fullmatch(value):
            raise NotationError(f"bad high_command entry {shorten(word)} (expected threshold=N,"
                                " sections=N,N,... or objective_sections=N,...)")
        numbers = tuple(int(v) for v in value.split(",") if v and v != "none")
        given[key] = numbers[0] if key == "threshold" and len(numbers) == 1 else numbers
    try:
        hc = HighCommand(**given)
    except LumicoreError as exc:
        raise NotationError(f"bad high_command line: {exc}") from None
    neighbors = _linked(cells, links) if "links" in extra else _orthogonal(tuple(cells))
    return Layout(tuple(cells), neighbors, hc)


def _check_value(value: object) -> int:
    if not is_integer(value) or not 0 <= value <= MAX_VALUE:
        raise IllegalMoveError(f"value {shorten(value)} is not a selection value 0..{MAX_VALUE}")
    return int(value)


class Sheet:
    """A player's command area: which bubble holds which value (immutable, hashable)."""

    __slots__ = ("layout", "values", "_packed")
    layout: Layout
    values: tuple[int | None, ...]
    _packed: bytes | None

    def __init__(self, layout: Layout, values: tuple[int | None, ...] | None = None) -> None:
        if not isinstance(layout, Layout):
            raise LumicoreError(f"layout must be a Layout, got {shorten(layout)}")
        if values is None:
            values = (None,) * len(layout.cells)
        elif isinstance(values, list | tuple):
            values = tuple(values)
        else:
            raise LumicoreError(f"values must be a tuple or list of values (None or "
                                f"0..{MAX_VALUE}), one per bubble, got {shorten(values)}")
        if len(values) != len(layout.cells):
            raise LumicoreError(f"{len(values)} values for {len(layout.cells)} bubbles")
        values = tuple(None if v is None else _check_value(v) for v in values)
        object.__setattr__(self, "layout", layout)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "_packed", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Sheet is immutable")

    def __reduce__(self) -> tuple[type[Sheet], tuple[Layout, tuple[int | None, ...]]]:
        # pickling (process pools, copy.deepcopy) rebuilds through __init__, which checks
        return (Sheet, (self.layout, self.values))

    def __copy__(self) -> Sheet:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Sheet:
        return self

    @classmethod
    def new(cls, layout: str | Path | Layout = "default") -> Sheet:
        """An empty sheet of a layout (name, file or :class:`Layout`).

        >>> str(Sheet.new()).splitlines()[0]
        '. . . . .'
        """
        return cls(load_layout(layout))

    @classmethod
    def parse(cls, text: str, layout: str | Path | Layout | None = None) -> Sheet:
        """Read the notation. The bubbles are the text's non-``-`` cells; after the rows a
        ``links`` line gives their neighbours (orthogonal ones when left out) and a
        ``high_command`` line the High Command row (the default one when left out): what
        ``str()`` writes for a layout that is no plain grid. Without those lines and without
        ``layout``, a 4 x 5 text is the default layout. With ``layout`` (a name, file or
        :class:`Layout`) the text must draw exactly its bubbles, and its layout lines, if any,
        must describe that layout."""
        if not isinstance(text, str):
            raise NotationError(f"a sheet is text, got {shorten(text)}")
        rows: list[list[str]] = []
        extra: dict[str, list[str]] = {}
        for line in re.split(r"[/\n]", text):
            words = line.split()
            if words and words[0] in LAYOUT_LINES:
                if words[0] in extra:
                    raise NotationError(f"the {words[0]} line is given twice")
                extra[words[0]] = words[1:]
            elif words and extra:
                raise NotationError(f"a row after the {', '.join(extra)} line: "
                                    f"{shorten(line.strip())}")
            elif words:
                rows.append(words)
        if not rows:
            raise NotationError("empty sheet notation")
        for r, row in enumerate(rows):
            if len(row) != len(rows[0]):  # no silent hole: '-' marks one
                raise NotationError(f"row {r + 1} has {plural(len(row), 'cell')} where row 1 "
                                    f"has {len(rows[0])} (a '-' marks a cell that is no bubble)")
        cells: dict[Cell, int | None] = {}
        for r, row in enumerate(rows):
            for c, token in enumerate(row):
                if token == "-":
                    continue
                if token == ".":
                    cells[(r, c)] = None
                elif re.fullmatch(r"\d{1,9}", token, re.ASCII):  # int() takes other digits
                    if int(token) > MAX_VALUE:
                        raise NotationError(f"value {token} at {(r, c)} is not a selection value "
                                            f"0..{MAX_VALUE}")
                    cells[(r, c)] = int(token)
                else:
                    raise NotationError(f"bad sheet token {shorten(token)} at {(r, c)}")
        drawn = _drawn_layout(sorted(cells), extra) if extra else None
        if layout is not None:
            lay = load_layout(layout)
            if sorted(cells) != list(lay.cells):
                raise NotationError(f"the notation does not draw the bubbles of the {lay.name} "
                                    "layout")
            if drawn is not None and drawn != lay:
                raise NotationError(f"the notation's {' and '.join(extra)} lines do not "
                                    f"describe the {lay.name} layout")
        elif drawn is not None:
            lay = drawn
        else:
            default = load_layout("default")
            lay = default if sorted(cells) == list(default.cells) else grid_layout(list(cells))
        return cls(lay, tuple(cells[c] for c in lay.cells))

    def __str__(self) -> str:
        rows, cols = self.layout.shape
        grid = [["-"] * cols for _ in range(rows)]
        for (r, c), v in zip(self.layout.cells, self.values, strict=True):
            grid[r][c] = "." if v is None else str(v)
        return "\n".join([" ".join(row) for row in grid] + list(self.layout._notation))

    def __repr__(self) -> str:
        return f"Sheet.parse({' / '.join(str(self).splitlines())!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Sheet) and self.values == other.values
                and self.layout == other.layout)

    def __hash__(self) -> int:
        return hash((self.values, self.layout.cells))

    def __getitem__(self, cell: Cell) -> int | None:
        return self.values[self.layout.index(cell)]

    def _repr_svg_(self) -> str:
        from lumicore.lumen.render import sheet_svg

        return sheet_svg(self)

    def packed(self) -> bytes:
        """One byte per bubble: its value, 255 when empty (the kernel's form)."""
        packed = self._packed
        if packed is None:
            packed = bytes(255 if v is None else v for v in self.values)
            object.__setattr__(self, "_packed", packed)
        return packed

    @property
    def written(self) -> int:
        """How many bubbles hold a value."""
        return sum(v is not None for v in self.values)

    def legal_indices(self) -> list[int]:
        """Indices of the bubbles a value may be written in."""
        return reference.legal_cells(self.values, self.layout.neighbors)

    def legal_cells(self) -> list[Cell]:
        """The bubbles a value may be written in: any on an empty sheet, otherwise the empty
        bubbles next to a written one.

        >>> Sheet.parse(". . / . 3").legal_cells()
        [(0, 1), (1, 0)]
        """
        return [self.layout.cells[i] for i in self.legal_indices()]

    def _check_move(self, cell: object, value: object) -> tuple[int, int]:
        """The bubble index of ``cell`` and ``value`` as an int, if the move is legal."""
        i = self.layout.index(cell)
        value = _check_value(value)
        if self.values[i] is not None:
            raise IllegalMoveError(f"bubble {tuple(cell)} already holds {self.values[i]}")  # type: ignore[arg-type]
        if i not in self.legal_indices():
            raise IllegalMoveError(f"bubble {tuple(cell)} is not next to a written bubble")  # type: ignore[arg-type]
        return i, value

    def gains(self, cell: Cell, value: int) -> Gains:
        """The identical and sequence gains of writing ``value`` in ``cell`` (see
        :func:`lumicore.lumen.reference.gains`)."""
        i, value = self._check_move(cell, value)
        return Gains(*reference.gains(self.values, self.layout.neighbors, i, value))

    def place(self, cell: Cell, value: int) -> Sheet:
        """The sheet with ``value`` written in ``cell`` (which must be legal)."""
        i, value = self._check_move(cell, value)
        return Sheet._checked(self.layout, self.values[:i] + (value,) + self.values[i + 1:])

    @classmethod
    def _checked(cls, layout: Layout, values: tuple[int | None, ...]) -> Sheet:
        """A sheet of values already checked (no validation)."""
        sheet = object.__new__(cls)
        object.__setattr__(sheet, "layout", layout)
        object.__setattr__(sheet, "values", values)
        object.__setattr__(sheet, "_packed", None)
        return sheet

    @property
    def crossed(self) -> int:
        """High Command boxes crossed: one per written value of the threshold or more (capped
        at the row's length)."""
        hc = self.layout.high_command
        return min(hc.boxes, sum(v is not None and v >= hc.threshold for v in self.values))

    @property
    def sections_completed(self) -> int:
        """Complete High Command sections."""
        return self.layout.high_command.completed(self.crossed)

    def new_sections(self, value: int) -> tuple[int, ...]:
        """The High Command sections that writing ``value`` completes (none or one).

        >>> Sheet.parse("7 . / . .").new_sections(9), Sheet.parse("7 . / . .").new_sections(6)
        ((0,), ())
        """
        hc = self.layout.high_command
        if _check_value(value) < hc.threshold:
            return ()
        before = self.sections_completed
        after = hc.completed(min(hc.boxes, self.crossed + 1))
        return tuple(range(before, after))
