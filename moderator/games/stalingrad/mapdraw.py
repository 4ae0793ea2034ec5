"""The board picture (placeholder until drawn): the districts and the battle."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def draw_map(view: Mapping[str, Any]) -> bytes | None:
    return None


def draw_detail(view: Mapping[str, Any]) -> bytes | None:
    return None
