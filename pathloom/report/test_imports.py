"""How a generated test file imports the analysed module (``report.pytest_gen``).

Where the analysed module is importable by its dotted name from where it was found (its package
root on ``sys.path``, not as the working directory: an installed package, a ``PYTHONPATH``
entry), the file imports what the tests use as a user would, ``from pkg.mod import f, Node``.
Otherwise it imports the module as pytest imports a test module, found relative to the test
file so that it runs with plain ``pytest`` from anywhere: by its package path (the package root
first on ``sys.path``) when it is inside a package, else from its path under a name unique to
that path (two ``sol1.py`` of different folders never collide; ``my-script.py`` and
``string.py`` work), and the tests read its names as attributes (``_module.f``). Invariant: no
name whose pytest would collect it (``test_something``, ``TestData``) and none a test also uses
as a variable is imported into the test file's namespace; those stay ``_module.NAME``.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import os
import re
import sys
import tokenize
from pathlib import Path

from pathloom.frontend.realmodule import import_plan

MODULE = "_module"  # the generated file's name for the analysed module


def import_lines(source: Path, test_file: str) -> list[str]:
    """The lines that bind ``_module`` to the analysed module (see the module docstring)."""
    root, name, is_package_path = import_plan(str(source))
    here = Path(test_file).resolve().parent
    if is_package_path:
        relative = os.path.relpath(root, here)
        return [
            f"_ROOT = str((pathlib.Path(__file__).resolve().parent / {relative!r}).resolve())",
            "if _ROOT not in sys.path:",
            "    sys.path.insert(0, _ROOT)  # the package root, first, as pytest puts it",
            f"{MODULE} = importlib.import_module({name!r})",
        ]
    relative = os.path.relpath(source, here)
    stem = "".join(c if c.isalnum() or c == "_" else "_" for c in source.stem)
    return [
        f"_SOURCE = (pathlib.Path(__file__).resolve().parent / {relative!r}).resolve()",
        f"_NAME = 'pathloom_mod_' + hashlib.sha1(str(_SOURCE).encode()).hexdigest()[:10] + {'_' + stem!r}",
        "",
        "",
        "def _load():",
        '    """The file outside any package, under a name unique to its path, its folder first."""',
        "    if str(_SOURCE.parent) not in sys.path:",
        "        sys.path.insert(0, str(_SOURCE.parent))",
        "    if _NAME not in sys.modules:",
        "        spec = importlib.util.spec_from_file_location(_NAME, _SOURCE)",
        "        module = importlib.util.module_from_spec(spec)",
        "        sys.modules[_NAME] = module",
        "        spec.loader.exec_module(module)",
        "    return sys.modules[_NAME]",
        "",
        "",
        f"{MODULE} = _load()",
    ]


def installed_name(source: Path) -> str | None:
    """The dotted name ``source`` is importable by without a path of its own (its package root,
    or its folder, is on ``sys.path`` and is not the working directory), else None."""
    root, name, is_package_path = import_plan(str(source))
    if not is_package_path:
        root, name = str(source.parent), source.stem
        if not name.isidentifier():
            return None
    entries = {os.path.realpath(e) for e in sys.path if e not in ("", ".") and os.path.realpath(e) != os.path.realpath(os.getcwd())}
    if os.path.realpath(root) not in entries:
        return None
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    found = spec.origin if spec is not None else None
    return name if found is not None and os.path.realpath(found) == os.path.realpath(source) else None


_QUALIFIED = re.compile(rf"\b{MODULE}\.([A-Za-z_]\w*)")


def plain_names(body: list[str]) -> tuple[list[str], list[str]]:
    """``body`` with ``_module.NAME`` written ``NAME`` for every name that may be imported (see
    the invariant), and those names, sorted."""
    text = "\n\n".join(body)
    used = set(_QUALIFIED.findall(text))
    bare = _bare_names(_QUALIFIED.sub("_", text))
    names = sorted(n for n in used if not n.lower().startswith("test") and n not in bare and n != MODULE)
    chosen = set(names)
    return [_QUALIFIED.sub(lambda m: m.group(1) if m.group(1) in chosen else m.group(0), test) for test in body], names


def _bare_names(code: str) -> set[str]:
    """The names ``code`` uses other than as an attribute (strings and comments aside)."""
    names: set[str] = set()
    previous = ""
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if token.type == tokenize.NAME and previous != ".":
            names.add(token.string)
        previous = token.string
    return names


def module_names(source: str) -> frozenset[str] | None:
    """The names the module's top level binds (classes, functions, imports, assignments, also
    under a top-level ``if``, ``try`` or ``with``), which a test may read as ``_module.NAME``;
    None where that cannot be told (``from m import *``, a syntax error)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    names: set[str] = set()
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            if any(alias.name == "*" for alias in node.names):
                return None
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            for field in ("body", "orelse", "finalbody"):
                todo.extend(getattr(node, field, []))
            for handler in getattr(node, "handlers", []):
                todo.extend(handler.body)
        else:
            names.update(target.id for target in ast.walk(node) if isinstance(target, ast.Name) and isinstance(target.ctx, ast.Store))
    return frozenset(names)
