"""What each game wrote on top of the kit, by what the file is for (docs/adding-a-game.md).

Run: python scripts/kit_inventory.py.  Prints, per registered game, the modules it wrote in each
part (with lines), and the size of the kit in core/ and tests/kit/ that every game shares.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXED = {"state.py": "state", "board.py": "board", "orders.py": "orders", "conditions.py": "guards",
         "views.py": "views", "lexicon.py": "views", "narrate.py": "prose", "engine.py": "engine",
         "bot.py": "bot", "__init__.py": "package"}
PARTS = ("rules", "state", "board", "orders", "guards", "views", "prose", "scenario", "map", "bot", "engine",
         "templates", "data", "playthrough")


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def part_of(path: Path) -> str | None:
    if "scenario" in path.parts:
        return "scenario"
    if path.name.startswith("mapdraw"):
        return "map"
    if path.name in FIXED:
        return None if FIXED[path.name] == "package" else FIXED[path.name]
    return "rules"


def inventory(package: Path) -> dict[str, tuple[int, int]]:
    """A game package's files by part; a test-only game keeps its templates and data inside its package."""
    game = package.name
    found: dict[str, list[int]] = {part: [] for part in PARTS}
    for path in sorted(package.rglob("*.py")):
        part = part_of(path)
        if part:
            found[part].append(lines(path))
    templates = [ROOT / "templates" / "games" / game, package / "templates" / "games" / game]
    data = [ROOT / "scenarios" / game, package / "data"]
    found["templates"] = [lines(p) for folder in templates for p in folder.glob("*.j2")]
    found["data"] = [lines(p) for folder in data for p in folder.glob("*") if p.suffix in (".yaml", ".md")]
    found["playthrough"] = [lines(p) for p in (ROOT / "tests" / "playthroughs" / game).glob("script.yaml")]
    return {part: (len(sizes), sum(sizes)) for part, sizes in found.items()}


def main() -> None:
    packages = [p for folder in (ROOT / "moderator" / "games", ROOT / "tests" / "testgame")
                for p in sorted(folder.iterdir()) if p.is_dir() and (p / "engine.py").exists()]
    games = [p.name for p in packages]
    table = {p.name: inventory(p) for p in packages}
    print("| part (written by each game) | " + " | ".join(games) + " |")
    print("|---|" + "---|" * len(games))
    for part in PARTS:
        cells = [f"{files} file(s), {total} lines" if files else "—" for files, total in (table[g][part] for g in games)]
        print(f"| {part} | " + " | ".join(cells) + " |")
    kit = [p for p in (ROOT / "moderator" / "core").glob("*.py")] + list((ROOT / "moderator" / "render").glob("*.py"))
    tests = list((ROOT / "tests" / "kit").glob("*.py")) + list((ROOT / "tests" / "architecture").glob("*.py"))
    print(f"\nThe kit every game shares: moderator/core and moderator/render, {len(kit)} modules, "
          f"{sum(lines(p) for p in kit)} lines; tests/kit and tests/architecture, {len(tests)} modules, "
          f"{sum(lines(p) for p in tests)} lines.")


if __name__ == "__main__":
    main()
