"""A league by mail (issue 15): sign-up with JOIN LEAGUE, member and referee commands from the
command table, rounds whose games are created through the lobby, results, standings mail, reserves."""

from __future__ import annotations

import json

from moderator.mail.commands import MEMBER, ORGANISER, commands_for
from moderator.store import leagues as stored
from tests.conftest import flat, make_app, text_of
from tests.league.club import REFEREE, Club, last_mail, mails_to, scoring_registry
from tests.mailmaker import player_mail

PLAYERS = [f"p{n}@club.test" for n in range(1, 6)]


def test_a_member_signs_up_by_mail_and_the_welcome_lists_the_member_commands(app):
    club = Club.found(app)
    outcome = club.join("ann@club.test", "AVAILABILITY 2\nSIDES south\n")
    assert outcome.status == "joined", outcome.reason
    welcome = flat(last_mail(app, "ann@club.test"))
    assert "Your league secret is" in welcome and "LEAGUE cup" in welcome
    for command in commands_for(MEMBER):
        assert command.usage in welcome
    with app.db.session() as session:
        member = stored.member_by_address(session, "cup", "ann@club.test")
        assert (member.timezone, member.availability, member.sides) == ("Europe/Madrid", 2, "south")


def test_a_sign_up_with_an_unknown_side_or_zone_is_refused_and_a_stranger_s_bad_token_is_quarantined(app):
    club = Club.found(app)
    assert "not a side of this game" in flat(text_of_reply(club.join("bob@club.test", "SIDES east\n")))
    assert "not a time zone" in flat(text_of_reply(club.app.receive(
        player_mail(
            "bob@club.test", f"JOIN LEAGUE {club.token}\nTZ Mars/Olympus\n"))))
    stranger = app.receive(player_mail(
        "eve@else.test", "JOIN LEAGUE AAAA-BBBB\n"))
    assert stranger.status == "quarantined"


def points_in(mail: str) -> float:
    """The sum of the Pts column of a standings mail."""
    rows = [line.split() for line in mail.splitlines() if line[:3].strip().isdigit() and "@" not in line]
    return sum(float(row[2].replace("½", ".5")) if row[2] != "½" else 0.5 for row in rows)


def text_of_reply(outcome) -> str:
    assert outcome.replies, outcome
    return text_of(outcome.replies[0].raw)


def test_the_referee_adds_seeds_removes_and_the_secret_is_checked(app):
    club = Club.found(app)
    refused = club.referee("ADD carl@club.test Carl\n", secret="AAAA-BBBB")
    assert "referee SECRET" in flat(text_of_reply(refused))
    answer = flat(text_of_reply(club.referee("ADD carl@club.test Carl\nADD dora@club.test\nSEED carl@club.test 1\n"
                                             "REMOVE dora@club.test\n")))
    assert "carl@club.test is a member" in answer and "seeded 1" in answer and "dora@club.test was removed" in answer
    for command in commands_for(ORGANISER):
        assert command.usage in answer  # the referee's receipt carries the referee's help
    assert mails_to(app, "carl@club.test", "Your league secret is")


def test_a_swiss_league_runs_by_mail_to_final_standings_with_ratings(tmp_path):
    app = make_app(tmp_path, registry=scoring_registry())
    club = Club.found(app, format="swiss", rounds=3, round_days=3.0, timeout="score", nmr_limit=50)
    for address in PLAYERS:
        assert club.join(address).status == "joined"
    club.referee("START\n")
    club.run()
    league = club.league()
    assert league.status == "over" and league.current_round == 3
    rows = club.games()
    assert len(rows) == 9 and sum(r.result == "bye" for r in rows) == 3  # 5 members: a bye each round
    assert all(r.result in ("first", "second", "draw", "bye") for r in rows)
    assert {r.how for r in rows if r.second_id} == {"score"}  # nobody played: each round's time ran out
    pairs = [frozenset((r.first_id, r.second_id)) for r in rows if r.second_id]
    assert len(pairs) == len(set(pairs))  # no rematch
    final = flat(last_mail(app, PLAYERS[0]))
    assert "final standings" in final and "Buch" in final and "S-B" in final
    assert len(mails_to(app, PLAYERS[0], "standings after round")) == 2
    after_one = mails_to(app, PLAYERS[0], "standings after round 1")[0]
    assert points_in(after_one) == 3.0  # two games and a bye: round 2's bye is not counted yet
    with app.db.session() as session:
        ratings = stored.ratings(session, PLAYERS, "*")
        assert set(ratings) == set(PLAYERS) and all(r.deviation < 350 for r in ratings.values())
    assert (app.settings.data_dir / "leagues" / "cup" / "index.html").exists()
    assert mails_to(app, REFEREE, "referee secret")


def adjudicate_for(side: str):
    """The referee answers each request for adjudication with a win for `side`."""
    def adjudicate(club):
        for text in mails_to(club.app, REFEREE, "needs your adjudication"):
            game_id = text.split("Game ", 1)[1].split(" ", 1)[0]
            if any(r.game_id == game_id and r.result == "pending" for r in club.games()):
                answer = club.referee(f"RESULT {game_id} {side}\n")
                assert f"{side} wins, recorded" in flat(text_of_reply(answer))
    return adjudicate


def test_a_round_out_of_time_waits_for_the_referee_s_result_under_the_adjudication_policy(app):
    club = Club.found(app, format="round-robin", round_days=3.0, timeout="adjudicate", nmr_limit=50)
    for address in PLAYERS[:4]:
        club.join(address)
    club.referee("START\n")

    club.run(on_step=adjudicate_for("north"))
    rows = club.games()
    assert len(rows) == 6 and {r.how for r in rows} == {"adjudicated"} and {r.result for r in rows} == {"first"}
    mine = [text for text in mails_to(app, PLAYERS[0], "The game is over")]
    assert mine and "adjudicated by the league's referee" in flat(mine[0])


def test_a_seat_over_the_nmr_limit_with_no_reserve_is_forfeited_as_declared(app):
    club = Club.found(app, format="round-robin", round_days=30.0, nmr_limit=1, fallback="forfeit")
    club.join(PLAYERS[0])
    club.join(PLAYERS[1])
    club.referee("START\n")
    app.tick()
    club.answer_invitations()
    app.clock.advance(hours=49)  # north's first deadline passes unanswered
    app.tick()
    app.tick()
    row = club.games(1)[0]
    assert (row.result, row.how) == ("second", "forfeit")
    with app.db.session() as session:
        [offer] = stored.offers(session, "cup")
        assert (offer.status, offer.role, offer.leaving) == ("expired", "north", PLAYERS[0])
        assert stored.reliability(session, PLAYERS[0]).dropped == 1
    assert "it is forfeited" in flat(mails_to(app, PLAYERS[1], "The game is over")[0])
    assert club.league().status == "over"  # two members: a single round


def test_a_ladder_league_lets_a_winning_challenger_climb(app):
    club = Club.found(app, format="ladder", rounds=2, round_days=3.0, timeout="adjudicate", nmr_limit=50)
    for address in PLAYERS[:4]:
        club.join(address)
    club.referee("START\n")
    club.run(on_step=adjudicate_for("north"))  # the first side wins every game
    league = club.league()
    round1, [round2] = club.games(1), club.games(2)
    after = sorted([r.first_id for r in round1] + [r.second_id for r in round1])  # seeded in sign-up order
    assert {(r.first_id, r.second_id) for r in round1} == {(after[1], after[0]), (after[3], after[2])}
    for row in round1:  # round 1: the challenger (below) plays the first side; a win takes the rung
        if row.result == "first":
            upper = after.index(row.second_id)
            after[upper], after[upper + 1] = after[upper + 1], after[upper]
    assert {round2.first_id, round2.second_id} == {after[1], after[2]}  # round 2: rungs 3 v 2
    if round2.result == "second":  # round 2: the holder plays first, so the challenger won as second
        after[1], after[2] = after[2], after[1]
    assert json.loads(league.ladder_json) == after
    assert after[:2] == [2, 1]  # the challengers won round 1, the holder round 2


def test_members_change_availability_sides_and_reserve_by_mail_and_withdraw(app):
    club = Club.found(app)
    club.join("ann@club.test")
    answer = flat(text_of_reply(club.member("ann@club.test", "AVAILABILITY 3\nSIDES north south\nRESERVE\n")))
    assert "3 league game(s)" in answer and "north, south" in answer and "reserve pool" in answer
    assert "not a side" in flat(text_of_reply(club.member("ann@club.test", "SIDES up\n")))
    assert "SECRET" in flat(text_of_reply(club.app.receive(player_mail(
        "ann@club.test", "LEAGUE cup\nSECRET AAAA-BBBB\nWITHDRAW\n"))))
    asked = club.member("ann@club.test", "STANDINGS\n")
    assert len(asked.replies) == 2 and "Pts" in text_of(asked.replies[1].raw) and "ann" in text_of(asked.replies[1].raw)
    assert "withdrawn" in flat(text_of_reply(club.member("ann@club.test", "WITHDRAW\n")))
    with app.db.session() as session:
        member = stored.member_by_address(session, "cup", "ann@club.test")
        assert (member.status, member.availability, member.sides) == ("withdrawn", 3, "north,south")


def test_round_1_honours_a_member_s_preferred_side(tmp_path):
    for wish, expected in (("south", "second"), ("north", "first")):
        app = make_app(tmp_path / wish)
        club = Club.found(app, format="swiss")
        club.join(PLAYERS[0], f"SIDES {wish}\n")
        club.join(PLAYERS[1])
        club.referee("START\n")
        app.tick()
        [row] = club.games(1)
        with app.db.session() as session:
            mine = stored.member_by_address(session, "cup", PLAYERS[0]).id
        assert (row.first_id if expected == "first" else row.second_id) == mine, wish


def test_a_league_may_ask_for_a_reliable_record_at_sign_up(app):
    club = Club.found(app, min_reliability=0.8)
    with app.db.session() as session:
        late = stored.reliability(session, "late@club.test")
        late.answers, late.missed = 6, 4  # 60% of deadlines met
        session.add(late)
        new = stored.reliability(session, "new@club.test")
        new.answers, new.missed = 1, 2  # too short a record to judge
        session.add(new)
    refused = flat(text_of_reply(club.join("late@club.test")))
    assert "met 80% of their deadlines" in refused and "your record shows 60%" in refused
    assert club.join("new@club.test").status == "joined"
    assert club.join("fresh@club.test").status == "joined"
    added = flat(text_of_reply(club.referee("ADD late@club.test Late\n")))
    assert "late@club.test is a member" in added  # the referee may still add them


def test_a_league_starts_and_its_round_closes_on_either_database(db_url, tmp_path):
    app = make_app(tmp_path, url=db_url, registry=scoring_registry())
    club = Club.found(app, format="swiss", rounds=1, round_days=1.0, timeout="score", nmr_limit=50)
    for address in PLAYERS[:3]:
        assert club.join(address).status == "joined"
    club.referee("START\n")
    club.run()
    rows = club.games()
    assert len(rows) == 2 and {r.how for r in rows} == {"bye", "score"}
    assert mails_to(app, PLAYERS[0], "final standings")
