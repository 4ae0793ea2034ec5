"""HELP carries the CRT the moderator uses (9.1): the rulebook prints none, and a tester playing by
mail read "column 3-2; die 4: D1r1" in every report with nothing to read it against."""

from __future__ import annotations

from moderator.games.narva.engine import NarvaEngine
from moderator.games.narva.scenario import scenario_named
from moderator.render.texts import make_environment
from moderator.service.reports import help_text
from moderator.settings import Settings


def narva_help() -> str:
    environment = make_environment([Settings().templates_dir])
    return help_text(environment, NarvaEngine())


def test_9_1_help_prints_both_odds_lines_and_every_row_of_the_crt_from_the_scenario_data():
    text = narva_help()
    assert "TABLES" in text and "COMBAT RESULTS TABLE (9.1" in text
    crt = scenario_named("campaign").tables.crt
    lines = text.splitlines()
    german = next(line for line in lines if line.startswith("German attacks"))
    soviet = next(line for line in lines if line.startswith("Soviet attacks"))
    assert german.split()[2:] == [c.german for c in sorted(crt.columns, key=lambda c: c.index)]
    assert soviet.split()[2:] == [c.soviet for c in sorted(crt.columns, key=lambda c: c.index)] + ["Barrage"]
    for row in crt.rows:
        line = next(line for line in lines if line.startswith(f"  die {row.die} "))
        # each cell in its own column: the row reads back cell by cell at the column width
        cells = [line[15 + 9 * i:15 + 9 * (i + 1)].strip() for i in range(len(row.results))]
        assert cells == list(row.results) and line[15 + 9 * len(row.results):] == row.barrage


def test_9_1D_the_legend_explains_the_codes_a_report_prints():
    text = " ".join(narva_help().split())
    for code in ("steps lost", "hexes retreated", "NR no result", "P pinned", "only when the Soviets attack (9.1D)",
                 "cancel the attack (9.3.2A)"):
        assert code in text


def test_a_game_without_such_tables_has_no_tables_section():
    from tests.testgame.duel import engine as duel

    environment = make_environment([Settings().templates_dir])
    assert "TABLES" not in help_text(environment, duel)
