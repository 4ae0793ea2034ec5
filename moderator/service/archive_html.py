"""`moderator archive GAME --out DIR`: a static HTML archive that opens from disk.

Turn by turn, each page shows what an observer saw (public events with their dice, the observer's
map and situation).  Once the game is over the archive adds the full reveal: every hidden block,
hand and set-up at the end, and the seed, next to archive.json for `moderator verify`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jinja2 import Environment

from moderator.core.contract import OBSERVER, REFEREE, Engine
from moderator.registry import Registry
from moderator.render.texts import render
from moderator.service.archive import export_archive
from moderator.service.replay import Replayer
from moderator.service.reports import narrate, situation_templates
from moderator.service.table import load_table
from moderator.store.db import Database


class HtmlArchive:
    """Writes a game's HTML archive; needs the database, the games, the templates and the replayer."""

    def __init__(self, database: Database, registry: Registry, environment: Environment, replayer: Replayer):
        self.database = database
        self.registry = registry
        self.environment = environment
        self.replayer = replayer

    def write(self, game_id: str, out: Path) -> Path:
        """Write the archive of `game_id` into `out`; returns its index page."""
        out.mkdir(parents=True, exist_ok=True)
        with self.database.session() as session:
            table = load_table(session, self.registry, game_id)
            engine = table.engine
            game = table.game
            finished = game.status == "over"
            seed = game.seed_hex if finished else None
            commitment = game.commitment
            result = json.loads(game.result_json or "{}")
        _, html_template = situation_templates(self.environment, engine.info.id)
        pages, last_state = self._pages(engine, game_id)
        self._write_pages(out, engine, game_id, pages, html_template)
        reveal = None
        if finished and last_state is not None:
            reveal_view = engine.view(last_state, REFEREE)
            reveal = {"view": reveal_view, "file": "reveal.html"}
            reveal_map = engine.map_png(reveal_view)
            if reveal_map:
                (out / "reveal.png").write_bytes(reveal_map)
            (out / "reveal.html").write_text(render(
                self.environment, "archive/reveal.html.j2", game_id=game_id, title=engine.info.title,
                view=reveal_view, situation_html=html_template, role=REFEREE, has_map=bool(reveal_map),
                seed=seed, result=result))
            archive = export_archive(self.database, self.registry, game_id)
            (out / "archive.json").write_text(json.dumps(archive, indent=1, sort_keys=True))
        index = out / "index.html"
        index.write_text(render(self.environment, "archive/index.html.j2", game_id=game_id, title=engine.info.title,
                                pages=pages, finished=finished, reveal=reveal, seed=seed, commitment=commitment,
                                result=result))
        return index

    def _pages(self, engine: Engine[Any], game_id: str) -> tuple[list[dict[str, Any]], Any]:
        """One page per phase, with the events an observer saw in it; and the last state."""
        pages: list[dict[str, Any]] = []
        current: dict[str, Any] | None = None
        last_state = None
        for _, state, events in self.replayer.steps(game_id):
            label = engine.phase_label(state)
            title = engine.phase_title(state)
            if current is None or current["label"] != label:
                if current is not None:
                    pages.append(current)
                current = {"label": label, "title": title, "events": [], "state": state}
            current["events"] += [narrate(engine, e, OBSERVER) for e in events if e.is_visible_to(OBSERVER)]
            current["state"] = state
            last_state = state
        if current is not None:
            pages.append(current)
        return pages, last_state

    def _write_pages(self, out: Path, engine: Engine[Any], game_id: str, pages: list[dict[str, Any]],
                     html_template: str) -> None:
        """Each phase's page with the observer's view and map, linked to the previous and next."""
        for number, page in enumerate(pages, start=1):
            view = engine.view(page["state"], OBSERVER)
            page["file"] = f"phase-{number:03d}.html"
            page["map"] = None
            png = engine.map_png(view)
            if png:
                page["map"] = f"phase-{number:03d}.png"
                (out / page["map"]).write_bytes(png)
            page["view"] = view
        for number, page in enumerate(pages):
            html = render(self.environment, "archive/phase.html.j2", game_id=game_id, title=engine.info.title,
                          page=page, previous=pages[number - 1]["file"] if number else None,
                          next=pages[number + 1]["file"] if number + 1 < len(pages) else None,
                          situation_html=html_template, view=page["view"], role=OBSERVER)
            (out / page["file"]).write_text(html)
