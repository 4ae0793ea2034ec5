"""Scenario data of Von Manstein's Triumph (VMT): models, lookups, loader and validator.

The package is laid out as every game's scenario package is (docs/design-notes.md, "Scenario data:
schema, index, loader, validator"): `schema` holds the pydantic models of the YAML files, `index`
the `Scenario` with its lookups, `loader` reads the files through the core's `ScenarioKit`, and
`validate` (with `validate_map` and `validate_pieces`) states the game's rules for the data.
"""

from moderator.core.provenance import PROVENANCE_PREFIXES, Record
from moderator.core.scenario_files import Ident, IndexedScenario
from moderator.games.vmt.scenario.index import Scenario
from moderator.games.vmt.scenario.loader import (
                                                 FILES,
                                                 KIT,
                                                 check_scenario,
                                                 default_root,
                                                 load_scenario,
                                                 read_scenario,
                                                 scenario_named,
)
from moderator.games.vmt.scenario.schema import (
                                                 SIDES,
                                                 Area,
                                                 AssetPlacement,
                                                 Block,
                                                 Border,
                                                 BorderKind,
                                                 CardType,
                                                 CounterType,
                                                 Division,
                                                 Geometry,
                                                 Label,
                                                 MapData,
                                                 Nationality,
                                                 Placement,
                                                 Point,
                                                 Polygon,
                                                 ReinforcementGroup,
                                                 ScenarioData,
                                                 ScenarioMeta,
                                                 Setup,
                                                 Side,
                                                 Turn,
)
from moderator.games.vmt.scenario.validate import validate_scenario
from moderator.games.vmt.scenario.validate_map import GEOMETRY_CHECK_SCALE
from moderator.games.vmt.scenario.validate_pieces import CARD_TYPES

__all__ = [
    "CARD_TYPES", "FILES", "GEOMETRY_CHECK_SCALE", "KIT", "PROVENANCE_PREFIXES", "SIDES",
    "Area", "AssetPlacement", "Block", "Border", "BorderKind", "CardType", "CounterType", "Division", "Geometry",
    "Ident", "IndexedScenario", "Label", "MapData", "Nationality", "Placement", "Point", "Polygon", "Record",
    "ReinforcementGroup", "Scenario", "ScenarioData", "ScenarioMeta", "Setup", "Side", "Turn",
    "check_scenario", "default_root", "load_scenario", "read_scenario", "scenario_named", "validate_scenario",
]
