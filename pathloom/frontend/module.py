"""A parsed source file: its top-level functions, classes and constants, lowered on demand.

Invariant: a function is lowered at most once and only when an engine (or a test) asks for
it, so an unsupported construct in a function that the analysis never reaches does not stop
the analysis of the others. Module-level names are classified once: function, class, literal
constant, or "opaque" (anything else, e.g. an import); referring to an opaque name from
analyzed code is reported as unsupported at lowering time.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

from pathloom.errors import Unsupported, UsageError
from pathloom.frontend.ir import ClassInfo, Function
from pathloom.semantics.names import EXCEPTION_BASES

_IGNORED_IMPORTS = frozenset({"__future__", "typing"})


@dataclass
class Module:
    filename: str
    source: str
    tree: ast.Module
    function_defs: dict[str, ast.FunctionDef] = field(default_factory=dict)
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    constants: dict[str, object] = field(default_factory=dict)
    opaque: dict[str, ast.AST] = field(default_factory=dict)
    lambdas: dict[str, tuple[ast.Lambda, str | None]] = field(default_factory=dict)
    async_defs: dict[str, ast.AsyncFunctionDef] = field(default_factory=dict)
    _lowered: dict[str, Function] = field(default_factory=dict)

    def unsupported(self, node: ast.AST, what: str) -> Unsupported:
        line = getattr(node, "lineno", 1)
        col = getattr(node, "col_offset", 0) + 1
        return Unsupported(self.filename, line, col, what)

    def unsupported_at(self, line: int, col: int, what: str) -> Unsupported:
        return Unsupported(self.filename, line, col, what)

    def function(self, qualname: str) -> Function:
        """The IR of a top-level function, method (``C.m``) or lambda, lowered on first use."""
        found = self._lowered.get(qualname)
        if found is None:
            from pathloom.frontend.lower import lower_function, lower_lambda

            if qualname in self.lambdas:
                node, cls = self.lambdas[qualname]
                found = lower_lambda(self, qualname, node, cls)
            else:
                node_def = self.function_defs.get(qualname)
                if qualname in self.async_defs:
                    raise self.unsupported(self.async_defs[qualname], "async function")
                if node_def is None:
                    raise UsageError(f"{self.filename}: no function {qualname!r}")
                cls_name = qualname.split(".")[0] if "." in qualname else None
                found = lower_function(self, qualname, node_def, cls_name)
            self._lowered[qualname] = found
        return found

    def lowered_functions(self) -> list[Function]:
        return list(self._lowered.values())

    def targets(self) -> list[str]:
        """Every top-level function and method (async ones too: they are reported unsupported)."""
        return list(self.function_defs) + list(self.async_defs)

    def exception_base(self, name: str) -> str | None:
        if name in self.classes:
            return self.classes[name].base
        return EXCEPTION_BASES.get(name)

    def is_exception_class(self, name: str) -> bool:
        seen: set[str] = set()
        current: str | None = name
        while current is not None and current not in seen:
            if current == "BaseException":
                return True
            seen.add(current)
            current = self.exception_base(current)
        return False


def load_module(path: str) -> Module:
    file = Path(path)
    if not file.exists():
        raise UsageError(f"{path}: no such file")
    if file.is_dir():
        raise UsageError(f"{path}: is a directory, not a Python file")
    try:
        source = file.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not a Python source file (not UTF-8 text)") from None
    except OSError as exc:
        raise UsageError(f"{path}: cannot read the file ({exc.strerror or exc})") from None
    return parse_module(source, path)


def parse_module(source: str, filename: str) -> Module:
    try:
        tree = ast.parse(source, filename=filename)
    except SyntaxError as exc:
        line = exc.lineno or 1
        col = exc.offset or 1
        raise UsageError(f"{filename}:{line}:{col}: syntax error: {exc.msg}") from None
    except ValueError as exc:  # e.g. source with NUL bytes
        raise UsageError(f"{filename}: not a Python source file ({exc})") from None
    module = Module(filename, source, tree)
    for stmt in tree.body:
        _scan_top_level(module, stmt)
    return module


def _scan_top_level(module: Module, stmt: ast.stmt) -> None:
    if isinstance(stmt, ast.FunctionDef):
        module.function_defs[stmt.name] = stmt
    elif isinstance(stmt, ast.ClassDef):
        _scan_class(module, stmt)
    elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        value = stmt.value
        for target in targets:
            if not isinstance(target, ast.Name):
                continue
            constant = _literal(value) if value is not None else _NOT_LITERAL
            if constant is _NOT_LITERAL:
                module.opaque[target.id] = stmt
            else:
                module.constants[target.id] = constant
    elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
        if isinstance(stmt, ast.ImportFrom) and stmt.module in _IGNORED_IMPORTS:
            return
        for alias in stmt.names:
            module.opaque[(alias.asname or alias.name).split(".")[0]] = stmt
    elif isinstance(stmt, ast.AsyncFunctionDef):
        module.opaque[stmt.name] = stmt
        module.async_defs[stmt.name] = stmt


def _scan_class(module: Module, node: ast.ClassDef) -> None:
    base: str | None = None
    if len(node.bases) > 1 or node.keywords:
        module.opaque[node.name] = node
        return
    if node.bases:
        if not isinstance(node.bases[0], ast.Name):
            module.opaque[node.name] = node
            return
        base = node.bases[0].id
        if base == "object":
            base = None
    if node.decorator_list:
        module.opaque[node.name] = node
        return
    methods: dict[str, str] = {}
    attrs: dict[str, object] = {}
    for stmt in node.body:
        if isinstance(stmt, ast.FunctionDef):
            qualname = f"{node.name}.{stmt.name}"
            methods[stmt.name] = qualname
            module.function_defs[qualname] = stmt
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            constant = _literal(stmt.value)
            if isinstance(target, ast.Name) and constant is not _NOT_LITERAL:
                attrs[target.id] = constant
    is_exception = base is not None and (
        base in EXCEPTION_BASES or (base in module.classes and module.classes[base].is_exception)
    )
    if base is not None and base not in EXCEPTION_BASES and base in module.classes:
        parent = module.classes[base]
        methods = {**parent.methods, **methods}
        attrs = {**parent.attrs, **attrs}
    module.classes[node.name] = ClassInfo(node.name, base, methods, attrs, node.lineno, is_exception)


_NOT_LITERAL = object()


def _literal(node: ast.expr) -> object:
    """The value of an immutable literal (numbers, str, bool, None, tuples, unary minus)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, type(None))):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _literal(node.operand)
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return -inner if isinstance(node.op, ast.USub) else inner
        return _NOT_LITERAL
    if isinstance(node, ast.Tuple):
        items = tuple(_literal(e) for e in node.elts)
        return _NOT_LITERAL if any(i is _NOT_LITERAL for i in items) else items
    return _NOT_LITERAL
