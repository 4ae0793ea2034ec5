"""The Tracking Card (§Tracking): Fire and Bucket Counters, the Inferno Den, Infernos.  The tracks' lengths
are scenario data (ruling S-72: 4 Skull spaces, 5 Fire and 5 Bucket spaces before the Den)."""

from __future__ import annotations

from moderator.games.stalingrad.board import Board


def add_fires(board: Board, district: str, count: int, why: str) -> None:
    """§Tracking B: each fire advances the Fire Counter; entering the Inferno Den it becomes an Inferno
    and a new Fire Counter starts in the Smoldering Ruins (the fires still owed continue from there)."""
    record = board.district(district)
    for _ in range(count):
        record["fire"] += 1
        if record["fire"] > board.scenario.meta.fire_track:
            record["infernos"] += 1  # ruling S-14: Infernos are unlimited
            record["fire"] = 0
            board.emit("inferno", district=district, infernos=record["infernos"])
    board.emit("fires", district=district, count=count, fire=record["fire"], why=why)


def add_buckets(board: Board, district: str, count: int, why: str) -> None:
    """§Tracking C: a bucket reaching the Inferno Den restarts and discards one Inferno Counter of this
    district (ruling S-15), or, with none, sends the Fire Counter back to the Smoldering Ruins."""
    record = board.district(district)
    for _ in range(count):
        record["bucket"] += 1
        if record["bucket"] > board.scenario.meta.bucket_track:
            record["bucket"] = 0
            if record["infernos"]:
                record["infernos"] -= 1
                board.emit("inferno_doused", district=district, infernos=record["infernos"])
            else:
                record["fire"] = 0
                board.emit("fire_doused", district=district)
    board.emit("buckets", district=district, count=count, bucket=record["bucket"], why=why)


def reset_counters(board: Board, district: str, infernos_too: bool) -> None:
    """Counters back to the Smoldering Ruins (§Battle 6 C, §Strategy 5 a new building)."""
    record = board.district(district)
    record["hold"] = record["fire"] = record["bucket"] = 0
    if infernos_too:
        record["infernos"] = 0
