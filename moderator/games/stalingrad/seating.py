"""The four-player game's seats (§Four Player): two players a side, each with his own Supreme Commander, hand
and formations.  A seat is named for the commander it starts with and keeps its name when he is replaced
(ruling S-81)."""

from __future__ import annotations

#: the scenario whose four seats play the four-player game (§Four Player: always the advanced game)
FOUR_PLAYER = "four-player"

#: each side's seats, the two-player game's commander first (he takes the side's Campaign Cards, ruling S-31)
SEATS: dict[str, tuple[str, str]] = {"german": ("paulus", "wietersheim"), "soviet": ("lopatin", "saraev")}
ALL_SEATS: tuple[str, ...] = (*SEATS["german"], *SEATS["soviet"])
SIDE_OF: dict[str, str] = {seat: side for side, seats in SEATS.items() for seat in seats}
TEAMMATE: dict[str, str] = {a: b for a, b in SEATS.values()} | {b: a for a, b in SEATS.values()}
#: the commander each seat starts with (commanders.yaml)
STARTING_COMMANDER: dict[str, str] = {"paulus": "Paulus", "wietersheim": "Wietersheim", "lopatin": "Lopatin",
                                      "saraev": "Saraev"}
#: §Four Player: "the player who has Saraev always uses the 10th NKVD and the player who owns Wietersheim always
#: owns the 14th Panzer"
FIXED_OWNERS: dict[str, str] = {"14Pz": "wietersheim", "10NKVD": "saraev"}


def side_of(role: str) -> str | None:
    """The side a role plays: a side itself (two players), a seat's side (four), else None."""
    if role in SEATS:
        return role
    return SIDE_OF.get(role)
