"""The house's layers (issue 11): no import cycles, each layer imports only what lies below it,
and no module reaches into another's private names.  Imports inside functions count too: a
function-local import hides a cycle from Python but not from a reader."""

from __future__ import annotations

import pytest

from tests.architecture.imports import area_of, cycles, private_uses, read_modules

MODULES = read_modules()

#: What each layer may import besides itself (games may import their own package only).
ALLOWED = {
    "core": set(),
    "maps": {"core"},
    "render": {"core", "maps"},
    "games": {"core", "maps", "render"},
    "clock": set(),
    "settings": {"core"},
    "store": {"core"},
    "mail": {"core", "settings", "clock"},
    "registry": {"core", "games"},
    "service": {"core", "mail", "store", "render", "registry", "settings", "clock"},
    "demo": {"core", "mail", "service", "store", "clock"},
    "daemon": {"core", "mail", "service", "settings", "clock"},
    "doctor": {"core", "mail", "settings", "clock"},
    "league": {"core", "mail", "service", "store", "render", "registry", "settings", "clock", "demo"},
    "app": {"core", "mail", "service", "store", "render", "registry", "settings", "clock", "league"},
    "cli": {"core", "mail", "service", "store", "render", "registry", "settings", "clock", "app", "daemon",
            "demo", "doctor", "games", "league"},
    "package": set(),
    "__main__": {"cli"},
}


def allowed(importer: str, imported: str) -> bool:
    here, there = area_of(importer), area_of(imported)
    if here == there:
        return True
    layer = here.split(".")[0]
    return there.split(".")[0] in ALLOWED[layer] and not (layer == "games" and there.startswith("games."))


def test_the_layer_table_covers_every_module():
    """A new top-level module must be placed in the table (and so in a layer) before it lands."""
    unknown = sorted({area_of(name).split(".")[0] for name in MODULES} - set(ALLOWED))
    assert unknown == []


def test_no_import_cycles_among_moderator_modules():
    assert cycles(MODULES) == []


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_each_layer_imports_only_the_layers_below_it(layer):
    wrong = [f"{name}:{line} imports {target}"
             for name, module in MODULES.items() if area_of(name).split(".")[0] == layer
             for target, line in module.imports.items() if not allowed(name, target)]
    assert wrong == []


def test_core_imports_no_game_service_or_mail_module():
    """Stated apart because it is the rule a new game relies on: the core knows no game."""
    wrong = [f"{name} imports {target}" for name, module in MODULES.items() if area_of(name) == "core"
             for target in module.imports if area_of(target).split(".")[0] in ("games", "service", "mail")]
    assert wrong == []


def test_a_game_imports_no_other_game():
    wrong = [f"{name} imports {target}" for name, module in MODULES.items() if area_of(name).startswith("games.")
             for target in module.imports
             if area_of(target).startswith("games.") and area_of(target) != area_of(name)]
    assert wrong == []


def test_no_module_uses_another_module_s_private_names():
    assert [f"{u.module}:{u.line} {u.text}" for u in private_uses(MODULES)] == []


def test_the_checks_see_what_they_claim_to_see(tmp_path):
    """The graph counts imports inside functions, and the private-name check sees `obj._x`."""
    activation = MODULES["moderator.core.runner"]
    assert "moderator.core.contract" in activation.imports
    import ast

    from tests.architecture.imports import Module

    tree = ast.parse("def f(board):\n    from moderator.core import rng\n    return board._secret\n")
    probe = Module("moderator.core.probe", tmp_path / "probe.py", tree)
    from tests.architecture import imports

    for node in ast.walk(tree):
        for target in imports._targets(node, probe, MODULES):
            probe.imports.setdefault(target, node.lineno)
    assert "moderator.core.rng" in probe.imports
    assert [u.text for u in private_uses({"moderator.core.probe": probe})] == ["board._secret"]
