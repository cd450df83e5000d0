"""Movement and supply networks built from a terrain map.

The contract follows OSMnx: a networkx graph has ``G.graph["crs"]`` and
``G.graph["system"]``; nodes are canonical hex ids with ``x``/``y``
(longitude/latitude of the centre) and the node's terrain; edges carry the
*raw components* of a move between two hexes (``water`` crossed, ``bridge``,
``road`` class, ``railway``, ``all_sea``, the terrain and settlement of the
hex entered), never a rule's verdict.  Rules turn components into weights
with weight callables that return ``None`` to block an edge (networkx's own
idiom), so zones of control and interdiction never mutate the graph.

For speed, :class:`EdgeArrays` holds the same edges as numpy arrays over
the grid's dense index, from which rules build ``scipy.sparse`` matrices for
``scipy.sparse.csgraph``; tests prove the two paths agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from normandy_lab.terrain import TerrainMap, terrain_map
from normandy_lab.terrain.vocab import ROAD_CLASSES, WATER_CLASSES

if TYPE_CHECKING:  # for annotations only: networkx and geopandas load when a graph or frame is asked for
    import geopandas
    import networkx


@dataclass(frozen=True)
class EdgeArrays:
    """Directed edges (both directions of every hexside) as arrays over the dense hex index.

    Attributes
    ----------
    src, dst
        Dense indices of the hex left and the hex entered.
    side
        Row of the hexside in ``TerrainMap.hexsides`` (and ``side_*`` arrays).
    water, road
        Codes into :data:`~normandy_lab.terrain.WATER_CLASSES` and
        :data:`~normandy_lab.terrain.ROAD_CLASSES`.
    railway, road_bridge, rail_bridge, all_sea
        Booleans of the hexside.
    """

    system: str
    src: np.ndarray
    dst: np.ndarray
    side: np.ndarray
    water: np.ndarray
    road: np.ndarray
    railway: np.ndarray
    road_bridge: np.ndarray
    rail_bridge: np.ndarray
    all_sea: np.ndarray

    def __len__(self) -> int:
        return len(self.src)


@lru_cache(maxsize=8)
def edge_arrays(system: str) -> EdgeArrays:
    """Return the directed edge arrays of ``system``'s terrain map (cached)."""
    tmap = terrain_map(system, progress=False)
    a = tmap.arrays
    left, right = a["side_left"], a["side_right"]
    sides = np.arange(len(left))
    return EdgeArrays(
        system=system,
        src=np.concatenate([left, right]),
        dst=np.concatenate([right, left]),
        side=np.concatenate([sides, sides]),
        water=np.tile(a["side_water"], 2),
        road=np.tile(a["side_road"], 2),
        railway=np.tile(a["side_railway"], 2),
        road_bridge=np.tile(a["side_road_bridge"], 2),
        rail_bridge=np.tile(a["side_rail_bridge"], 2),
        all_sea=np.tile(a["side_all_sea"], 2),
    )


def to_networkx(tmap: TerrainMap) -> networkx.DiGraph:
    """Build the directed hex graph of a terrain map (both directions of every hexside).

    Nodes are canonical hex ids with ``x``, ``y`` (lon, lat), ``index`` (dense
    index), ``terrain`` and ``settlement``.  Edges carry the raw components:
    ``water``, ``water_name``, ``road``, ``railway``, ``road_bridge``,
    ``rail_bridge``, ``all_sea`` and the ``terrain``/``settlement`` of the hex
    entered.
    """
    import networkx as nx

    hexes = tmap.hexes
    graph = nx.DiGraph(crs="EPSG:4326", system=tmap.system)
    lon, lat = tmap.grid.centers()  # exact centres from the grid, not polygon centroids
    for i, (hex_id, terrain, settlement) in enumerate(
        zip(hexes.index, hexes["terrain"], hexes["settlement"], strict=True)
    ):
        graph.add_node(
            hex_id, x=float(lon[i]), y=float(lat[i]), index=i, terrain=terrain, settlement=settlement
        )
    sides = tmap.hexsides
    for row in zip(
        sides["a"],
        sides["b"],
        sides["water"],
        sides["water_name"],
        sides["road"],
        sides["railway"],
        sides["road_bridge"],
        sides["rail_bridge"],
        sides["all_sea"],
        strict=True,
    ):
        a, b, water, water_name, road, railway, road_bridge, rail_bridge, all_sea = row
        common = {
            "water": water,
            "water_name": water_name,
            "road": road,
            "railway": bool(railway),
            "road_bridge": bool(road_bridge),
            "rail_bridge": bool(rail_bridge),
            "all_sea": bool(all_sea),
        }
        for u, v in ((a, b), (b, a)):
            graph.add_edge(
                u,
                v,
                **common,
                terrain=graph.nodes[v]["terrain"],
                settlement=graph.nodes[v]["settlement"],
            )
    return graph


def validate_graph(graph: networkx.DiGraph) -> None:
    """Check the graph contract; raise ``ValueError`` naming what is wrong."""
    for key in ("crs", "system"):
        if key not in graph.graph:
            raise ValueError(f"graph lacks graph[{key!r}]")
    for node, data in graph.nodes(data=True):
        for key in ("x", "y", "terrain"):
            if key not in data:
                raise ValueError(f"node {node!r} lacks {key!r}")
    for u, v, data in graph.edges(data=True):
        if data["water"] not in WATER_CLASSES or data["road"] not in ROAD_CLASSES:
            raise ValueError(f"edge {u}->{v} has unknown water or road class")


def graph_to_geodataframes(graph: networkx.DiGraph) -> tuple[geopandas.GeoDataFrame, geopandas.GeoDataFrame]:
    """Return the graph as two GeoDataFrames (nodes as points, edges as lines), EPSG:4326."""
    import geopandas as gpd
    import shapely

    nodes = gpd.GeoDataFrame(
        [
            {"hex_id": n, **{k: v for k, v in d.items() if k not in ("x", "y")}}
            for n, d in graph.nodes(data=True)
        ],
        geometry=gpd.points_from_xy(
            [d["x"] for _, d in graph.nodes(data=True)], [d["y"] for _, d in graph.nodes(data=True)]
        ),
        crs=graph.graph["crs"],
    ).set_index("hex_id")
    rows, lines = [], []
    for u, v, d in graph.edges(data=True):
        rows.append({"u": u, "v": v, **d})
        lines.append(
            shapely.LineString(
                [(graph.nodes[u]["x"], graph.nodes[u]["y"]), (graph.nodes[v]["x"], graph.nodes[v]["y"])]
            )
        )
    edges = gpd.GeoDataFrame(rows, geometry=lines, crs=graph.graph["crs"]).set_index(["u", "v"])
    return nodes, edges
