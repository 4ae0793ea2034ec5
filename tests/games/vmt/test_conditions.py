"""The tests a VMT player's guards and standing orders may use (DESIGN §4): each reads only the
player's own view and the question's context."""

import pytest

from moderator.core.contract import Decision
from moderator.core.errors import ParseError
from moderator.games.vmt.conditions import evaluate


def view(side="axis", phase_side="axis", last=None, **extra):
    base = {"side": side, "phase_side": phase_side, "last_combat": last, "turn": 3, "hand": ["mortars"],
            "areas": [{"id": "A08", "control": "axis"}, {"id": "C01", "control": "soviet"}]}
    base.update(extra)
    return base


def decision(**context):
    return Decision("k", "axis", "card", "?", "PASS", context=context)


def test_lost_and_won_read_the_combat_just_fought():
    last = {"area": "A08", "attacker": "axis", "winner": "soviet"}
    assert evaluate("LOST", view(last=last), decision(), ())
    assert not evaluate("WON", view(last=last), decision(), ())


def test_counterattacked_is_true_after_the_enemy_counterattack_in_your_own_phase():
    """L160/L439: after an Axis combat the Soviet may Counterattack; an Axis script can test for it
    (e.g. 'IF COUNTERATTACKED: STOP')."""
    counter = {"area": "A08", "attacker": "soviet", "winner": "soviet"}
    assert evaluate("COUNTERATTACKED", view(last=counter), decision(), ())
    own_attack = {"area": "A08", "attacker": "axis", "winner": "axis"}
    assert not evaluate("COUNTERATTACKED", view(last=own_attack), decision(), ())
    # in the Soviet phase a Soviet attack is no counterattack against the Axis
    assert not evaluate("COUNTERATTACKED", view(phase_side="soviet", last=counter), decision(), ())
    assert not evaluate("COUNTERATTACKED", view(last=None), decision(), ())


def test_turn_control_and_hold():
    assert evaluate("TURN", view(), decision(), ("3",)) and not evaluate("TURN", view(), decision(), ("4",))
    assert evaluate("TURN", view(), decision(), ("2+",)) and not evaluate("TURN", view(), decision(), ("2",))
    assert evaluate("CONTROL", view(), decision(), ("A08",)) and not evaluate("CONTROL", view(), decision(), ("C01",))
    assert evaluate("HOLD", view(), decision(), ("MORTARS",)) and not evaluate("HOLD", view(), decision(), ("GOLIATH",))
    with pytest.raises(ParseError, match=r"TURN takes a turn number, e\.g\. TURN 3"):
        evaluate("TURN", view(), decision(), ())
