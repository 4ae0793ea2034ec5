"""The rulebook's other worked examples: the set-up deal, Deadly Roadblock, Pistol Persuasion, the card use
examples, the Break Test example, the consolidation example and the ready-districts example."""

from __future__ import annotations

from moderator.games.stalingrad import actions
from moderator.games.stalingrad.board import Board
from moderator.games.stalingrad.breaktest import compare, pools
from moderator.games.stalingrad.scenario import scenario_named
from moderator.games.stalingrad.setup import deal_districts, empty_district
from moderator.games.stalingrad.strategy import ready_district
from tests.games.stalingrad.harness import apply, battle_position, board, defaults, fresh, units


class DealOrder:
    """An Rng stand-in whose shuffles return the orders given, one per call (for the set-up deal)."""

    def __init__(self, *orders: list[str]):
        self.orders = list(orders)

    def shuffle(self, items, purpose="", stream="shuffle"):
        wanted = self.orders.pop(0)
        return wanted + [i for i in items if i not in wanted]


def test_the_set_up_deal_example():
    """§Basic Game set-up example: for A three other cards come first, then the Army Barracks; B's first red
    card is the Worker Slums; C and D get the Burnt Wastelands and Orlovka Village."""
    s = scenario_named("siege")
    rng = DealOrder(["WorkerSlums", "OilPlant", "TraktorFactory", "ArmyBarracks"], ["WorkerSlums"],
                    ["BurntWastelands"], ["OrlovkaVillage"])
    districts, deck = deal_districts(s, rng)
    assert [districts[d]["building"] for d in "ABCD"] == ["ArmyBarracks", "WorkerSlums", "BurntWastelands",
                                                          "OrlovkaVillage"]
    assert len(deck) == 20 and "ArmyBarracks" not in deck


def test_the_deadly_roadblock_example():
    """§On Buildings example: nine German units, no Soviet one; the T-34's Precision Kill takes an Armor, a
    Rifle is placed as it is, the Commando discards a German card at random and flips to Recon."""
    state = battle_position("ArmyBarracks", "A", {"71ID": 0}, {"10NKVD": 0})
    state["sides"]["soviet"]["hand"] = ["DeadlyRoadblock.1"]
    state, _ = apply(state, "german", "FIGHT ArmyBarracks")
    state, _ = defaults(state)
    b = board(state)
    b.battle["active"], b.battle["acted"] = "soviet", False
    district = state["districts"]["A"]
    district["units"]["german"] = {"Panzer": 5, "StormTrooper": 4}
    district["units"]["soviet"] = {}
    hand = len(state["sides"]["german"]["hand"])
    state, _ = apply(state, "soviet", "PLAY DeadlyRoadblock.1 ON 10NKVD")
    state, _ = apply(state, "soviet", "TARGET Armor")
    assert units(state, "A", "german") == {"Armor": 4, "Grenadier": 4}
    assert units(state, "A", "soviet") == {"Fort": 1, "Rifle": 1, "Recon": 1}
    assert len(state["sides"]["german"]["hand"]) == hand - 1


def test_the_pistol_persuasion_example():
    """§Overrun example: the 39th Guard (value 2 card) sacrifices its Rifle, supplies the depleted 193rd on the
    Staging Line, then overruns with it: its vanguard adds two Rifles."""
    state = battle_position("RedSquare", "B", {"71ID": 0}, {"39Gd": 0})
    state["formations"]["193RD"].update(at="staging", depleted=True, leader=0)
    state["sides"]["soviet"]["hand"] = ["PistolPersuasion.1"]
    state, _ = apply(state, "german", "FIGHT RedSquare")
    state, _ = defaults(state)
    b = board(state)
    b.battle["active"], b.battle["acted"] = "soviet", False
    state["districts"]["B"]["units"]["soviet"] = {"Assault": 1}
    state, _ = apply(state, "soviet", "PLAY PistolPersuasion.1 ON 39Gd")
    state, _ = apply(state, "soviet", "OVERRUN 193RD")
    assert not state["formations"]["193RD"]["depleted"] and state["formations"]["193RD"]["at"] == "B"
    assert units(state, "B", "soviet") == {"Rifle": 2}


def test_the_card_use_examples():
    """§German Cards examples A-C and §Soviet Cards examples A-C: doctrine, Shock Strength and Patriotism."""
    state = battle_position("RedSquare", "B", {"16Pz": None, "76ID": 0, "60Mot": 1},
                            {"10NKVD": 0, "37Gd": 0, "Militia1": 1})
    state["formations"]["76ID"]["depleted"] = state["formations"]["37Gd"]["depleted"] = True
    state, _ = apply(state, "german", "FIGHT RedSquare")
    b = board(defaults(state)[0])
    ok = actions.card_ok_on
    assert ok(b, "german", "PanzerGroup.1", "16Pz") and not ok(b, "german", "AssaultSquads.1", "16Pz")
    assert actions.shock_strength(b, "16Pz") == 2 and actions.shock_strength(b, "60Mot") == 2
    assert ok(b, "german", "AssaultSquads.1", "76ID") and ok(b, "german", "ReignOfTerror.1", "76ID")
    assert ok(b, "german", "PanzerGroup.1", "60Mot") and ok(b, "german", "AssaultSquads.1", "60Mot")
    b.battle["played"]["76ID"] = ["AssaultSquads.2"]
    assert not ok(b, "german", "AssaultSquads.1", "76ID")  # depleted or not, Shock 1 is one card
    b.battle["spent"]["10NKVD"] = 3
    assert not ok(b, "soviet", "StormGroup.1", "10NKVD") and ok(b, "soviet", "NotOneStepBack.1", "10NKVD")
    assert actions.patriotism_left(b, "Militia1") == 2 and ok(b, "soviet", "TankAmbush.1", "Militia1")
    b.battle["spent"]["37Gd"] = 2
    assert not ok(b, "soviet", "StormGroup.1", "37Gd") and ok(b, "soviet", "FireBrigade.1", "37Gd")


def test_the_break_test_dice_example():
    """§Battle 5 example at the Traktor Factory: German one die for more formations, one for tied units, two
    for two Infernos (4); Soviet one for tied units and two for the Defense Level (3)."""
    state = battle_position("TraktorFactory", "D", {"71ID": 0, "76ID": 0}, {"10NKVD": 0})
    b = board(state)
    b.data["battle"] = {"district": "D", "building": "TraktorFactory", "formations": {"german": ["71ID", "76ID"],
                        "soviet": ["10NKVD"]}, "retreated": []}  # type: ignore[typeddict-item]
    b.data["formations"]["10NKVD"]["depleted"] = True
    b.district("D").update(infernos=2, units={"german": {"Panzer": 2}, "soviet": {"T34": 2}})
    dice, source, pity = pools(b)
    assert dice == {"german": 4, "soviet": 3} and not pity
    assert source["german"] == {"formation": 1, "unit": 1, "inferno": 2}


def test_the_dice_results_example():
    """§Example Break Test: 3,3,4,5 against 1,2,2,5 is a Bloody Slaughter; 1,1,3,5,6 against 2,3,6,6 a Soviet
    Victory (two sixes to one); a higher single die wins outright (ruling S-22)."""
    assert compare([3, 3, 4, 5], [1, 2, 2, 5]) == "slaughter"
    assert compare([1, 1, 3, 5, 6], [2, 3, 6, 6]) == "soviet"
    assert compare([6], [5, 5, 5]) == "german"
    assert compare([4, 4], [4]) == "german"


def test_the_consolidation_example():
    """§Strategy 4 example: the 112th Rifle is sacrificed to supply the 39th Guard, which has no Commissar, so
    the 112th's passes to it; the 112th, a unique starting formation, goes to the Ash Heap (ruling S-11)."""
    state = fresh()
    state["formations"]["112RD"].update(at="staging", depleted=True, leader=0)
    state["formations"]["39Gd"].update(at="staging", depleted=True, leader=None)
    b = board(state)
    top = b.top()
    top["stage"], top["consolidated"] = "consolidate", []
    state, _ = apply(state, "soviet", "CONSOLIDATE 112RD INTO 39Gd")
    assert state["formations"]["39Gd"] == {"side": "soviet", "at": "staging", "depleted": False, "leader": 0}
    assert state["formations"]["112RD"]["at"] == "ash"


def test_the_ready_districts_example(monkeypatch):
    """§Strategy 5 example: A (Tsarista Gorge captured) deals two other buildings, then the Grain Elevator; B's
    captured Pavlov's House is a River Bank: a Volga Card closes B; D (Traktor Factory) deals three other
    buildings, then a Volga Card: D is closed."""
    state = fresh()
    b = board(state)
    monkeypatch.setattr(Board, "shuffle", lambda self, items, purpose, stream: list(items))
    for district, captured in (("A", "TsaristaGorge"), ("B", "PavlovsHouse"), ("D", "TraktorFactory")):
        b.data["districts"][district] = dict(empty_district(None), captured=captured)  # type: ignore[arg-type]
    used = {b.data["districts"][d]["building"] for d in "C"}
    others = [c for c in b.data["building_deck"] if c not in used and not c.startswith("Volga")
              and c not in ("WorkerSlums", "OilPlant", "GrainElevator", "MetizFactory")]
    b.data["building_deck"] = ["WorkerSlums", "OilPlant", "GrainElevator", "Volga1", "MetizFactory", "Volga2",
                               *others]
    for district in "ABD":
        ready_district(b, district)
    assert b.district("A")["building"] == "GrainElevator"
    assert b.district("B")["volga"] and b.district("B")["closed"]
    assert b.district("D")["volga"] and b.district("D")["closed"] and b.volga_count() == 2
