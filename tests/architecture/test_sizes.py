"""Small modules and short functions (issue 11): no file in moderator/ over 800 lines, no function
over 60, and no cache keyed by an object's id() (a recycled id would return another object's data)."""

from __future__ import annotations

import ast

from tests.architecture.imports import read_modules

MODULES = read_modules()
MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 60


def test_no_file_is_over_800_lines():
    long = {name: n for name, m in MODULES.items() if (n := len(m.path.read_text().splitlines())) > MAX_FILE_LINES}
    assert long == {}


def test_no_function_is_over_60_lines():
    long = [f"{name}.{node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for name, module in MODULES.items() for node in ast.walk(module.tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert long == []


def _id_keys(tree: ast.AST) -> list[int]:
    """Lines where `id(...)` is used as a key: a subscript, or the first argument of get/setdefault/pop."""
    lines = []
    for node in ast.walk(tree):
        key = None
        if isinstance(node, ast.Subscript):
            key = node.slice
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("get", "setdefault", "pop") and node.args):
            key = node.args[0]
        if key is not None and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "id"
                                   for n in ast.walk(key)):
            lines.append(node.lineno)
    return lines


def test_no_cache_is_keyed_by_an_object_id():
    keyed = {name: lines for name, m in MODULES.items() if (lines := _id_keys(m.tree))}
    assert keyed == {}


def test_the_id_key_check_sees_such_a_cache():
    tree = ast.parse("CACHE = {}\ndef f(s):\n    x = CACHE.get(id(s))\n    CACHE[(id(s), 1)] = x\n")
    assert _id_keys(tree) == [3, 4]
