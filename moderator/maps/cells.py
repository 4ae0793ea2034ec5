"""Area cells of an area-movement map, computed from area centres and the land outline.

The map data of a game gives, for every area, a centre point in map coordinates, plus polygons
describing the land.  Every land pixel belongs to the nearest area centre (optionally weighted),
which yields a cell per area.  The same computation serves two purposes:

* the scenario validator checks that the cells which touch are exactly the areas the map data
  declares adjacent, so the drawing can never contradict the rules;
* the map renderer paints the cells.

Everything here is pure: numpy arrays in, numpy arrays / sets out.  Pillow is used only to
rasterise polygons.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence

import numpy as np
from PIL import Image, ImageDraw

Point = tuple[float, float] | Sequence[float]
Polygon = Sequence[Point]

#: Label of pixels that are not land.
WATER = -1


def land_mask(
    land: Sequence[Polygon],
    width: int,
    height: int,
    scale: float = 1.0,
    water: Sequence[Polygon] | None = None,
) -> np.ndarray:
    """Boolean raster (rows = y, columns = x) of the land, on a grid of width*scale x height*scale.

    Land polygons are filled first, then `water` polygons (bays, lakes) are cut out of them.
    """
    w, h = _grid_size(width, height, scale)
    image = Image.new("1", (w, h), 0)
    draw = ImageDraw.Draw(image)
    for polygon in land:
        draw.polygon(_scaled(polygon, scale), fill=1, outline=1)
    for polygon in water or ():
        draw.polygon(_scaled(polygon, scale), fill=0, outline=0)
    return np.array(image, dtype=bool)


def area_cells(
    centres: Mapping[str, Point],
    land: Sequence[Polygon],
    width: int,
    height: int,
    scale: float = 1.0,
    weights: Mapping[str, float] | None = None,
    water: Sequence[Polygon] | None = None,
) -> tuple[np.ndarray, list[str]]:
    """Assign every land pixel to its nearest area centre.

    Returns `(labels, ids)`: `labels` is an int array of shape (height*scale, width*scale) whose
    value is an index into `ids` (the area ids in the order of `centres`) or `WATER` (-1).

    The distance from a pixel centre p to an area centre c is `|p - c| / weight` (a multiplicatively
    weighted Voronoi diagram): a weight above 1 enlarges the cell, below 1 shrinks it.  Missing
    weights count as 1.  Ties go to the area listed first.
    """
    ids = list(centres)
    if not ids:
        raise ValueError("no area centres given")
    weights = weights or {}
    mask = land_mask(land, width, height, scale, water)
    h, w = mask.shape
    ys = (np.arange(h, dtype=np.float64) + 0.5) / scale
    xs = (np.arange(w, dtype=np.float64) + 0.5) / scale
    best = np.full((h, w), np.inf)
    labels = np.full((h, w), WATER, dtype=np.int32)
    for index, area_id in enumerate(ids):
        cx, cy = (float(v) for v in centres[area_id])
        weight = float(weights.get(area_id, 1.0))
        if weight <= 0:
            raise ValueError(f"weight of area {area_id} must be positive, not {weight}")
        dist = ((xs[None, :] - cx) ** 2 + (ys[:, None] - cy) ** 2) / (weight * weight)
        closer = dist < best
        best[closer] = dist[closer]
        labels[closer] = index
    labels[~mask] = WATER
    return labels, ids


def cell_adjacency(labels: np.ndarray, ids: Sequence[str]) -> set[frozenset[str]]:
    """Pairs of areas whose cells share a pixel edge (4-neighbourhood)."""
    pairs: set[frozenset[str]] = set()
    for a, b in (
        (labels[:, :-1], labels[:, 1:]),  # horizontal neighbours
        (labels[:-1, :], labels[1:, :]),  # vertical neighbours
    ):
        touching = (a != b) & (a != WATER) & (b != WATER)
        if not touching.any():
            continue
        codes = np.unique(np.stack([np.minimum(a, b)[touching], np.maximum(a, b)[touching]], axis=1), axis=0)
        for i, j in codes:
            pairs.add(frozenset((ids[int(i)], ids[int(j)])))
    return pairs


def cell_sizes(labels: np.ndarray, ids: Sequence[str]) -> dict[str, int]:
    """Number of pixels of every area's cell."""
    counts = np.bincount(labels[labels != WATER].ravel(), minlength=len(ids))
    return {area_id: int(counts[i]) for i, area_id in enumerate(ids)}


def cell_components(labels: np.ndarray, ids: Sequence[str]) -> dict[str, int]:
    """Number of 4-connected pieces of every area's cell (1 for a well-formed area, 0 if empty)."""
    h, w = labels.shape
    seen = np.zeros((h, w), dtype=bool)
    seen[labels == WATER] = True
    pieces = {area_id: 0 for area_id in ids}
    flat = labels.ravel()
    for start in np.flatnonzero(~seen.ravel()):
        if seen.flat[start]:
            continue
        index = int(flat[start])
        pieces[ids[index]] += 1
        queue = deque([(int(start) // w, int(start) % w)])
        seen.flat[start] = True
        while queue:
            y, x = queue.popleft()
            for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                if 0 <= ny < h and 0 <= nx < w and not seen[ny, nx] and labels[ny, nx] == index:
                    seen[ny, nx] = True
                    queue.append((ny, nx))
    return pieces


def label_at(labels: np.ndarray, ids: Sequence[str], point: Point, scale: float = 1.0) -> str | None:
    """The area whose cell contains a map point, or None for water / outside the grid."""
    x, y = (float(v) for v in point)
    row, col = int(y * scale), int(x * scale)
    if not (0 <= row < labels.shape[0] and 0 <= col < labels.shape[1]):
        return None
    value = int(labels[row, col])
    return None if value == WATER else ids[value]


def _grid_size(width: int, height: int, scale: float) -> tuple[int, int]:
    if width <= 0 or height <= 0 or scale <= 0:
        raise ValueError("width, height and scale must be positive")
    return max(1, round(width * scale)), max(1, round(height * scale))


def _scaled(polygon: Polygon, scale: float) -> list[tuple[float, float]]:
    points = [(float(p[0]) * scale, float(p[1]) * scale) for p in polygon]
    if len(points) < 3:
        raise ValueError("a polygon needs at least 3 points")
    return points
