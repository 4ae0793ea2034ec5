"""Defects found when a whole VMT game was played by hand by mail (issue 12): each test writes what the
tester wrote, or sets up what they met, and reads what comes back."""

from __future__ import annotations

import email
import re
from pathlib import Path

from sqlmodel import select

from moderator.registry import product_registry
from moderator.service.seat_mail import closest_answer
from moderator.service.table import load_table
from moderator.store.models import Outbox
from tests.conftest import Seated, flat, make_app, outbox_rows, text_of
from tests.core.test_script_order import S12, S23, S34
from tests.mailmaker import player_mail
from tests.service.test_store_and_replay import play_random_game


def test_the_game_over_report_asks_nothing_and_says_no_way_to_answer(seated):
    play_random_game(seated, 5)
    with seated.app.db.session() as session:
        rows = list(session.exec(select(Outbox).where(Outbox.kind == "report").order_by(Outbox.id)))
    finals = [flat(text_of(r.raw)) for r in rows if "Game over" in r.subject]
    assert len(finals) == 2  # one for each seat
    for text in finals:
        assert "THE RESULT" in text
        assert "HOW TO ANSWER" not in text and "PHASE OVER" not in text and "SECRET" not in text
        assert "WHAT WE NEED FROM YOU" not in text


def test_a_mailbox_listed_by_name_holds_the_mails_in_the_order_they_were_sent(seated):
    """The welcome came after the first report it announces (mail 003 after 002): a Maildir reader lists
    new mail by file name, and the names were hashes."""
    app = seated.app
    play_random_game(seated, 7)
    app.drain_outbox()
    with app.db.session() as session:
        sent = [r for r in session.exec(select(Outbox).order_by(Outbox.id)) if r.status == "sent"]
    for address in seated.addresses.values():
        box = app.outbound.mailbox(address) / "new"
        listed = [email.message_from_bytes(path.read_bytes())["Message-ID"] for path in sorted(box.iterdir())]
        in_order = [r.message_id for r in sent if r.recipient == address]
        assert len(listed) > 10 and listed == in_order
        welcome = next(i for i, path in enumerate(sorted(box.iterdir()))
                       if "Welcome" in str(email.message_from_bytes(path.read_bytes())["Subject"]))
        assert welcome < next(i for i, message_id in enumerate(listed) if message_id.startswith("<report."))


def test_help_and_options_in_one_message_are_both_answered_in_one_reply(seated):
    """S2: HELP and OPTIONS in one message got the help alone; OPTIONS was dropped in silence."""
    outcome = seated.send("north", "HELP\nOPTIONS\n")
    assert outcome.status == "command" and len(outcome.replies) == 1
    text = text_of(outcome.replies[0].raw)
    assert "HOW TO PLAY" in text and "OPTIONS\n=======" in text and "ATTACK" in text
    assert "Help and Options" in str(outcome.replies[0].subject)


def test_a_command_with_orders_says_the_orders_were_not_read(seated):
    before = seated.fingerprint()
    outcome = seated.send("north", "VACATION 2099-01-01 2099-01-03\nREST\n")
    assert seated.fingerprint() == before
    text = flat(text_of(outcome.replies[0].raw))
    assert "its other lines (1) were not read as orders" in text


def test_orders_beside_options_run_first_and_options_answer_the_next_question(seated):
    """Narva m9: "ACTIVATE 109 / ATTACH ... / OPTIONS" got the options alone and the orders were lost."""
    before = seated.fingerprint()
    outcome = seated.send("north", "REST\nOPTIONS\nSTATUS\n")
    assert seated.fingerprint() != before and outcome.status == "applied"
    texts = [flat(text_of(r.raw)) for r in outcome.replies]
    answer = texts[-1]
    assert "OPTIONS" in answer and "STATUS" in answer and "not read as orders" not in answer
    assert any("YOUR MESSAGE" in t and "REST" in t for t in texts[:-1])
    assert "Options and Status" in str(outcome.replies[-1].subject)


def test_prose_beside_a_command_is_no_order_and_check_keeps_its_dry_run(seated):
    before = seated.fingerprint()
    for body in ("Hi Ref,\nOPTIONS\n", "CHECK\nREST\nOPTIONS\n"):
        outcome = seated.send("north", body)
        assert outcome.status == "command" and len(outcome.replies) == 1
    assert seated.fingerprint() == before


def _receipt_text(seated, role: str, body: str) -> str:
    """The receipt of `body` (sent now, or folded into the report it waited for)."""
    outcome = seated.send(role, body)
    seated.app.clock.advance(minutes=30)
    seated.app.send_held_receipts()
    with seated.app.db.session() as session:
        rows = list(session.exec(select(Outbox).order_by(Outbox.id)))
    mine = [flat(text_of(r.raw)) for r in rows if r.recipient == seated.addresses[role] and "YOUR MESSAGE" in
            flat(text_of(r.raw))]
    assert mine, outcome
    return mine[-1]


def test_a_later_standing_order_adds_to_the_earlier_ones_and_the_receipt_says_what_is_in_force(seated):
    """S33 then S35: filing three air orders dropped the two filed before, and the receipt said only
    'filed (in force from now on)'."""
    seated.send("south", "STANDING react IF LOST: NONE\nSTANDING react IF HP_BELOW 3: NONE\n")
    text = _receipt_text(seated, "south", "STANDING react IF HOLD 6: NONE\nSTANDING react: ASK\n")
    assert ("Your standing orders for react (Reaction window) are now, tried in this order: STANDING REACT IF "
            "LOST: NONE / STANDING REACT IF HP_BELOW 3: NONE / STANDING REACT IF HOLD 6: NONE / STANDING REACT: "
            "ASK.") in text
    assert ("filed STANDING REACT IF HOLD 6: NONE (in force from now on; tried after the 2 react orders with IF "
            "filed before it (listed below), any of which answers instead when its tests hold too (to try this one "
            "first, send STANDING react FIRST IF HOLD 6: NONE))") in text
    text = _receipt_text(seated, "south", "STANDING react IF LOST: CLEAR\nSTANDING react: NONE\n")
    assert ("tried in this order: STANDING REACT IF HP_BELOW 3: NONE / STANDING REACT IF HOLD 6: NONE / "
            "STANDING REACT: NONE. This message replaced: STANDING REACT: ASK. It withdrew: STANDING REACT IF "
            "LOST: NONE.") in text
    assert "in force from now on, in place of STANDING REACT: ASK" in text and "withdrew 1 standing order" in text
    text = _receipt_text(seated, "south", "STANDING react CLEAR\n")
    assert "You have no standing order for react (Reaction window) now: the game's default NONE answers." in text


def test_a_new_if_line_is_told_what_is_tried_before_it_and_first_puts_it_ahead(seated):
    """hand-vmt.md D12: the later IF line went last, where an earlier one answers first, and nothing said so;
    the receipt and the report's block now list the lines in the order tried, the game's default last."""
    seated.send("south", "STANDING react IF HP_BELOW 3: NONE\n")
    text = _receipt_text(seated, "south", "STANDING react IF LOST: NONE\n")
    assert ("filed STANDING REACT IF LOST: NONE (in force from now on; tried after STANDING REACT IF HP_BELOW 3: "
            "NONE, filed before, which answers instead whenever its tests hold too (to try this one first, send "
            "STANDING react FIRST IF LOST: NONE))") in text
    assert ("tried in this order: STANDING REACT IF HP_BELOW 3: NONE / STANDING REACT IF LOST: NONE. When none of "
            "them holds, the game's default NONE answers. (A new STANDING react line adds to these ('STANDING react "
            "FIRST IF <test>: …' files one ahead of the others)") in text
    text = _receipt_text(seated, "south", "STANDING react FIRST IF LOST: NONE\n")
    assert "filed STANDING REACT FIRST IF LOST: NONE (in force already; tried first of your react orders)" in text
    assert "tried in this order: STANDING REACT IF LOST: NONE / STANDING REACT IF HP_BELOW 3: NONE." in text
    seated.send("north", "ATTACK\n")
    reports = [flat(text_of(r.raw)) for r in outbox_rows(seated.app)
               if r.recipient == seated.addresses["south"] and r.kind == "report"]
    assert ("react (Reaction window): tried in this order: STANDING REACT IF LOST: NONE / STANDING REACT IF "
            "HP_BELOW 3: NONE; otherwise the game's default NONE") in reports[-1]


# ------------------------------------------------------------------ scripts on the hand-played game's states


def vmt_at(tmp_path, state_name: str | None) -> Seated:
    """A VMT game by mail, both seats taken, set to the hand-played game's state `state_name` (None: as set up)."""
    app = make_app(tmp_path, registry=product_registry())
    addresses = {"axis": "axis@players.test", "soviet": "soviet@players.test"}
    created = app.create_game("vmt", addresses=addresses, referee_address="ref@players.test")
    secrets = {}
    for role in ("axis", "soviet"):
        # A new game's dice come from the seed and the players' entropy: fixed here, as the tests replay it.
        entropy = f"ENTROPY {role}-dice\n" if state_name is None else ""
        outcome = app.receive(player_mail(addresses[role], f"JOIN {created.invitations[role]}\n{entropy}"))
        secrets[role] = re.search(r"Your secret is (\S+)\.", text_of(outcome.replies[0].raw)).group(1)
    if state_name is None:
        return Seated(app, created.game_id, secrets, addresses, created.referee_secret)
    with app.db.session() as session:
        table = load_table(session, app.registry, created.game_id, for_update=True)
        table.state = table.engine.load_state((Path(__file__).parent.parent / "hand_vmt" / f"{state_name}.json")
                                              .read_text())
        table.game.phase_label = table.engine.phase_label(table.state)
        table.snapshot(table.game.phase_label, app.clock.now())
        session.commit()
    return Seated(app, created.game_id, secrets, addresses, created.referee_secret)


def check_of(seated: Seated, script: str) -> str:
    outcome = seated.send("axis", "CHECK\n" + script + "\n")
    return flat(text_of(outcome.replies[0].raw))


def test_check_of_s12_says_coordinate_would_run_before_the_assets_line(tmp_path):
    """Mail 014: COORDINATE 'would wait' for ever behind ASSETS NONE, and the default answered."""
    text = check_of(vmt_at(tmp_path, "s12-T2-AXIS"), S12)
    assert "would run COORDINATE 22 USING COUNTERATTACK" in text and "would run ASSETS NONE" in text
    assert "would wait" not in text and "Sent now, of your orders 14 would run." in text


def test_check_of_s23_runs_the_moves_past_the_second_assets_line(tmp_path):
    """Mail 031: the second ASSETS NONE 'would wait' and held the moves behind it."""
    text = check_of(vmt_at(tmp_path, "s23-T3-AXIS"), S23)
    assert "would run MOVE 22/16 22/47 TO A07 WITH STUGB APIOB" in text
    assert "would wait ASSETS NONE" not in text


def test_check_of_s34_says_the_assets_line_would_not_be_used_and_why(tmp_path):
    """Mail 045: ASSETS NONE 'would wait' (no Armor and Pioneer question comes: the pool is empty) and
    held MOVE 22/65 TO A07 and DONE."""
    text = check_of(vmt_at(tmp_path, "s34-T5-AXIS"), S34)
    assert "would run MOVE 22/65 TO A07" in text
    assert ("would not be used ASSETS NONE (its question did not come before a card question opened the next "
            "round)") in text
    assert "8 would run and 1 would not be used" in text


def soviet_to_act(tmp_path, monkeypatch) -> Seated:
    """A new VMT game (fixed seed) in the Soviet's first action phase: the Axis discarded, bombarded and passed."""
    monkeypatch.setattr("moderator.service.games.new_seed", lambda: bytes(range(2, 34)))
    seated = vmt_at(tmp_path, None)
    seated.send("axis", "DISCARD NONE\nEND\nPASS\n")
    assert [d.prompt.split(":")[0] for d in pending(seated)] == ["Your action phase"]
    return seated


def pending(seated: Seated):
    with seated.app.db.session() as session:
        table = load_table(session, seated.app.registry, seated.game_id)
        return table.engine.pending(table.state)


CHECK_D3 = "CHECK\nASSAULT GROUP A06 TO A02\nDONE\nEND\n"


def test_check_says_where_it_stopped_and_that_the_rest_is_taken_in_order(tmp_path, monkeypatch):
    """hand-vmt.md D3: after the assault's first line every line 'would wait', DONE 'for: Moving activated
    blocks', the very question it answers, and the check said only that it stops where another must answer."""
    text = flat(text_of(soviet_to_act(tmp_path, monkeypatch).send("soviet", CHECK_D3).replies[0].raw))
    assert "would run ASSAULT GROUP A06 TO A02" in text
    assert "would wait DONE (past where the check stopped; waits for: Moving activated blocks)" in text
    assert ("The check stopped at the Axis's next reaction, on \"Air Strike (Axis reaction)\" (air): it never "
            "answers for another player. Your lines still waiting would be taken in order when play reaches "
            "them.") in text


def test_where_the_check_stopped_is_said_the_same_whatever_the_axis_holds(tmp_path, monkeypatch):
    """The stop names the Axis's question by its public facts: with or without an Air Strike in the Axis hand
    (the card that question is about) the answer is byte-identical (issue 13)."""
    seated = soviet_to_act(tmp_path, monkeypatch)
    answers = []
    for with_air in (True, False):
        with seated.app.db.session() as session:
            table = load_table(session, seated.app.registry, seated.game_id, for_update=True)
            state = table.state
            cards = [*state["hands"]["axis"], *state["decks"]["axis"]]
            air = [c for c in cards if state["cards"][c] == "air_strike"]
            rest = [c for c in cards if c not in air]
            assert air, "the Axis deck holds an Air Strike to put in its hand"
            state["hands"]["axis"] = (air[:1] + rest[:7]) if with_air else rest[:8]
            state["decks"]["axis"] = [c for c in cards if c not in state["hands"]["axis"]]
            table.state = state
            table.snapshot(table.game.phase_label, seated.app.clock.now())
            session.commit()
        answers.append(text_of(seated.send("soviet", CHECK_D3).replies[0].raw))
    assert answers[0] == answers[1] and "The check stopped at the Axis's next reaction" in flat(answers[0])


def test_s12_sent_for_real_runs_coordinate_and_the_receipt_says_each_line_ran(tmp_path):
    seated = vmt_at(tmp_path, "s12-T2-AXIS")
    text = _receipt_text(seated, "axis", S12 + "\n")
    assert "ran COORDINATE 22 USING COUNTERATTACK" in text and "Of your orders, 14 ran." in text


def test_s34_sent_for_real_reports_the_assets_line_as_not_used(tmp_path):
    seated = vmt_at(tmp_path, "s34-T5-AXIS")
    text = _receipt_text(seated, "axis", S34 + "\n")
    assert "not used ASSETS NONE (its question did not come before a card question opened the next round)" in text
    assert "Of your orders, 8 ran and 1 was not used." in text
    assert ("SCRIPT LINES NOT USED --------------------- These lines of your script were passed over by a line "
            "written after them, and "
            "their own question did not come, so they expired: line 10: ASSETS NONE") in text


def test_vmt_help_says_how_scripts_and_standing_orders_are_read(tmp_path):
    text = flat(text_of(vmt_at(tmp_path, "s12-T2-AXIS").send("axis", "HELP\n").replies[0].raw))
    assert ("A question never takes a line written after the next card line (ASSAULT, END, PASS, PLAY, "
            "REDEPLOY): that line opens the next round.") in text
    assert "STANDING <kind> [IF <test>]: CLEAR withdraw that one standing order" in text
    assert "a new STANDING line adds to it, and replaces only the one with the same IF tests" in text
    assert ("STANDING <kind> FIRST IF <test>: <order> | ASK the same, tried before your other <kind> orders"
            in text and "(a line written FIRST goes ahead of them), and the one without IF last, whenever you "
            "filed it" in text)


def test_the_closest_answer_is_found_without_regard_to_case():
    """Narva 022: a line about 185Tk was told 'MOVE 30GD/188 TO 3020 STRATEGIC' (the line was upper-cased,
    the answers were not)."""
    answers = ["MOVE 30GD/188 TO 2530", "MOVE Ind/185tk TO 2530", "MOVE DONE"]
    assert closest_answer("move ind/185tk to 2530", answers) == ["MOVE Ind/185tk TO 2530"]
    assert closest_answer("ATTACH kampfgruppe", ["ATTACH KGR", "ATTACH Kampfgruppe"]) == ["ATTACH Kampfgruppe"]
