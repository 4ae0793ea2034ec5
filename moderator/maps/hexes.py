"""Hex-grid geometry for CCRR-numbered maps of flat-topped hexes standing in vertical columns.

A hex is named ``CCRR``: two digits of column, two digits of row ("2930" is column 29, row 30).
Columns increase eastward.  Hexes of one column touch along their flat top and bottom sides; every
other column is shifted by half a hex.  Two parameters describe a printed map:

* ``parity``: which columns are shifted half a hex *towards higher row numbers*.  ``"even"`` (the
  default, "even-q") means hex ``1429`` (even column) sits half a hex beyond ``1529`` in the row
  direction, so the neighbours of an even column in the next column are rows ``r`` and ``r+1`` and
  those of an odd column are rows ``r-1`` and ``r``.  ``"odd"`` is the mirror image.
* ``rows_increase``: ``"north"`` (row 01 is the southern edge) or ``"south"`` (row 01 is the
  northern edge).  Only compass names and pixel coordinates depend on it; adjacency does not.

Everything here is pure and works on hex ids (``"2930"``) or on ``(column, row)`` tuples.
Functions that take hex ids return hex ids; the ``*_xy`` helpers of `HexLayout` return pixels with
y growing downwards (image convention), north at the top.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

Coord = tuple[int, int]
HexLike = str | Coord | Sequence[int]
Parity = Literal["even", "odd"]
RowsIncrease = Literal["north", "south"]

#: Compass directions of the six sides of a flat-topped hex, clockwise from north.
DIRECTIONS: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")

SQRT3 = math.sqrt(3.0)


# --------------------------------------------------------------------------------------------
# hex ids


def parse_hex(h: HexLike) -> Coord:
    """``"2930"`` -> ``(29, 30)``; tuples pass through.  Raises ValueError on anything else."""
    if isinstance(h, str):
        text = h.strip()
        if len(text) != 4 or not text.isdigit():
            raise ValueError(f"hex id {h!r} must be four digits CCRR")
        return int(text[:2]), int(text[2:])
    try:
        col, row = h
    except (TypeError, ValueError):
        raise ValueError(f"not a hex: {h!r}") from None
    if isinstance(col, bool) or isinstance(row, bool) or not isinstance(col, int) or not isinstance(row, int):
        raise ValueError(f"not a hex: {h!r}")
    return col, row


def format_hex(h: HexLike) -> str:
    """``(29, 30)`` -> ``"2930"``.  Columns and rows must be 0..99."""
    col, row = parse_hex(h)
    if not (0 <= col <= 99 and 0 <= row <= 99):
        raise ValueError(f"hex {(col, row)} cannot be written as CCRR")
    return f"{col:02d}{row:02d}"


def is_hex_id(text: object) -> bool:
    return isinstance(text, str) and len(text) == 4 and text.isdigit()


def hexside_key(a: HexLike, b: HexLike) -> str:
    """Canonical name of the side between two hexes, ``"lo-hi"`` (no adjacency check)."""
    x, y = format_hex(a), format_hex(b)
    return f"{x}-{y}" if x <= y else f"{y}-{x}"


def parse_hexside(key: str) -> tuple[str, str]:
    """``"1005-1105"`` -> ``("1005", "1105")`` (as written; use `hexside_key` to canonicalise)."""
    parts = key.split("-") if isinstance(key, str) else []
    if len(parts) != 2 or not all(is_hex_id(p) for p in parts):
        raise ValueError(f"hexside {key!r} must be written AAAA-BBBB")
    return parts[0], parts[1]


# --------------------------------------------------------------------------------------------
# the grid


@dataclass(frozen=True)
class HexGrid:
    """Topology and compass of a CCRR grid; see the module docstring for the two parameters."""

    parity: Parity = "even"
    rows_increase: RowsIncrease = "north"

    def __post_init__(self) -> None:
        if self.parity not in ("even", "odd"):
            raise ValueError(f"parity must be 'even' or 'odd', not {self.parity!r}")
        if self.rows_increase not in ("north", "south"):
            raise ValueError(f"rows_increase must be 'north' or 'south', not {self.rows_increase!r}")

    # -- coordinates -------------------------------------------------------------------------

    def shifted(self, col: int) -> bool:
        """True if this column sits half a hex towards higher row numbers."""
        return (col % 2 == 0) if self.parity == "even" else (col % 2 == 1)

    def yhex(self, h: HexLike) -> float:
        """Position of the hex centre along the row axis, in hex heights (row + 0 or + 0.5)."""
        col, row = parse_hex(h)
        return row + (0.5 if self.shifted(col) else 0.0)

    def to_axial(self, h: HexLike) -> Coord:
        """Axial coordinates (q, r) with q = column; distance-preserving."""
        col, row = parse_hex(h)
        if self.parity == "even":
            return col, row - (col + (col & 1)) // 2
        return col, row - (col - (col & 1)) // 2

    def from_axial(self, q: int, r: int) -> Coord:
        if self.parity == "even":
            return q, r + (q + (q & 1)) // 2
        return q, r + (q - (q & 1)) // 2

    # -- adjacency ---------------------------------------------------------------------------

    def neighbour_coords(self, h: HexLike) -> tuple[Coord, ...]:
        """The six neighbours (unbounded), clockwise from the compass north side."""
        col, row = parse_hex(h)
        up = 1 if self.rows_increase == "north" else -1  # row step that goes north
        # in row space: same column +-1; next/previous column rows (r, r+1) if shifted else (r-1, r)
        hi, lo = (row + 1, row) if self.shifted(col) else (row, row - 1)
        if up == 1:
            return ((col, row + 1), (col + 1, hi), (col + 1, lo), (col, row - 1), (col - 1, lo), (col - 1, hi))
        return ((col, row - 1), (col + 1, lo), (col + 1, hi), (col, row + 1), (col - 1, hi), (col - 1, lo))

    def neighbours(self, h: HexLike) -> tuple[str, ...]:
        """Neighbour hex ids (unbounded; only those writable as CCRR), clockwise from north."""
        return tuple(format_hex(c) for c in self.neighbour_coords(h) if 0 <= c[0] <= 99 and 0 <= c[1] <= 99)

    def adjacent(self, a: HexLike, b: HexLike) -> bool:
        return parse_hex(b) in self.neighbour_coords(a)

    def direction(self, a: HexLike, b: HexLike) -> str:
        """Compass name of the side of `a` that `b` lies beyond (they must be adjacent)."""
        target = parse_hex(b)
        for name, c in zip(DIRECTIONS, self.neighbour_coords(a), strict=True):
            if c == target:
                return name
        raise ValueError(f"{format_hex(a)} and {format_hex(b)} are not adjacent")

    def hexside(self, a: HexLike, b: HexLike) -> str:
        """Canonical key ``"lo-hi"`` of the side shared by two adjacent hexes."""
        if not self.adjacent(a, b):
            raise ValueError(f"{format_hex(a)} and {format_hex(b)} are not adjacent")
        return hexside_key(a, b)

    # -- distance, lines and rings -----------------------------------------------------------

    def distance(self, a: HexLike, b: HexLike) -> int:
        q1, r1 = self.to_axial(a)
        q2, r2 = self.to_axial(b)
        dq, dr = q1 - q2, r1 - r2
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def line(self, a: HexLike, b: HexLike) -> tuple[str, ...]:
        """Hexes on the straight line from `a` to `b`, both included, each adjacent to the next."""
        q1, r1 = self.to_axial(a)
        q2, r2 = self.to_axial(b)
        n = self.distance(a, b)
        if n == 0:
            return (format_hex(a),)
        out: list[str] = []
        # nudge so that lines running exactly along hexsides resolve consistently
        eq, er = 1e-6, 2e-6
        for i in range(n + 1):
            t = i / n
            q = q1 + eq + (q2 - q1) * t
            r = r1 + er + (r2 - r1) * t
            out.append(format_hex(self.from_axial(*_cube_round(q, r))))
        return tuple(out)

    def ring(self, centre: HexLike, radius: int) -> tuple[str, ...]:
        """Hexes at exactly `radius` from `centre` (unbounded; radius 0 gives the centre)."""
        if radius < 0:
            raise ValueError("radius must be >= 0")
        q0, r0 = self.to_axial(centre)
        if radius == 0:
            return (format_hex(centre),)
        steps = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
        q, r = q0 - radius, r0 + radius  # start at direction 4 * radius
        out: list[str] = []
        for dq, dr in steps:
            for _ in range(radius):
                col, row = self.from_axial(q, r)
                if 0 <= col <= 99 and 0 <= row <= 99:
                    out.append(format_hex((col, row)))
                q, r = q + dq, r + dr
        return tuple(out)

    def within(self, centre: HexLike, radius: int) -> tuple[str, ...]:
        """Hexes at distance <= `radius` from `centre`, nearest first (unbounded)."""
        out: list[str] = []
        for k in range(radius + 1):
            out.extend(self.ring(centre, k))
        return tuple(out)


def _cube_round(q: float, r: float) -> Coord:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return int(rq), int(rr)


#: The grid the digest argues for: even columns shifted half a hex towards higher rows, rows north.
DEFAULT_GRID = HexGrid()


@cache
def _grid(parity: str, rows_increase: str) -> HexGrid:
    return HexGrid(parity, rows_increase)  # type: ignore[arg-type]


def neighbours(h: HexLike, parity: Parity = "even") -> tuple[str, ...]:
    return _grid(parity, "north").neighbours(h)


def adjacent(a: HexLike, b: HexLike, parity: Parity = "even") -> bool:
    return _grid(parity, "north").adjacent(a, b)


def hexside(a: HexLike, b: HexLike, parity: Parity = "even") -> str:
    return _grid(parity, "north").hexside(a, b)


def distance(a: HexLike, b: HexLike, parity: Parity = "even") -> int:
    return _grid(parity, "north").distance(a, b)


def line(a: HexLike, b: HexLike, parity: Parity = "even") -> tuple[str, ...]:
    return _grid(parity, "north").line(a, b)


def ring(centre: HexLike, radius: int, parity: Parity = "even") -> tuple[str, ...]:
    return _grid(parity, "north").ring(centre, radius)


def path_through(waypoints: Iterable[HexLike], grid: HexGrid = DEFAULT_GRID) -> tuple[str, ...]:
    """A connected hex path visiting the waypoints in order along straight lines."""
    out: list[str] = []
    for wp in waypoints:
        hid = format_hex(wp)
        if not out:
            out.append(hid)
            continue
        out.extend(grid.line(out[-1], hid)[1:])
    return tuple(out)


# --------------------------------------------------------------------------------------------
# drawing


@dataclass(frozen=True)
class HexLayout:
    """Pixel geometry of a rectangular CCRR map for a renderer.

    `size` is the distance from a hex centre to its corners, in pixels.  The image shows north at
    the top and east to the right whatever `grid.rows_increase` says; `margin` pixels surround it.
    """

    grid: HexGrid = DEFAULT_GRID
    size: float = 20.0
    columns: tuple[int, int] = (1, 35)
    rows: tuple[int, int] = (1, 40)
    margin: float = 10.0
    _ybounds: tuple[float, float] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        shifts = [0.5 if self.grid.shifted(c) else 0.0 for c in range(self.columns[0], self.columns[1] + 1)]
        lo, hi = self.rows[0] + min(shifts), self.rows[1] + max(shifts)
        object.__setattr__(self, "_ybounds", (lo, hi))

    @property
    def hex_height(self) -> float:
        return SQRT3 * self.size

    def image_size(self) -> tuple[int, int]:
        ncols = self.columns[1] - self.columns[0]
        width = self.size * (1.5 * ncols + 2) + 2 * self.margin
        height = self.hex_height * (self._ybounds[1] - self._ybounds[0] + 1) + 2 * self.margin
        return math.ceil(width), math.ceil(height)

    def centre(self, h: HexLike) -> tuple[float, float]:
        col, _ = parse_hex(h)
        x = self.margin + self.size + 1.5 * self.size * (col - self.columns[0])
        y_rows = self.grid.yhex(h)
        lo, hi = self._ybounds
        # distance from the top edge in hex heights: rows north -> top is the highest row
        t = (hi - y_rows) if self.grid.rows_increase == "north" else (y_rows - lo)
        y = self.margin + self.hex_height * (t + 0.5)
        return x, y

    def corners(self, h: HexLike) -> tuple[tuple[float, float], ...]:
        """Six corners, starting east, clockwise on screen (flat top)."""
        cx, cy = self.centre(h)
        return tuple(
            (cx + self.size * math.cos(math.radians(60 * k)), cy + self.size * math.sin(math.radians(60 * k)))
            for k in range(6)
        )

    def side_points(self, a: HexLike, b: HexLike) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two end points of the side shared by adjacent hexes `a` and `b`."""
        if not self.grid.adjacent(a, b):
            raise ValueError(f"{format_hex(a)} and {format_hex(b)} are not adjacent")
        (ax, ay), (bx, by) = self.centre(a), self.centre(b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = bx - ax, by - ay
        norm = math.hypot(dx, dy)
        px, py = -dy / norm * self.size / 2, dx / norm * self.size / 2
        return (mx + px, my + py), (mx - px, my - py)

    def hexes(self) -> Iterator[str]:
        for col in range(self.columns[0], self.columns[1] + 1):
            for row in range(self.rows[0], self.rows[1] + 1):
                yield format_hex((col, row))
