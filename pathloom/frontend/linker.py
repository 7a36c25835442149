"""Functions of other modules of the user's project, analysed like the file's own functions.

Invariant: a real function object found through a module-level name (``from helpers import
clamp``, or a name a linked function uses) is analysed, under the qualname
``"<module>:<name>"``, only when all of this holds; otherwise it stays opaque and runs in
CPython on pinned values (concretization), exactly as before:

- it is a plain top-level Python function (no closure, no decorator wrapper, ``__qualname__``
  equal to ``__name__``) of an imported module whose source is a ``.py`` file of the project:
  in the target's own top-level package (or folder, for a file outside a package), or
  anywhere but the standard library, an installed package (site-packages) or pathloom;
- that file, parsed, defines it at the line its code object names;
- it lowers without an unsupported construct.

A linked module is a ``Module`` of its own (its ``namespace`` is ``"<module>:"``): its
functions are lowered with every module-level name prefixed by the namespace, so
``semantics.calls.resolve_global`` looks names up in the right module's real namespace.
The target module owns the registry (``Module.linked``); engines only ever ask it.
Functions of the target file imported back into another module are the target's own.
"""

from __future__ import annotations

import ast
import sys
import sysconfig
import types
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from pathloom.errors import Unsupported, UsageError
from pathloom.models import LIBRARY

if TYPE_CHECKING:
    from pathloom.frontend.module import Module

_PATHLOOM_DIR = Path(__file__).resolve().parents[1]


def _library_dirs() -> tuple[Path, ...]:
    paths = sysconfig.get_paths()
    found = {Path(paths[key]).resolve() for key in ("stdlib", "platstdlib", "purelib", "platlib") if key in paths}
    return tuple(sorted(found)) + (_PATHLOOM_DIR,)


_LIBRARY_DIRS = _library_dirs()


def project_dir(target_file: str) -> Path:
    """The target's top-level package directory, or its folder when it is in no package."""
    from pathloom.frontend.realmodule import import_plan

    root, name, is_package_path = import_plan(target_file)
    return Path(root).resolve() / name.split(".")[0] if is_package_path else Path(root).resolve()


def is_project_file(path: str, target_file: str) -> bool:
    """A ``.py`` file of the target's package or folder, or one that is neither the standard
    library, an installed package nor pathloom."""
    if not path.endswith(".py"):
        return False
    resolved = Path(path).resolve()
    if resolved.is_relative_to(project_dir(target_file)):
        return True
    return not any(resolved.is_relative_to(d) for d in _LIBRARY_DIRS) and "site-packages" not in resolved.parts


def linked_qualname(target: Module, obj: object) -> str | None:
    """The qualname under which ``target`` analyses the real function ``obj`` of another
    project module, or None (it stays opaque)."""
    if type(obj) is not types.FunctionType:
        return None
    cached = target.link_cache.get(obj)
    if cached is not None or obj in target.link_cache:
        return cached
    found = _link(target, obj)
    target.link_cache[obj] = found
    return found


def _link(target: Module, fn: types.FunctionType) -> str | None:
    if fn.__closure__ is not None or fn.__qualname__ != fn.__name__ or hasattr(fn, "__wrapped__"):
        return None
    real = sys.modules.get(fn.__module__)
    if real is None or real is target.runtime or fn.__globals__ is not vars(real):
        return None
    filename = getattr(real, "__file__", None)
    if not isinstance(filename, str) or Path(filename).resolve() == Path(target.filename).resolve():
        return None
    if fn.__module__ != LIBRARY and not is_project_file(filename, target.filename):  # the models' helpers are linked too
        return None
    linked = _linked_module(target, fn.__module__, filename, real)
    if linked is None:
        return None
    node = linked.function_defs.get(fn.__name__)
    if node is None or fn.__code__.co_firstlineno not in (node.lineno, *(d.lineno for d in node.decorator_list)):
        return None
    qualname = linked.namespace + fn.__name__
    try:
        if target.function(qualname).unmodelled:  # CPython runs it whole rather than cut paths in it
            return None
    except Unsupported:
        return None
    return qualname


def adopt_classes(target: Module) -> None:
    """Classes of other project modules the target imports by name (``from pkg.tree import
    TreeNode``) become analysed classes of the target, under that name, when their own module
    analyses them (a plain class, not an exception, with no base or an adopted base): their
    methods are the linked module's (``"<module>:TreeNode.m"``). ``target.adopted`` maps each
    to its module, where its definition is read (``frontend.fields``)."""
    if target.runtime is None:
        return
    for name, stmt in list(target.opaque.items()):
        if not isinstance(stmt, ast.ImportFrom):
            continue
        value = vars(target.runtime).get(name)
        if not isinstance(value, type) or value.__name__ != name:
            continue
        real = sys.modules.get(value.__module__)
        filename = getattr(real, "__file__", None)
        if real is None or real is target.runtime or not isinstance(filename, str) or not is_project_file(filename, target.filename):
            continue
        linked = _linked_module(target, value.__module__, filename, real)
        info = linked.classes.get(name) if linked is not None else None
        if linked is None or info is None or info.is_exception or vars(real).get(name) is not value:
            continue
        if info.base is not None and info.base not in target.adopted:
            continue
        target.classes[name] = replace(
            info,
            methods={m: linked.namespace + q for m, q in info.methods.items()},
            compare_methods={m: linked.namespace + q for m, q in info.compare_methods.items()},
            decorated={m: (kind, linked.namespace + q) for m, (kind, q) in info.decorated.items()},
        )
        target.adopted[name] = linked
        del target.opaque[name]


def _linked_module(target: Module, name: str, filename: str, real: types.ModuleType) -> Module | None:
    from pathloom.frontend.module import parse_module

    if name in target.linked:
        return target.linked[name]
    try:
        source = Path(filename).read_text(encoding="utf-8-sig")
        linked = parse_module(source, filename, real, namespace=f"{name}:")
    except (OSError, UnicodeDecodeError, UsageError):
        return None
    target.linked[name] = linked
    return linked


def library_model(target: Module, name: str) -> str:
    """The qualname of the model ``name`` of ``pathloom.models.library`` (a linked module of
    ``target``, lowered on first use): the Python-level models of library functions that
    ``semantics.library_models`` calls instead of running the originals in CPython."""
    import importlib

    real = importlib.import_module(LIBRARY)
    linked = _linked_module(target, LIBRARY, str(real.__file__), real)
    if linked is None:
        raise AssertionError(f"{LIBRARY} cannot be read")
    linked.library_model = True
    return linked.namespace + name
