"""Benchmark (not a test): the cost of one complete per-role VMT report with its map, against one
PNG encode of an image of the same size as the map, as a ratio measured in one run.

    .venv/bin/python benchmarks/report_cost.py [REPEATS]

The report is everything a player receives: the role's view, the narrated events, the text and
HTML bodies, the map and its detail image, the .ics deadline and the MIME bytes.  Goal: <= 2.
"""

from __future__ import annotations

import io
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


from moderator.games.vmt import mapdraw
from moderator.games.vmt.engine import engine
from moderator.service.reports import compose_report
from tests.conftest import make_app
from tests.games.vmt.harness import Position


def a_position() -> Position:
    pos = Position().clear()
    pos.place("A04: 50/121 50/122 24/31 | A09: 24/32 24/102 50/123 | A08: Perekop 25/54 | A12: 25/31")
    pos.control("A08", "soviet").hand("axis", "assault", "counterattack").hand("soviet", "mortars")
    pos.phase("axis")
    pos.order("axis", "ASSAULT DIVISION 24")
    pos.order("axis", "COORDINATE 50 USING COUNTERATTACK")
    pos.order("axis", "MOVE 50/121 50/122 24/31 TO A08")
    pos.order("axis", "MOVE 24/32 24/102 50/123 TO A08")
    pos.order("axis", "RESOLVE A08")
    return pos


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    import tempfile

    app = make_app(Path(tempfile.mkdtemp()))
    pos = a_position()
    events = pos.events
    payload = {"role": "soviet", "address": "s@x.test", "seq": 9, "message_id": "<bench@x>",
               "date": "2026-06-01T12:00:00+00:00", "subject": "[vmt-0001/soviet] Von Manstein's Triumph",
               "heading": "vmt-0001: turn 1", "commitment": "c" * 64,
               "deadlines": {d.key: "2026-06-03T12:00:00+00:00" for d in engine.pending(pos.state)}}
    compose_report(engine, app.environment, app.addressing, "vmt-0001", pos.state, events, payload)  # warm caches
    same_size = mapdraw.render(engine.view(pos.state, "soviet"))
    ratios, reports, encodes = [], [], []
    for _ in range(repeats):
        start = time.perf_counter()
        out = compose_report(engine, app.environment, app.addressing, "vmt-0001", pos.state, events, payload)
        out.to_bytes()
        report = time.perf_counter() - start
        start = time.perf_counter()
        buffer = io.BytesIO()
        same_size.save(buffer, "PNG", compress_level=6)
        encode = time.perf_counter() - start
        reports.append(report)
        encodes.append(encode)
        ratios.append(report / encode)
    print(f"map size {same_size.size[0]}x{same_size.size[1]}")
    print(f"median: report {statistics.median(reports) * 1000:.1f} ms, PNG encode {statistics.median(encodes) * 1000:.1f} ms, "
          f"ratio {statistics.median(ratios):.2f} over {repeats} runs (goal <= 2)")


if __name__ == "__main__":
    main()
