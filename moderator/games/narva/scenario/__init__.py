"""Scenario data of Across the Narva: models, lookups, loader and validator.

The package is laid out as every game's scenario package is (docs/design-notes.md, "Scenario data:
schema, index, loader, validator"): `schema` holds the pydantic models of the YAML files, `index`
(with `index_map` and `crt`) the `Scenario` with its lookups, `loader` reads the files through the
core's `ScenarioKit`, and `validate` (with `validate_map`, `validate_units` and `validate_tables`)
states the game's rules for the data.
"""

from moderator.core.provenance import PROVENANCE_PREFIXES, Record
from moderator.core.scenario_files import Ident, IndexedScenario
from moderator.games.narva.scenario.crt import CombatResult, parse_odds, parse_result
from moderator.games.narva.scenario.index import Scenario
from moderator.games.narva.scenario.index_map import HexInfo, HexsideInfo
from moderator.games.narva.scenario.loader import (
                                                   FILES,
                                                   KIT,
                                                   check_scenario,
                                                   default_root,
                                                   load_scenario,
                                                   read_scenario,
                                                   scenario_named,
)
from moderator.games.narva.scenario.schema import (
                                                   ENTRY_LETTERS,
                                                   GERMAN_ENTRIES,
                                                   HEXSIDE_FEATURES,
                                                   MECHANIZED_TYPES,
                                                   ROAD_KINDS,
                                                   ROUTE_KINDS,
                                                   SIDES,
                                                   TERRAINS,
                                                   WATER,
                                                   ActionKind,
                                                   AirPlacement,
                                                   AirReinforcement,
                                                   AirUnit,
                                                   BarrageRoll,
                                                   Bridge,
                                                   Chit,
                                                   CommandGroup,
                                                   Cost,
                                                   Crt,
                                                   CrtColumn,
                                                   CrtRow,
                                                   EntryArea,
                                                   EventEffect,
                                                   Ezoc,
                                                   Ferry,
                                                   FirstTurn,
                                                   Formation,
                                                   GridSpec,
                                                   HexId,
                                                   HexSet,
                                                   Hexside,
                                                   HexsideEffect,
                                                   HexsideFeature,
                                                   MapData,
                                                   MoveClass,
                                                   PdTrack,
                                                   Place,
                                                   Placement,
                                                   PreparedDefence,
                                                   RailKind,
                                                   Railway,
                                                   RandomEvent,
                                                   ReinforcementRow,
                                                   Replacements,
                                                   River,
                                                   Road,
                                                   RoadEffect,
                                                   RoadKind,
                                                   ScenarioData,
                                                   ScenarioMeta,
                                                   Setup,
                                                   Side,
                                                   Special,
                                                   Stacking,
                                                   Strength,
                                                   SupplySource,
                                                   Tables,
                                                   TerrainEffect,
                                                   TerrainGrid,
                                                   TerrainName,
                                                   TerrainRow,
                                                   Turn,
                                                   Unit,
                                                   UnitType,
                                                   VictoryLevel,
                                                   VPItem,
)
from moderator.games.narva.scenario.validate import validate_scenario
from moderator.games.narva.scenario.validate_map import REQUIRED_AREAS

__all__ = [
    "ENTRY_LETTERS", "FILES", "GERMAN_ENTRIES", "HEXSIDE_FEATURES", "KIT", "MECHANIZED_TYPES", "PROVENANCE_PREFIXES",
    "REQUIRED_AREAS", "ROAD_KINDS", "ROUTE_KINDS", "SIDES", "TERRAINS", "WATER",
    "ActionKind", "AirPlacement", "AirReinforcement", "AirUnit", "BarrageRoll", "Bridge", "Chit", "CombatResult",
    "CommandGroup", "Cost", "Crt", "CrtColumn", "CrtRow", "EntryArea", "EventEffect", "Ezoc", "Ferry", "FirstTurn",
    "Formation", "GridSpec", "HexId", "HexInfo", "HexSet", "Hexside", "HexsideEffect", "HexsideFeature",
    "HexsideInfo", "Ident", "IndexedScenario", "MapData", "MoveClass", "PdTrack", "Place", "Placement",
    "PreparedDefence", "RailKind", "Railway", "RandomEvent", "Record", "ReinforcementRow", "Replacements", "River",
    "Road", "RoadEffect", "RoadKind", "Scenario", "ScenarioData", "ScenarioMeta", "Setup", "Side", "Special",
    "Stacking", "Strength", "SupplySource", "Tables", "TerrainEffect", "TerrainGrid", "TerrainName", "TerrainRow",
    "Turn", "Unit", "UnitType", "VPItem", "VictoryLevel",
    "check_scenario", "default_root", "load_scenario", "parse_odds", "parse_result", "read_scenario", "scenario_named",
    "validate_scenario",
]
