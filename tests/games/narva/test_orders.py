"""The order language of Across the Narva: every example HELP shows parses for the side it is
meant for and renders back to itself; conditions read only the player's view."""

import pytest

from moderator.core.contract import Decision
from moderator.core.errors import ParseError
from moderator.core.plans import parse_body
from moderator.games.narva.engine import engine
from moderator.games.narva.orders import GRAMMAR
from tests.games.narva.helpers import fresh_rng

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
    with pytest.raises(ParseError, match=r"found '109/381'"):  # the parse fails at the Soviet unit's name
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
