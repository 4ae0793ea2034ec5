"""`moderator verify` recomputes every roll and shuffle from the public archive alone."""

import json

from typer.testing import CliRunner

from moderator.cli import app_cli
from moderator.service.archive import export_archive, verify_archive
from tests.conftest import make_app, seat_duel
from tests.service.test_store_and_replay import play_random_game


def finished_archive(tmp_path):
    app = make_app(tmp_path)
    seated = seat_duel(app)
    play_random_game(seated, seed=3)
    return export_archive(app.db, app.registry, seated.game_id)


def test_a_true_archive_verifies_and_a_tampered_roll_fails(tmp_path):
    archive = finished_archive(tmp_path)
    assert verify_archive(archive) == []
    assert len(archive["draws"]) > 10
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(archive))
    runner = CliRunner()
    ok = runner.invoke(app_cli, ["verify", str(path)])
    assert ok.exit_code == 0, ok.output
    dice = next(i for i, d in enumerate(archive["draws"]) if d["stream"] == "dice")
    archive["draws"][dice]["value"] = (archive["draws"][dice]["value"] + 1) % 6
    path.write_text(json.dumps(archive))
    bad = runner.invoke(app_cli, ["verify", str(path)])
    assert bad.exit_code == 1
    assert "MISMATCH" in bad.output


def test_a_die_reported_differently_from_its_draw_fails(tmp_path):
    archive = finished_archive(tmp_path)
    for entry in archive["log"]:
        for event in entry.get("payload", {}).get("events", []):
            if event["kind"] == "clash":
                side = next(iter(event["data"]["sides"].values()))
                side["die"][0] = 7 - side["die"][0] if side["die"][0] != 3.5 else 1
                problems = verify_archive(archive)
                assert any("reports a" in p for p in problems)
                return
    raise AssertionError("no clash in the game")


def test_a_wrong_seed_fails_the_commitment(tmp_path):
    archive = finished_archive(tmp_path)
    archive["seed"] = "00" * 32
    assert any("commitment" in p for p in verify_archive(archive))


def test_the_archive_is_refused_while_the_game_runs(tmp_path):
    import pytest

    from moderator.core.errors import ModeratorError

    app = make_app(tmp_path)
    seated = seat_duel(app)
    with pytest.raises(ModeratorError, match="stays secret"):
        export_archive(app.db, app.registry, seated.game_id)
