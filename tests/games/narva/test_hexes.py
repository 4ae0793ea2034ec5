"""Hex geometry of CCRR maps with flat-topped hexes in columns (moderator/maps/hexes.py)."""

from __future__ import annotations

import itertools
import math
import random
from collections import deque

import pytest

from moderator.maps.hexes import (
    DEFAULT_GRID,
    HexGrid,
    HexLayout,
    distance,
    format_hex,
    hexside,
    hexside_key,
    line,
    neighbours,
    parse_hex,
    parse_hexside,
    path_through,
    ring,
)

ALL = [format_hex((c, r)) for c in range(1, 36) for r in range(1, 41)]
GRIDS = [HexGrid("even", "north"), HexGrid("odd", "north"), HexGrid("even", "south"), HexGrid("odd", "south")]


def bfs_distance(grid: HexGrid, a: str, b: str) -> int:
    seen = {a: 0}
    queue = deque([a])
    while queue:
        h = queue.popleft()
        if h == b:
            return seen[h]
        for n in grid.neighbours(h):
            if n not in seen:
                seen[n] = seen[h] + 1
                queue.append(n)
    raise AssertionError("unreachable")


# --------------------------------------------------------------------------------------------
# ids


def test_parse_and_format_round_trip() -> None:
    assert parse_hex("2930") == (29, 30)
    assert parse_hex((29, 30)) == (29, 30)
    assert format_hex((2, 13)) == "0213"
    assert format_hex("0213") == "0213"
    for h in ALL:
        assert format_hex(parse_hex(h)) == h


@pytest.mark.parametrize("bad", ["293", "29300", "29a0", "", None, 2930, (1, 2, 3), (1.0, 2), (True, 3)])
def test_parse_rejects_malformed_ids(bad) -> None:
    with pytest.raises(ValueError):
        parse_hex(bad)


def test_format_rejects_out_of_range() -> None:
    with pytest.raises(ValueError):
        format_hex((100, 1))
    with pytest.raises(ValueError):
        format_hex((-1, 1))


def test_hexside_key_is_canonical_and_parses() -> None:
    assert hexside_key("1105", "1005") == "1005-1105" == hexside_key("1005", "1105")
    assert parse_hexside("1105-1005") == ("1105", "1005")
    with pytest.raises(ValueError):
        parse_hexside("1105/1005")


# --------------------------------------------------------------------------------------------
# adjacency


def test_even_q_neighbours_of_known_hexes() -> None:
    # even column 14: the next columns' rows r and r+1; clockwise from north (rows increase north)
    assert neighbours("1429") == ("1430", "1530", "1529", "1428", "1329", "1330")
    # odd column 15: rows r-1 and r
    assert set(neighbours("1530")) == {"1531", "1629", "1630", "1529", "1429", "1430"}


@pytest.mark.parametrize("grid", GRIDS, ids=lambda g: f"{g.parity}-{g.rows_increase}")
def test_neighbours_are_six_distinct_and_symmetric(grid: HexGrid) -> None:
    for h in ALL:
        ns = grid.neighbours(h)
        assert len(ns) == 6 and len(set(ns)) == 6 and h not in ns
        for n in ns:
            assert h in grid.neighbours(n), (h, n)
            assert grid.distance(h, n) == 1


def test_the_vp_hill_chain_is_contiguous_only_under_even_parity() -> None:
    even, odd = HexGrid("even"), HexGrid("odd")
    assert even.adjacent("1429", "1530") and even.adjacent("1530", "1629")
    assert not (odd.adjacent("1429", "1530") and odd.adjacent("1530", "1629"))


def test_the_ss_ring_is_closed_under_even_parity() -> None:
    ring_ = ["3127", "3227", "3228", "3329", "3330", "3331", "3231", "3132"]
    for a, b in itertools.pairwise(ring_):
        assert DEFAULT_GRID.adjacent(a, b), (a, b)
    # and it closes against the river: both ends touch column 30
    assert {"3026", "3027"} <= set(neighbours("3127"))
    assert {"3031", "3032"} <= set(neighbours("3132"))


def test_narva_city_is_a_compact_block() -> None:
    city = ["2930", "3028", "3029", "3030"]
    assert all(any(DEFAULT_GRID.adjacent(a, b) for b in city if b != a) for a in city)


def test_rows_direction_changes_compass_not_adjacency() -> None:
    north, south = HexGrid("even", "north"), HexGrid("even", "south")
    for h in ALL[::7]:
        assert set(north.neighbours(h)) == set(south.neighbours(h))
    assert north.direction("2930", "2931") == "N"
    assert south.direction("2930", "2931") == "S"
    assert north.direction("1429", "1530") == "NE"
    assert south.direction("1429", "1530") == "SE"
    with pytest.raises(ValueError):
        north.direction("2930", "2933")


def test_hexside_is_canonical_and_requires_adjacency() -> None:
    assert hexside("1530", "1429") == hexside("1429", "1530") == "1429-1530"
    for h in ALL[::11]:
        for n in neighbours(h):
            assert hexside(h, n) == hexside(n, h)
            lo, hi = hexside(h, n).split("-")
            assert lo < hi and {lo, hi} == {h, n}
    with pytest.raises(ValueError):
        hexside("1429", "1629")
    with pytest.raises(ValueError):
        HexGrid("odd").hexside("1429", "1530")


def test_bad_grid_parameters_are_rejected() -> None:
    with pytest.raises(ValueError):
        HexGrid("both")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        HexGrid("even", "east")  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# distance, lines, rings


@pytest.mark.parametrize("grid", GRIDS[:2], ids=lambda g: g.parity)
def test_distance_matches_breadth_first_search(grid: HexGrid) -> None:
    rng = random.Random(1944)
    for _ in range(150):
        a, b = rng.choice(ALL), rng.choice(ALL)
        assert grid.distance(a, b) == bfs_distance(grid, a, b) == grid.distance(b, a)


def test_distance_known_values_and_triangle_inequality() -> None:
    assert distance("2930", "2930") == 0
    assert distance("1306", "2020") == 18
    assert distance("3024", "2120") == 9
    # 34 column steps gain 17 rows on the way; the other 39 - 17 rows are straight steps
    assert distance("0101", "3540") == 34 + (39 - 17)
    rng = random.Random(2)
    for _ in range(200):
        a, b, c = rng.choice(ALL), rng.choice(ALL), rng.choice(ALL)
        assert distance(a, c) <= distance(a, b) + distance(b, c)


def test_line_is_connected_and_as_long_as_the_distance() -> None:
    rng = random.Random(3)
    for _ in range(100):
        a, b = rng.choice(ALL), rng.choice(ALL)
        ln = line(a, b)
        assert ln[0] == a and ln[-1] == b
        assert len(ln) == distance(a, b) + 1
        for x, y in itertools.pairwise(ln):
            assert DEFAULT_GRID.adjacent(x, y)
    assert line("2930", "2930") == ("2930",)


def test_ring_and_within() -> None:
    for k in range(0, 5):
        r = ring("1820", k)
        assert len(r) == (1 if k == 0 else 6 * k)
        assert all(distance("1820", h) == k for h in r)
    assert set(ring("1820", 1)) == set(neighbours("1820"))
    assert len(DEFAULT_GRID.within("1820", 3)) == 1 + 6 + 12 + 18
    with pytest.raises(ValueError):
        ring("1820", -1)


def test_path_through_waypoints() -> None:
    p = path_through(["0131", "1231", "2930"])
    assert p[0] == "0131" and p[-1] == "2930" and "1231" in p
    assert all(DEFAULT_GRID.adjacent(a, b) for a, b in itertools.pairwise(p))


def test_axial_round_trip() -> None:
    for grid in GRIDS[:2]:
        for h in ALL[::5]:
            assert format_hex(grid.from_axial(*grid.to_axial(h))) == h


# --------------------------------------------------------------------------------------------
# pixels


def test_layout_puts_north_at_the_top_and_east_to_the_right() -> None:
    lay = HexLayout(size=10)
    assert lay.centre("0140")[1] < lay.centre("0101")[1]
    assert lay.centre("3501")[0] > lay.centre("0101")[0]
    # the even column sits half a hex further north than the odd one, row for row
    assert lay.centre("0230")[1] < lay.centre("0130")[1]
    south = HexLayout(grid=HexGrid("even", "south"), size=10)
    assert south.centre("0140")[1] > south.centre("0101")[1]
    assert south.centre("0230")[1] > south.centre("0130")[1]


def test_layout_geometry_is_regular() -> None:
    lay = HexLayout(size=12, margin=5)
    w, h = lay.image_size()
    for hid in ALL[::9]:
        cx, cy = lay.centre(hid)
        corners = lay.corners(hid)
        assert len(corners) == 6
        for x, y in corners:
            assert math.isclose(math.hypot(x - cx, y - cy), 12)
            assert -1e-6 <= x <= w and -1e-6 <= y <= h
        for n in neighbours(hid):
            if 1 <= parse_hex(n)[0] <= 35 and 1 <= parse_hex(n)[1] <= 40:
                nx, ny = lay.centre(n)
                assert math.isclose(math.hypot(nx - cx, ny - cy), math.sqrt(3) * 12)
                p, q = lay.side_points(hid, n)
                assert math.isclose(math.hypot(p[0] - q[0], p[1] - q[1]), 12)
                # the shared side's end points are corners of both hexes
                for pt in (p, q):
                    assert min(math.hypot(pt[0] - x, pt[1] - y) for x, y in corners) < 1e-6
    with pytest.raises(ValueError):
        lay.side_points("1429", "1629")
    assert sum(1 for _ in lay.hexes()) == 35 * 40
