"""Building VMT positions for rule tests, and playing orders into them with scripted dice.

    pos = Position()                                     # historical set-up, nothing else
    pos.clear().place("A06: 24/31 24/32 24/102 50/121 50/122 50/123 | A08: Perekop 25/54")
    pos.control("A08", "soviet").hand("axis", "assault", "assault", "axis_field_artillery")
    pos.phase("axis")
    pos.order("axis", "ASSAULT DIVISION 24")
    pos.order("axis", "SUPPORT AXIS_FIELD_ARTILLERY", dice=[...])   # the dice the next rolls show

Orders are the players' own text, parsed and applied through the engine exactly as by mail.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from moderator.core.errors import IllegalOrder
from moderator.core.rng import Die, Rng, RngRecord
from moderator.games.vmt.board import Board
from moderator.games.vmt.engine import engine, scenario_named
from moderator.games.vmt.frames import new_frame
from tests.refusals import refusal


class ScriptedRng(Rng):
    """Dice come from a script (in the order the engine rolls them); other draws are keyed."""

    def __init__(self, dice: Iterable[int] = ()):
        super().__init__(b"\x00" * 32)
        self.script = list(dice)
        self.rolled: list[tuple[int, str]] = []

    def d6(self, purpose: str = "", stream: str = "dice") -> Die:
        if not self.script:
            raise AssertionError(f"the test scripted too few dice: another is needed for '{purpose}'")
        value = self.script.pop(0)
        counter = self.counters.get(stream, 0)
        self.counters[stream] = counter + 1
        self.rolled.append((value, purpose))
        return Die(value, stream, counter)


#: Reaction windows a test does not answer itself are closed as the players' standing orders would.
AUTO_WINDOWS = ("air", "cover", "escort")


class Position:
    def __init__(self, options: dict[str, Any] | None = None, seed: int = 1, auto: Iterable[str] = AUTO_WINDOWS):
        self.auto = tuple(auto)
        rng = RngRecord("test", seed.to_bytes(32, "big"), ["a", "b"]).rng()
        self.state = engine.setup("campaign", options or {}, rng)
        self.events: list = []
        self.last_rng: ScriptedRng | None = None

    # ---------------------------------------------------------------- building

    @property
    def board(self) -> Board:
        return Board(self.state, scenario_named("campaign"))

    def clear(self) -> Position:
        """Take every block off the map (into the 'waiting' box) and empty the hands and markers."""
        for block in self.state["blocks"].values():
            if block["status"] == "map":
                block.update(status="waiting", area=None)
        self.state["markers"] = {}
        for asset in self.state["assets"].values():
            asset.update(status="pool", area=None, steps=2)
        return self

    def place(self, text: str) -> Position:
        """'A06: 24/31 24/32 | A08: Perekop 25/54*' (a trailing '*' marks an exhausted block, '=2' sets SP)."""
        for part in text.split("|"):
            area, _, blocks = part.partition(":")
            for token in blocks.split():
                exhausted = token.endswith("*")
                token = token.rstrip("*")
                block, _, sp = token.partition("=")
                entry = self.state["blocks"][block]
                entry.update(status="map", area=area.strip(), exhausted=exhausted)
                if sp:
                    entry["sp"] = int(sp)
        return self

    def control(self, area: str, side: str) -> Position:
        self.state["control"][area] = side
        return self

    def hand(self, side: str, *card_types: str) -> Position:
        """Give a side exactly these cards (taken from anywhere in its deck, discards or hand)."""
        pool = self.state["hands"][side] + self.state["decks"][side] + self.state["discards"][side]
        chosen = []
        for card_type in card_types:
            card = next(c for c in pool if self.state["cards"][c] == card_type and c not in chosen)
            chosen.append(card)
        rest = [c for c in pool if c not in chosen]
        self.state["hands"][side] = chosen
        self.state["decks"][side] = rest
        self.state["discards"][side] = []
        return self

    def asset(self, asset_id: str, area: str, steps: int = 2) -> Position:
        self.state["assets"][asset_id].update(status="map", area=area, steps=steps)
        return self

    def marker(self, area: str, kind: str) -> Position:
        self.board.set_marker(area, kind, True)
        return self

    def destroyed(self, *areas: str) -> Position:
        """Mark the printed batteries of these areas destroyed."""
        for area in areas:
            if area not in self.state["batteries_destroyed"]:
                self.state["batteries_destroyed"].append(area)
        return self

    def disabled(self, *areas: str) -> Position:
        """Put the Soviet trenches of these areas out of order ("No Trench" markers)."""
        for area in areas:
            if area not in self.state["trench_disabled"]:
                self.state["trench_disabled"].append(area)
        return self

    def paid(self, vp: int) -> Position:
        """Set the VP the Axis has paid for reinforcements so far."""
        self.state["vp_paid"] = vp
        return self

    def phase(self, side: str, turn: int | None = None) -> Position:
        """Start the `side` action phase with the card decision open (no reinforcement, no window)."""
        if turn is not None:
            self.state["turn"] = turn
        self.state["stack"] = []
        self.state["phase_side"] = side
        board = self.board
        board.push(new_frame(board, "phase", side=side, stage="cards", played=False, bombardment=False,
                             placing=[], air_window=False))
        return self

    # ---------------------------------------------------------------- playing

    def pending(self, side: str | None = None):
        return [d for d in engine.pending(self.state) if side is None or d.role == side]

    def order(self, side: str, text: str, dice: Iterable[int] = ()) -> list:
        """Apply one order; the dice listed are the next dice rolled, in order.

        As in a script sent by mail, questions of `side` that the order does not answer are
        answered first by the game's standing defaults (e.g. ASSETS NONE before a MOVE), closing
        the `auto` reaction windows they open; the scripted dice serve those answers too.
        """
        decisions = self.pending(side)
        if not decisions:
            raise AssertionError(f"nothing is asked of {side}; pending: {self.pending()}")
        lexicon = engine.lexicon(self.state, side)
        order = engine.grammar.parse(text, lexicon, kinds=[d.kind for d in decisions])
        defaults = {d.kind: d.answer for d in engine.info.standing_defaults}
        rng = ScriptedRng(dice)
        while not any(d.kind == order.kind for d in decisions):
            kind = decisions[0].kind
            if kind not in defaults:
                raise AssertionError(f"'{text}' does not answer {decisions[0].prompt}")
            answer = engine.grammar.parse(defaults[kind], lexicon, kinds=[kind])
            self.state, events = engine.apply(self.state, side, answer, rng)
            self.events += events
            self.close_windows(rng)
            decisions = self.pending(side)
            if not decisions:
                raise AssertionError(f"'{text}': nothing is asked of {side} any more; pending: {self.pending()}")
            lexicon = engine.lexicon(self.state, side)
        self.state, events = engine.apply(self.state, side, order, rng)
        self.last_rng = rng
        self.events += events
        self.close_windows(rng)
        if rng.script:
            raise AssertionError(f"{len(rng.script)} scripted dice were not rolled: {rng.script}")
        return events

    def play(self, side: str, text: str, dice: Iterable[int] = ()) -> list:
        """Play a card order (typically 'ASSAULT GROUP A04 TO A01'); if the card then asks where to
        place Armor/Pioneer counters (before any move, L435), place none.  The dice are those rolled
        once the card's blocks move."""
        events = self.order(side, text)
        if self.pending(side) and self.pending(side)[0].kind == "assets":
            events += self.order(side, "ASSETS NONE", dice=dice)
        elif dice:
            raise AssertionError(f"'{text}' asked for no asset placement: script its dice on the order itself")
        return events

    def close_windows(self, rng: Rng | None = None) -> None:
        """Answer open reaction windows of the `auto` kinds with the game's standing defaults."""
        defaults = {d.kind: d.answer for d in engine.info.standing_defaults}
        for _ in range(100):
            open_windows = [d for d in self.pending() if d.kind in self.auto]
            if not open_windows:
                return
            decision = open_windows[0]
            lexicon = engine.lexicon(self.state, decision.role)
            text = defaults[decision.kind]
            try:
                answer = engine.grammar.parse(text, lexicon, kinds=[decision.kind])
                self.state, events = engine.apply(self.state, decision.role, answer, rng or ScriptedRng())
            except IllegalOrder:
                answer = engine.grammar.parse(decision.default, lexicon, kinds=[decision.kind])
                self.state, events = engine.apply(self.state, decision.role, answer, rng or ScriptedRng())
            self.events += events

    def illegal(self, side: str, text: str, *, because: str) -> str:
        """The message of the IllegalOrder the order raises, which must match `because` (a regex naming
        the rule, see tests/refusals.py); the state stays as it was."""
        before = repr(self.state)
        error = refusal(lambda: self.order(side, text), because)
        assert repr(self.state) == before
        return error.explain()

    def refused(self, side: str, text: str, *, because: str) -> str:
        """The message of the error an order raises when applied as it stands, without answering
        pending questions by standing defaults first (e.g. a card played while a move is asked); it
        must match `because`."""
        before = repr(self.state)
        lexicon = engine.lexicon(self.state, side)
        decisions = self.pending(side)
        order = engine.grammar.parse(text, lexicon, kinds=[d.kind for d in decisions] or None)
        error = refusal(lambda: engine.apply(self.state, side, order, ScriptedRng()), because)
        assert repr(self.state) == before
        return error.explain()

    # ---------------------------------------------------------------- looking

    def cards(self, side: str, pile: str = "hands") -> list[str]:
        """The card types of a side's 'hands', 'decks' or 'discards', sorted."""
        return sorted(self.state["cards"][c] for c in self.state[pile][side])

    def removed(self) -> list[str]:
        """The card types removed from play, sorted."""
        return sorted(self.state["cards"][c] for c in self.state["removed"])

    def vp(self, side: str) -> int:
        return self.board.vp(side)

    def sp(self, block: str) -> int:
        return self.state["blocks"][block]["sp"]

    def where(self, block: str) -> str | None:
        entry = self.state["blocks"][block]
        return entry["area"] if entry["status"] == "map" else None

    def exhausted(self, block: str) -> bool:
        return self.state["blocks"][block]["exhausted"]

    def kinds(self, kind: str) -> list[dict]:
        return [e.data for e in self.events if e.kind == kind]

    def last(self, kind: str) -> dict:
        found = self.kinds(kind)
        assert found, f"no '{kind}' event; events: {[e.kind for e in self.events]}"
        return found[-1]

    def top(self) -> dict:
        return self.state["stack"][-1]

    # ---------------------------------------------------------------- added for the rule-clause tests

    def dice(self, side: str) -> int:
        """How many dice `side` rolled in the last combat (step 3, L274-290)."""
        return self.last("combat_roll")["dice"][side]["total"]

    def parts(self, side: str) -> list[tuple[str, int]]:
        """The reasons for `side`'s dice in the last combat, as (reason, dice) pairs in order."""
        return [tuple(p) for p in self.last("combat_roll")["dice"][side]["parts"]]

    def asset_at(self, asset_id: str) -> tuple[str, str | None, int]:
        """(status, area, steps) of an asset counter."""
        asset = self.state["assets"][asset_id]
        return asset["status"], asset["area"], asset["steps"]
