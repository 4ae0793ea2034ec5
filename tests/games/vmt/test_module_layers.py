"""The VMT modules keep the layer order their package docstring lists: each imports only from the
layers below it, and none imports a moderator module inside a function (issue 11: no import
cycles, counting function-local imports)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import moderator.games.vmt as vmt

PACKAGE = Path(vmt.__file__).parent
# Put together above the layers; their imports are the engine contract's business.
ABOVE_THE_LAYERS = {"engine", "mapdraw", "bot", "__init__"}
# scenario.py is being split into a package elsewhere; its geometry check still imports
# moderator.maps.cells inside the function.
LOCAL_IMPORTS_LEFT = {"scenario"}


def layers() -> dict[str, int]:
    """Module -> its layer number, read from the package docstring's numbered list."""
    found: dict[str, int] = {}
    for number, names in re.findall(r"^(\d+)\. (.+?):", vmt.__doc__ or "", flags=re.M):
        for name in re.findall(r"``(\w+)``", names):
            found[name] = int(number)
    return found


def module_sources() -> dict[str, list[Path]]:
    """Each module of the package (a subpackage counts as one module) with its source files."""
    sources: dict[str, list[Path]] = {}
    for path in PACKAGE.glob("*.py"):
        sources[path.stem] = [path]
    for init in PACKAGE.glob("*/__init__.py"):
        sources[init.parent.name] = sorted(init.parent.rglob("*.py"))
    return sources


def vmt_imports(tree: ast.AST) -> set[str]:
    """The package modules a source imports, anywhere in it."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("moderator.games.vmt"):
            parts = node.module.split(".")
            names |= {alias.name for alias in node.names} if len(parts) == 3 else {parts[3]}
        elif isinstance(node, ast.Import):
            names |= {a.name.split(".")[3] for a in node.names if a.name.startswith("moderator.games.vmt.")}
    return names


def local_imports(tree: ast.AST) -> list[str]:
    """Imports of moderator modules made inside a function."""
    found = []
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("moderator"):
                    found.append(f"{function.name}: from {node.module}")
                elif isinstance(node, ast.Import) and any(a.name.startswith("moderator") for a in node.names):
                    found.append(f"{function.name}: import {', '.join(a.name for a in node.names)}")
    return found


def test_every_module_has_a_layer():
    assert set(module_sources()) - ABOVE_THE_LAYERS == set(layers())


def test_each_module_imports_only_from_the_layers_below_it():
    layer = layers()
    upward = []
    for module, paths in module_sources().items():
        if module not in layer:
            continue
        for path in paths:
            for imported in vmt_imports(ast.parse(path.read_text())):
                if imported != module and layer.get(imported, 99) >= layer[module]:
                    upward.append(f"{module} (layer {layer[module]}) imports {imported} "
                                  f"(layer {layer.get(imported, 'none')})")
    assert upward == []


def test_no_layered_module_imports_inside_a_function():
    found = [f"{path.name}: {line}" for module, paths in module_sources().items()
             if module in layers() and module not in LOCAL_IMPORTS_LEFT
             for path in paths for line in local_imports(ast.parse(path.read_text()))]
    assert found == []
