"""Where the districts of a board graph go in a picture: a square grid found from the graph.

A board whose spaces touch only along the sides of a rectangle (Canterbury's city) is a grid
graph, and its graph alone says where each space lies: the number of steps from the corner
the board lists first and from the corner at the other end of its first row fixes a space's
column and row. So a variant that changes the board's districts or neighbours changes the
picture without a layout to keep in step. A graph that is not such a grid is laid out row
by row in the order the spec lists it, as square as it can be.
"""

from __future__ import annotations

import math
from collections import deque


def grid(neighbours: dict[str, tuple[str, ...] | list[str]]) -> dict[str, tuple[int, int]]:
    """(column, row) of every space, counted from 0 at the top left."""
    found = _from_graph(neighbours)
    if found is not None:
        return found
    columns = max(1, math.ceil(math.sqrt(len(neighbours))))
    return {space: (i % columns, i // columns) for i, space in enumerate(neighbours)}


def _from_graph(neighbours: dict[str, tuple[str, ...] | list[str]]) -> dict[str, tuple[int, int]] | None:
    spaces = list(neighbours)
    if not spaces or any(n not in neighbours for links in neighbours.values() for n in links):
        return None
    steps = {space: _distances(neighbours, space) for space in spaces}
    fewest = min(len(links) for links in neighbours.values())
    corners = [s for s in spaces if len(neighbours[s]) == fewest]
    origin = corners[0]
    if len(steps[origin]) != len(spaces):
        return None  # not connected
    farthest = max(steps[origin].values())
    row_ends = [c for c in corners[1:] if steps[origin][c] < farthest]
    if not row_ends:
        return None
    end = row_ends[0]
    width = steps[origin][end]
    places: dict[str, tuple[int, int]] = {}
    for space in spaces:
        across, down = divmod(steps[origin][space] - steps[end][space] + width, 2), divmod(steps[origin][space] + steps[end][space] - width, 2)
        if across[1] or down[1] or across[0] < 0 or down[0] < 0:
            return None
        places[space] = (across[0], down[0])
    if len(set(places.values())) != len(places):
        return None
    for space, links in neighbours.items():
        (x, y) = places[space]
        if any(abs(x - places[n][0]) + abs(y - places[n][1]) != 1 for n in links):
            return None
    return places


def _distances(neighbours: dict[str, tuple[str, ...] | list[str]], start: str) -> dict[str, int]:
    """Steps from one space to every space it connects to (breadth first)."""
    found = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in neighbours[here]:
            if there not in found:
                found[there] = found[here] + 1
                queue.append(there)
    return found
