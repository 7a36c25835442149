"""``import`` and ``from ... import`` inside a function: the name bound locally, as CPython binds it.

Job: ``stmt_Import`` and ``stmt_ImportFrom``. The import runs once, while the function is
lowered (``importlib``), and the local is bound to the object it gives, which the semantics
sees exactly as a module-level name bound to that object (``Module.local_imports``: a hidden
module-level name, not a Python identifier, resolved like the module's own names).

Invariant: exact only when running the import statement again in CPython binds the same
object and does nothing else: the module (and for ``from m import x`` the attribute) is
imported by the time the target runs (``sys.modules`` holds it before the lowering imports
it: a first import would run the module's code); anything else is ``Unsupported``, as is
an import without the real module (source analysed alone), a relative import, or
``from m import x`` where ``x`` is a submodule not imported yet.
"""

from __future__ import annotations

import ast
import importlib
import sys

from pathloom.frontend.ir import Global
from pathloom.frontend.lowering.builder import Builder


class Imports(Builder):
    """The ``stmt_Import`` and ``stmt_ImportFrom`` methods."""

    def _imported(self, node: ast.stmt, dotted: str) -> object:
        """The module ``dotted``, imported already (so importing it again runs nothing)."""
        if self.module.runtime is None:
            raise self.unsupported(node, "import inside a function (the real module is not imported)")
        if dotted not in sys.modules:
            raise self.unsupported(node, f"import inside a function of module {dotted!r}, which nothing has imported yet (its code would run)")
        return importlib.import_module(dotted)

    def _bind_imported(self, node: ast.stmt, name: str, value: object) -> None:
        target = ast.copy_location(ast.Name(name, ast.Store()), node)
        self.assign(target, Global(self.module.namespace + self.module.local_import(value)))

    def stmt_Import(self, node: ast.Import) -> None:
        """``import a.b`` binds ``a``; ``import a.b as c`` binds ``c`` to ``a.b``."""
        for alias in node.names:
            value = self._imported(node, alias.name)
            if alias.asname is None:
                top = alias.name.partition(".")[0]
                self._bind_imported(node, top, sys.modules[top])
            else:
                self._bind_imported(node, alias.asname, value)

    def stmt_ImportFrom(self, node: ast.ImportFrom) -> None:
        """``from m import x [as y]``: the attribute ``x`` of the imported module ``m``."""
        if node.level or node.module is None:
            raise self.unsupported(node, "relative import inside a function")
        source = self._imported(node, node.module)
        for alias in node.names:
            if not hasattr(source, alias.name):  # CPython would try to import a submodule
                raise self.unsupported(node, f"from-import of {alias.name!r}, which module {node.module!r} does not bind yet")
            self._bind_imported(node, alias.asname or alias.name, getattr(source, alias.name))
