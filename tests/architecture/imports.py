"""The import graph of `moderator/`, imports inside functions included, read from the source."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "moderator"


@dataclass
class Module:
    name: str
    path: Path
    tree: ast.Module
    imports: dict[str, int] = field(default_factory=dict)  # imported module -> first line


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def read_modules() -> dict[str, Module]:
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        modules[name] = Module(name, path, ast.parse(path.read_text(encoding="utf-8"), str(path)))
    for module in modules.values():
        for node in ast.walk(module.tree):
            for target in _targets(node, module, modules):
                module.imports.setdefault(target, node.lineno)
    return modules


def _targets(node: ast.AST, module: Module, modules: dict[str, Module]) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in modules]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        package = module.name.split(".")
        if module.path.name != "__init__.py":
            package = package[:-1]
        package = package[: len(package) - node.level + 1]
        base = ".".join(package + ([base] if base else []))
    found = []
    if base in modules:
        found.append(base)
    for alias in node.names:
        if f"{base}.{alias.name}" in modules:
            found.append(f"{base}.{alias.name}")
    return found


def cycles(modules: dict[str, Module]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(name: str) -> None:
        index[name] = low[name] = counter[0]
        counter[0] += 1
        stack.append(name)
        on_stack.add(name)
        for target in modules[name].imports:
            if target not in index:
                visit(target)
                low[name] = min(low[name], low[target])
            elif target in on_stack:
                low[name] = min(low[name], index[target])
        if low[name] == index[name]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == name:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for name in modules:
        if name not in index:
            visit(name)
    return found


def area_of(name: str) -> str:
    """The layer a module belongs to: `core`, `games.vmt`, `service`, `app` ..."""
    parts = name.split(".")[1:]
    if not parts:
        return "package"
    if parts[0] == "games" and len(parts) >= 2:
        return f"games.{parts[1]}"
    return parts[0]


@dataclass(frozen=True)
class PrivateUse:
    module: str
    line: int
    text: str


def private_uses(modules: dict[str, Module]) -> list[PrivateUse]:
    """Uses of private names other than an object's own: `from m import _x`, and `obj._x` where
    `obj` is not `self` or `cls` (a copy made in `__copy__`/`__deepcopy__` is the class's own)."""
    found = []
    for module in modules.values():
        for node, function in _walk_with_function(module.tree, None):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("moderator"):
                found += [PrivateUse(module.name, node.lineno, f"from {node.module} import {a.name}")
                          for a in node.names if _is_private(a.name)]
            elif isinstance(node, ast.Attribute) and _is_private(node.attr):
                if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                    continue
                if function in ("__copy__", "__deepcopy__"):
                    continue
                found.append(PrivateUse(module.name, node.lineno, ast.unparse(node)))
    return found


def _walk_with_function(node: ast.AST, function: str | None):  # type: ignore[no-untyped-def]
    """Every node below `node`, with the name of the function it is in."""
    for child in ast.iter_child_nodes(node):
        inside = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
        yield child, function
        yield from _walk_with_function(child, inside)


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")
