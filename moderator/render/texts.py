"""Jinja2 environment for mail texts: text templates wrap at 72 columns, HTML is autoescaped."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined, select_autoescape

WIDTH = 72


def wrap(text: str, indent: str = "", first: str | None = None, width: int = WIDTH) -> str:
    """Wrap each paragraph of `text`; `first` is the first line's prefix (default: indent)."""
    lines: list[str] = []
    for paragraph in str(text).split("\n"):
        if not paragraph.strip():
            lines.append("")
            continue
        lines.extend(textwrap.wrap(paragraph, width=width, initial_indent=indent if first is None else first,
                                   subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
                     or [""])
    return "\n".join(lines)


def make_environment(template_dirs: Iterable[Path]) -> Environment:
    loaders = [FileSystemLoader(str(d)) for d in template_dirs if d and Path(d).is_dir()]
    environment = Environment(
        loader=ChoiceLoader(loaders),
        autoescape=select_autoescape(enabled_extensions=("html", "html.j2"), default_for_string=False),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # Templates are read once: checking every file's date on every render cost more than the
        # rendering of a short receipt.  Restart the daemon after editing a template.
        auto_reload=False,
    )
    environment.filters["wrap"] = wrap
    environment.filters["title_role"] = lambda role: str(role).replace("_", " ").title()
    return environment


def render(environment: Environment, name: str, **context: Any) -> str:
    text = environment.get_template(name).render(**context)
    # Trailing spaces would turn into format=flowed soft breaks in some clients.
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n") + "\n"
