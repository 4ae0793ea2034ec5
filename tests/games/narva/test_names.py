"""Units are named in orders as the reports print them (issue 12, a whole game played by hand by mail):
the report's unit lists print ids (``30GD/30Tk``, ``IND/185Tk``), so the part after the formation
(``30Tk``, ``185tk``) names the unit too; a number two units share (``191``, ruling N-52) names the one
the question asked now can take, else the one on the map, and otherwise the refusal names both.
A name no unit has is refused as such, and a refused order's suggestions are legal answers."""

from __future__ import annotations

import pytest

from moderator.core.errors import ParseError
from moderator.games.narva.engine import engine
from moderator.games.narva.orders import GRAMMAR
from tests.games.narva.drive import cannot, moving
from tests.games.narva.helpers import answer, position


def read(board, role: str, text: str, kind: str):
    return GRAMMAR.parse(text, engine.lexicon(board.data, role), kinds=[kind])


@pytest.mark.parametrize("written, meant", [("30Tk", "30GD/30Tk"), ("185Tk", "IND/185Tk"), ("185tk", "IND/185Tk"),
                                            ("185 Tk", "IND/185Tk"), ("IND/185Tk", "IND/185Tk"),
                                            ("1434AG", "IND/1434AG")])
def test_a_unit_is_named_as_the_report_prints_it(written, meant):
    """Mails 015 and 022: 'ATTACH 185tk 864' and 'MOVE 30Tk 185Tk ...' were refused although the report
    printed 30GD/30Tk and IND/185Tk (14.11.2: the 30 Tk of the 30th Guards, the independent 185 Tk)."""
    board = position({"30GD/30Tk": "3513", "IND/185Tk": "3513", "IND/1434AG": "3529"}, turn=2)
    assert read(board, "soviet", f"MOVE {written} TO 3412", "move").values("units") == (meant,)
    assert read(board, "soviet", f"ATTACH {written}", "attach").values("units") == (meant,)


def test_ruling_N_52_a_shared_number_names_the_only_one_on_the_map():
    """Mail 022: 'MOVE 191 TO 2721' was refused while the 117th Corps (with its own 191) had not yet
    arrived (14.11.2: turn 2 at D); only 30GD/191 could be meant."""
    board = position({"30GD/191": "2719", "30GD/HQ": "3015"}, turn=1)
    assert read(board, "soviet", "MOVE 191 TO 2721", "move").values("units") == ("30GD/191",)


def test_ruling_N_52_a_shared_number_names_the_one_the_question_can_take():
    """Both 191s on the map: in the 117th Corps' activation '191' is 117/191 (4.0A: only its units move)."""
    board = position({"30GD/191": "2719", "117/191": "3428", "117/HQ": "3529"}, turn=3)
    moving(board, "soviet", "117/HQ", "117/191")
    assert read(board, "soviet", "MOVE 191 TO 3427", "move").values("units") == ("117/191",)
    answer(board, "MOVE 191 TO 3427")
    assert board.hex_of("117/191") == "3427" and board.hex_of("30GD/191") == "2719"


def test_ruling_N_52_a_shared_number_that_could_be_either_unit_is_refused_naming_both():
    board = position({"30GD/191": "2719", "117/191": "3428"}, turn=3)
    with pytest.raises(ParseError, match=r"'191' could be 30GD/191 or 117/191") as refused:
        read(board, "soviet", "MOVE 191 TO 2721", "move")
    assert "'191' could be 30GD/191 or 117/191" in str(refused.value) and "N-52" in str(refused.value)
    assert set(refused.value.suggestions) == {"30GD/191", "117/191"}


@pytest.mark.parametrize("text, kind", [("ATTACH 185tx 864", "attach"), ("MOVE 191x TO 2721", "move")])
def test_an_unknown_unit_is_refused_as_an_unknown_unit(text, kind):
    """Mails 015 and 022 said "expected 'NONE' but found '185tk'" and "expected 'DONE' but found '191'":
    the word is a unit name nothing on the counters matches, and the refusal says so."""
    board = position({"30GD/191": "2719", "IND/185Tk": "3513"}, turn=2)
    with pytest.raises(ParseError, match=r"^no unit '") as refused:
        read(board, "soviet", text, kind)
    word = text.split()[1]
    assert str(refused.value).startswith(f"no unit '{word}'") and "expected" not in str(refused.value)


def test_6_0B_a_unit_that_has_moved_is_told_the_legal_moves_to_that_hex_not_names_that_cannot_get_there():
    """Mail 060: '185 Tk has already moved; did you mean 'MOVE 30 GD HQ TO 2530' or 'MOVE 188 TO 2530' or
    'MOVE 191 TO 2530'?' - none of them could reach 2530, and '191' is no name of one unit (N-52).  The
    suggestions are moves of the other units that reach the hex, written by id; none when none can."""
    board = position({"109/381": "2222", "109/456": "2223", "109/602": "2030"})
    moving(board, "soviet", "109/381", "109/456", "109/602")
    answer(board, "MOVE 381 TO 2322")
    refused = cannot(board, "MOVE 381 TO 2323", because=r"381 has already moved")
    assert refused.suggestions == ("MOVE 109/456 TO 2323",)  # 602, at 2030, is far out of reach
    refused = cannot(board, "MOVE 381 TO 2526", because=r"381 has already moved")
    assert refused.suggestions == ()
