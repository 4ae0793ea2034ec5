"""The order language of Across the Narva: every example HELP shows parses for the side it is
meant for and renders back to itself; conditions read only the player's view."""

import email
import re

import pytest

from moderator.core.contract import Decision
from moderator.core.errors import ParseError
from moderator.core.plans import parse_body
from moderator.games.narva.engine import engine
from moderator.games.narva.orders import GRAMMAR
from moderator.registry import Registry
from tests.conftest import flat, make_app, outbox_rows, text_of
from tests.games.narva.helpers import fresh_rng
from tests.mailmaker import player_mail

STATE = engine.setup("campaign", {}, fresh_rng(1))


@pytest.mark.parametrize("spec", [s for s in GRAMMAR.specs if s.examples], ids=lambda s: f"{s.kind}-{s.form}")
def test_every_help_example_parses_for_one_side_and_renders_back(spec):
    parsed, errors = [], []
    for role in ("german", "soviet"):
        try:
            parsed.append((role, GRAMMAR.parse(spec.examples[0], engine.lexicon(STATE, role), kinds=[spec.kind])))
        except ParseError as error:
            errors.append(error.explain())
    assert parsed, (f"no side can write the HELP example {spec.examples[0]!r}", errors)
    role, order = parsed[0]
    assert (order.kind, order.form) == (spec.kind, spec.form)
    assert GRAMMAR.parse(GRAMMAR.render(order), engine.lexicon(STATE, role), kinds=[spec.kind]) == order

def test_a_player_cannot_name_the_other_side_s_units():
    assert GRAMMAR.parse("MOVE 109/381 TO 2223", engine.lexicon(STATE, "soviet"), kinds=["move"])
    with pytest.raises(ParseError, match=r"no unit '109/381'"):  # the parse fails at the Soviet unit's name
        GRAMMAR.parse("MOVE 109/381 TO 2223", engine.lexicon(STATE, "german"), kinds=["move"])


def test_keyed_orders_from_a_mail_body_are_read_with_their_tests():
    lines = list(enumerate(["ON CHIT 2SH: ACTIVATE 109", "ON HQ 109 AND NOT FROZEN: MOVE 381 456 TO 2223",
                            "STANDING HQ IF CHIT 59: ASK", "READY"], 1))
    body = parse_body(lines, GRAMMAR, engine.lexicon(STATE, "soviet"), sorted({s.kind for s in GRAMMAR.specs}))
    assert not body.has_errors, body.lines
    assert [a.text for a in body.agenda] == ["ACTIVATE 109/HQ", "MOVE 109/381 109/456 TO 2223"]
    assert body.agenda[1].guard[1].negated and body.standing[0].answer == "ASK"
    assert [s.text for s in body.script] == ["READY"]


def test_conditions_see_only_the_view_and_refuse_hidden_heights():
    view = engine.view(STATE, "soviet")
    ask = Decision("k", "soviet", "hq", "?", "PASS", context={"chit": "2SH", "hq": None})
    assert engine.condition("CHIT", view, ask, ("2SH",)) and not engine.condition("CHIT", view, ask, ("59",))
    assert engine.condition("ENEMY", view, ask, ("2022",)) and engine.condition("FRIENDLY", view, ask, ("2122",))
    assert engine.condition("EMPTY", view, ask, ("2222",))
    hidden = dict(view, hexes={h: dict(s, height=None) for h, s in view["hexes"].items()})
    with pytest.raises(ParseError, match=r"stack heights are hidden in this game \(option fog_stack_height\)"):
        engine.condition("ENEMY_HEIGHT", hidden, ask, ("2022", "2"))


# ---------------------------------------------------------------- 2.1.3: MIN <odds> under fog of war

KINDS = sorted({s.kind for s in GRAMMAR.specs})
MIN_LINES = ["ON HQ 109: ATTACK 2332 WITH 381 456 MIN 2-1", "IF ENEMY 2332: ATTACK 2332 WITH 381 MIN 1-1",
             "STANDING ATTACK: ATTACK 2332 WITH 381 MIN 3-1", "ATTACK 2332 WITH 381 MIN 2-1"]


def test_2_1_3_min_odds_is_refused_on_every_kind_of_line_when_a_fogged_message_is_read():
    """2.1.3, ruling N-57: under fog a player cannot see the enemy strength the odds depend on, so a keyed,
    guarded, standing or plain ATTACK line with MIN is refused as the message is read: the receipt names
    the line, gives the rule and says what to write instead."""
    body = parse_body(list(enumerate([*MIN_LINES, "READY"], 1)), GRAMMAR, engine.lexicon(STATE, "soviet"), KINDS)
    assert [line.ok for line in body.lines] == [False, False, False, False, True]
    for line in body.lines[:4]:
        assert re.search(r"MIN \d-\d is refused under fog of war: .*\(2\.1\.3, ruling N-57\)", line.error)
        assert "Write the ATTACK without 'MIN" in line.error
    assert not body.agenda and not body.standing and [s.text for s in body.script] == ["READY"]


def test_2_1_3_ruling_N_57_without_fog_min_odds_is_read_from_the_side_s_own_crt_line():
    """Ruling N-57: with fog off, MIN names a column of the writer's own line of the CRT (3-2 is German only)."""
    clear = engine.setup("campaign", {"fog": "off"}, fresh_rng(1))
    body = parse_body(list(enumerate(MIN_LINES, 1)), GRAMMAR, engine.lexicon(clear, "soviet"), KINDS)
    assert not body.has_errors, body.lines
    assert body.agenda[0].text == "ATTACK 2332 WITH 109/381 109/456 MIN 2-1"
    with pytest.raises(ParseError, match=r"no odds '3-2'"):
        GRAMMAR.parse("ATTACK 2332 WITH 381 MIN 3-2", engine.lexicon(clear, "soviet"), kinds=["attack"])
    assert GRAMMAR.parse("ATTACK 2332 WITH 162G MIN 3-2", engine.lexicon(clear, "german"),
                         kinds=["attack"]).get("odds") == "3-2"


def seated_narva(tmp_path, options):
    app = make_app(tmp_path, registry=Registry([engine]))
    addresses = {"german": "german@players.test", "soviet": "soviet@players.test"}
    created = app.create_game("narva", options=options, addresses=addresses, referee_address="gm@players.test")
    secrets = {}
    for role, address in addresses.items():
        outcome = app.receive(player_mail(address, f"JOIN {created.invitations[role]}\nENTROPY {role}\n"))
        secrets[role] = re.search(r"Your secret is ([A-Z0-9]{4}-[A-Z0-9]{4})", text_of(outcome.replies[0].raw)).group(1)

    def send(role, lines):
        """The text of every reply to `role` (its receipt, or its report with the receipt in it)."""
        body = f"GAME {created.game_id}\nROLE {role}\nSECRET {secrets[role]}\n" + "\n".join(lines) + "\n"
        outcome = app.receive(player_mail(addresses[role], body))
        mine = [r for r in outcome.replies if email.message_from_bytes(r.raw)["To"].endswith(addresses[role])]
        if not mine and outcome.status == "applied":  # a quiet receipt waits for a report; none came
            app.clock.advance(minutes=app.settings.deadlines.receipt_hold_minutes + 1)
            app.send_held_receipts()
            mine = [r for r in outbox_rows(app) if r.recipient == addresses[role]][-1:]
        assert mine, outcome.reason
        return outcome.status, flat("\n".join(text_of(r.raw) for r in mine))

    return send


def test_2_1_3_a_keyed_attack_with_min_gets_a_receipt_refusing_it_under_fog_and_nothing_is_filed(tmp_path):
    """The defect of issue 12: the keyed line used to be accepted on receipt and then silently not made.
    Now the receipt refuses the message, names the line and the rule (2.1.3, ruling N-57)."""
    send = seated_narva(tmp_path, {})
    status, text = send("soviet", ["ON HQ 109: ATTACK 2332 WITH 381 456 MIN 2-1", "READY"])
    assert status == "receipt"
    assert "Nothing was applied, because line 4 could not be read" in text
    assert "MIN 2-1 is refused under fog of war" in text and "(2.1.3, ruling N-57)" in text


def test_2_1_3_with_fog_off_the_same_keyed_attack_is_accepted(tmp_path):
    send = seated_narva(tmp_path, {"fog": "off"})
    status, text = send("soviet", ["ON HQ 109: ATTACK 2332 WITH 381 456 MIN 2-1", "READY"])
    assert status == "applied" and "Nothing was applied" not in text
    assert "4 queued ON HQ 109: ATTACK 2332 WITH 109/381 109/456 MIN 2-1" in text  # keyed: waits for its activation


def test_a_keyed_chit_test_takes_a_group_or_the_chit_as_the_cup_lists_it():
    """4.1 (command chits) and the README's keyed orders: the report lists the cup as 2SH-1, 2SH-2 ..., so a
    player who writes ON CHIT 2SH-1 means that chit; ON CHIT 2SH means any 2nd Shock Army chit.  (Found
    playing by hand: ON CHIT 2SH-1 used to match no chit, and the PASS default answered instead.)"""
    state, rng = STATE, fresh_rng(2)
    for role in ("soviet", "german"):
        state, _ = engine.apply(state, role, GRAMMAR.parse("READY", engine.lexicon(state, role), kinds=["ready"]), rng)
    asked = next(d for d in engine.pending(state) if d.kind == "hq")
    view = engine.view(state, asked.role)
    drawn = asked.context["chit_id"]
    assert drawn.startswith(asked.context["chit"] + "-")
    assert engine.condition("CHIT", view, asked, (drawn,))
    assert engine.condition("CHIT", view, asked, (asked.context["chit"],))
    assert not engine.condition("CHIT", view, asked, (asked.context["chit"] + "-9",))
