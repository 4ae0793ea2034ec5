"""The referee and the observers of each product game (issue 12): the golden playthrough played
again with a referee and an observer.  Observers are never asked for orders; the referee's digest
is rendered from public facts only, so it is the same byte for byte whatever a player hides."""

from __future__ import annotations

import copy
import email
import email.policy
import itertools
from typing import Any

import pytest

from moderator.registry import Registry
from moderator.service.referee_mail import Turn
from moderator.service.table import load_table
from tests.conftest import make_app, outbox_rows, text_of
from tests.kit.games import PRODUCT, game_id
from tests.kit.test_golden import script_of
from tests.mailmaker import player_mail

REFEREE_ADDRESS = "gm@players.test"
OBSERVER_ADDRESS = "club@players.test"
#: What only a player is told: an observer's mail never carries it (text or HTML).
ORDER_TEXT = ("WHAT WE NEED FROM YOU", "What we need from you", "HOW TO ANSWER", "How to answer", "send orders",
              "SECRET", "JOIN ", "Reply to this mail", "ROLE ", "You may send orders")


# The games whose hidden state `hide_otherwise` knows how to change: every product game.
WATCHED = [engine for engine in PRODUCT if engine.info.id in ("vmt", "narva", "stalingrad")]


@pytest.fixture(scope="module", params=WATCHED, ids=game_id)
def watched(request, tmp_path_factory) -> tuple[Any, str]:
    """The game's golden script played with a referee and an observer (fixed dice)."""
    engine = request.param
    counter = itertools.count(1)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("moderator.service.games.new_seed", lambda: bytes(range(32)))
        patch.setattr("moderator.service.games.new_secret", lambda: f"W{next(counter):03d}-WTCH")
        app = make_app(tmp_path_factory.mktemp(engine.info.id), registry=Registry([engine]))
        addresses = {role: f"{role}@players.test" for role in engine.info.roles()}
        created = app.create_game(engine.info.id, addresses=addresses, referee_address=REFEREE_ADDRESS,
                                  observers={"club": OBSERVER_ADDRESS})
        secrets = {}
        for role, address in addresses.items():
            outcome = app.receive(player_mail(address, f"JOIN {created.invitations[role]}\nENTROPY {role}\n"))
            secrets[role] = outcome.replies[0].raw.split(b"Your secret is ")[1][:9].decode()
        for number, step in enumerate(script_of(engine)["steps"]):
            if "wait_hours" in step:
                app.clock.advance(hours=step["wait_hours"])
                app.run_due()
                continue
            role = step["role"]
            body = f"GAME {created.game_id}\nROLE {role}\nSECRET {secrets[role]}\n" + "\n".join(step["lines"]) + "\n"
            app.clock.advance(hours=1)
            app.receive(player_mail(addresses[role], body, subject=f"orders {number}"))
    return app, created.game_id


def parts_of(raw: bytes) -> list[str]:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    return [part.get_content() for part in message.walk() if part.get_content_type() in ("text/plain", "text/html")]


def test_observers_get_an_invitation_and_reports_with_no_order_text(watched):
    app, game = watched
    mails = [row for row in outbox_rows(app) if row.recipient == OBSERVER_ADDRESS]
    assert mails[0].subject == f"[{game}] Observer: you are invited to watch"
    assert sum(row.kind == "report" for row in mails) >= 2
    for row in mails:
        for part in parts_of(row.raw):
            for phrase in ORDER_TEXT:
                assert phrase not in part, (row.subject, phrase)


def test_the_referee_gets_a_welcome_and_a_digest_per_game_turn(watched):
    app, game = watched
    mails = [row for row in outbox_rows(app) if row.recipient == REFEREE_ADDRESS]
    assert mails[0].kind == "notice" and "SECRET W" in text_of(mails[0].raw)
    subjects = [row.subject for row in mails if row.kind == "digest"]
    assert subjects[0] == f"[{game}] Referee: the game has started"
    # a game that ends in the script (Stalingrad's) closes with a "final digest", which names no turn
    turns = [subject.split("Turn ")[1].split(" ")[0] for subject in subjects[1:] if "Turn " in subject]
    assert turns and len(turns) == len(set(turns)), subjects  # one digest per game turn, never two


def hide_otherwise(engine_id: str, state: Any) -> Any:
    """`state` with something only a player knows changed: VMT's Axis hand swapped with the top of
    the Axis deck; in Across the Narva two units hidden under the top of their stacks (2.1.3)
    trade places; in The Hell of Stalingrad the German hand swapped with cards of the German Combat
    Deck (§Commanders A: the hand is its owner's, the deck's order nobody's)."""
    changed = copy.deepcopy(state)
    if engine_id == "vmt":
        hand, deck = changed["hands"]["axis"], changed["decks"]["axis"]
        changed["hands"]["axis"], changed["decks"]["axis"] = deck[-len(hand):], deck[:-len(hand)] + hand
        return changed
    if engine_id == "stalingrad":
        return stalingrad_hand_swapped(changed)
    from moderator.games.narva.engine import engine as narva

    board = narva.make_board(changed, None)
    for side in ("german", "soviet"):
        hidden = sorted(unit for unit in narva.secrets(changed, side) if not board.is_hq(unit))
        pairs = [(a, b) for a, b in itertools.combinations(hidden, 2)
                 if changed["units"][a]["hex"] != changed["units"][b]["hex"]]
        if pairs:
            a, b = pairs[0]
            units = changed["units"]
            for key in ("hex", "seq"):
                units[a][key], units[b][key] = units[b][key], units[a][key]
            return changed
    raise AssertionError("no two hidden units in different hexes to swap")


def stalingrad_hand_swapped(changed: Any) -> Any:
    """The German hand traded for as many cards from the bottom of the German deck (titles that differ,
    so the German's view must change); the deck keeps its size and the hand its size."""
    side = changed["sides"]["german"]
    hand, deck = side["hand"], side["deck"]
    titles = {card.split(".")[0] for card in hand}
    fresh = [card for card in deck if card.split(".")[0] not in titles][-len(hand):]
    assert hand and len(fresh) == len(hand), "no German cards to trade for the hand"
    side["deck"] = [card for card in deck if card not in fresh] + hand
    side["hand"] = fresh
    return changed


def test_the_referee_s_digest_is_the_same_whatever_a_player_hides(watched):
    app, game = watched
    with app.db.session() as session:
        table = load_table(session, app.registry, game)
        engine = table.engine
        turn = Turn(opening=False, ended=1, finished=False)
        before = app.referee_mail.digest_text(table, app.clock.now(), turn, [])
        owner = {"vmt": "axis", "narva": None, "stalingrad": "german"}[engine.info.id]
        views = {role: engine.view(table.state, role) for role in (*engine.info.roles(), "observer")}
        table.state = hide_otherwise(engine.info.id, table.state)
        changed = [role for role in views if engine.view(table.state, role) != views[role]]
        assert changed and (owner is None or owner in changed)  # the swap changed what a player sees ...
        assert "observer" not in changed  # ... and nothing public
        after = app.referee_mail.digest_text(table, app.clock.now(), turn, [])
    assert after == before  # ... and not a byte of the referee's digest

