"""A parsed source file: its top-level functions, classes and constants, lowered on demand.

Invariant: a function is lowered at most once and only when an engine (or a test) asks for
it, so an unsupported construct in a function that the analysis never reaches does not stop
the analysis of the others. Module-level names are classified once: function, class, literal
constant, or "opaque" (anything else, e.g. an import); referring to an opaque name from
analyzed code is reported as unsupported at lowering time.
"""

from __future__ import annotations

import ast
import builtins
import functools
import os
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from pathloom.errors import Unsupported, UsageError
from pathloom.frontend.contracts import library_call
from pathloom.frontend.contracts import resolver as contract_resolver
from pathloom.frontend.dataclass_model import FROZEN_NAMES, GENERATED_NAMES, model_dataclass
from pathloom.frontend.ir import ClassInfo, Function
from pathloom.domain.names import EXCEPTION_BASES
from pathloom.domain.values import GLOBAL_CELLS, Ref

_IGNORED_IMPORTS = frozenset({"__future__", "typing"})

# Validate every function as it is lowered (``frontend.ircheck``); the test suite turns it on.
CHECK_IR = os.environ.get("PATHLOOM_CHECK_IR") == "1"

MAX_LITERALS = 64  # module constants concretization tries first (``Module.literals``)


@dataclass
class Module:
    filename: str
    source: str
    tree: ast.Module
    function_defs: dict[str, ast.FunctionDef] = field(default_factory=dict)
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    constants: dict[str, object] = field(default_factory=dict)
    opaque: dict[str, ast.AST] = field(default_factory=dict)
    # lambdas and nested functions met while lowering: qualname -> (node, class, the enclosing
    # function's variables it closes over, by value: ``frontend.lower`` checks that is exact)
    lambdas: dict[str, tuple[ast.Lambda | ast.FunctionDef, str | None, tuple[str, ...], tuple[str, ...]]] = field(default_factory=dict)
    async_defs: dict[str, ast.AsyncFunctionDef] = field(default_factory=dict)
    synthesized: set[str] = field(default_factory=set)  # methods written by the analysis (dataclasses)
    # another project module whose functions the target analyses (``frontend.linker``): its
    # module-level names and qualnames carry the prefix "<module>:"; "" for the target itself
    namespace: str = ""
    linked: dict[str, Module] = field(default_factory=dict)  # module name -> linked module
    library_model: bool = False  # ``pathloom.models.library``: its raises are the library's (implicit)
    link_cache: dict[object, str | None] = field(default_factory=dict)  # real function -> qualname
    adopted: dict[str, Module] = field(default_factory=dict)  # imported project class -> its module (``frontend.linker``)
    runtime: ModuleType | None = None  # the imported real module (None for source analysed alone)
    foreign_exceptions: dict[str, type] = field(default_factory=dict)  # raised by code run in CPython
    # module-level names some function rebinds (``global x``): name -> its first declaration;
    # each lives in a cell of the heap (``global_cell``) that every path starts from the
    # module's value, so a write is seen by later reads on the same path only
    global_decls: dict[str, ast.Global] = field(default_factory=dict)
    # objects bound by imports inside functions (``lowering.imports``): a hidden name each
    # ("import~<n>", no Python identifier), resolved like a module-level name
    local_imports: dict[str, object] = field(default_factory=dict)
    _lowered: dict[str, Function] = field(default_factory=dict)
    _near_literals: dict[int, tuple[str | int, ...]] = field(default_factory=dict)  # literals_near, by line

    @functools.cached_property
    def _constants(self) -> list[ast.Constant]:
        """The str and int constants written in the module, docstrings aside, in source order."""
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(self.tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        return sorted(
            (node for node in ast.walk(self.tree) if isinstance(node, ast.Constant) and id(node) not in docstrings and type(node.value) in (str, int)),
            key=lambda node: (node.lineno, node.col_offset),
        )

    @functools.cached_property
    def literals(self) -> tuple[str | int, ...]:
        """The str and int constants written in the module (docstrings and bools aside), in
        source order, each once, at most ``MAX_LITERALS``: the values concretization tries
        first for a pinned operand, before the solver's arbitrary ones."""
        found: dict[tuple[type, str | int], str | int] = {}
        for node in self._constants:
            value = node.value
            if isinstance(value, (str, int)):
                found.setdefault((type(value), value), value)
            if len(found) >= MAX_LITERALS:
                break
        return tuple(found.values())

    def literals_near(self, line: int | None) -> tuple[str | int, ...]:
        """``literals`` with those written in the innermost function whose source spans
        ``line`` first (in source order): a pinned operand is tried first at the values its
        own function compares against (``"<" not in re.sub(P, "", html)`` tries ``html='<'``),
        not at the constants of functions written above it. A ``re`` pattern literal of the
        function is tried as a shortest string it matches (``r"\\s\\s"`` as ``'\\t\\t'``,
        ``terms.regex_lang.shortest_member``), the pattern's own text after the others."""
        if line is None:
            return self.literals
        cached = self._near_literals.get(line)
        if cached is None:
            cached = self._near_literals[line] = self._literals_of_span(*self._innermost_def(line))
        return cached

    def _innermost_def(self, line: int) -> tuple[int, int]:
        spans = [
            (node.lineno, node.end_lineno or node.lineno)
            for node in ast.walk(self.tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno <= line <= (node.end_lineno or node.lineno)
        ]
        return min(spans, key=lambda span: span[1] - span[0]) if spans else (0, 0)

    def _literals_of_span(self, first: int, last: int) -> tuple[str | int, ...]:
        own = [node for node in self._constants if first <= node.lineno <= last]
        from pathloom.terms.regex_lang import shortest_member  # its automata only when a pattern is near

        patterns = _regex_patterns(self.tree, first, last)
        witnesses = {id(node): shortest_member(str(node.value)) for node in own if id(node) in patterns}
        values = [witnesses.get(id(node)) or node.value for node in own] + [node.value for node in own if id(node) in patterns]
        merged: dict[tuple[type, object], str | int] = {}
        for value in values + list(self.literals):
            if isinstance(value, (str, int)):
                merged.setdefault((type(value), value), value)
        return tuple(merged.values())[:MAX_LITERALS]

    def unsupported(self, node: ast.AST, what: str) -> Unsupported:
        line = getattr(node, "lineno", 1)
        col = getattr(node, "col_offset", 0) + 1
        return Unsupported(self.filename, line, col, what)

    def unsupported_at(self, line: int, col: int, what: str) -> Unsupported:
        return Unsupported(self.filename, line, col, what)

    def function(self, qualname: str) -> Function:
        """The IR of a top-level function, method (``C.m``) or lambda, lowered on first use;
        ``"<module>:<name>"`` is a function of a linked module (``frontend.linker``)."""
        found = self._lowered.get(qualname)
        if found is None and ":" in qualname and not (self.namespace and qualname.startswith(self.namespace)):
            return self.linked[qualname.partition(":")[0]].function(qualname)
        if found is None:
            from pathloom.frontend.lower import lower_function, lower_lambda

            if qualname in self.lambdas:
                node, cls, captures, cells = self.lambdas[qualname]
                found = lower_lambda(self, qualname, node, cls, captures, cells)
            else:
                local = qualname[len(self.namespace) :]
                node_def = self.function_defs.get(local)
                if local in self.async_defs:
                    raise self.unsupported(self.async_defs[local], "async function")
                if node_def is None:
                    raise UsageError(f"{self.filename}: no function {local!r}")
                cls_name = local.split(".")[0] if "." in local else None
                found = lower_function(self, qualname, node_def, cls_name)
            if CHECK_IR:
                from pathloom.frontend.ircheck import check_function

                errors = check_function(found)
                if errors:
                    raise AssertionError(f"invalid IR for {qualname}: " + "; ".join(errors))
            self._lowered[qualname] = found
        return found

    def is_lowered(self, qualname: str) -> bool:
        return qualname in self._lowered

    def register_lowered(self, function: Function) -> None:
        """A function the analysis wrote as IR itself (``frontend.protocols``)."""
        self._lowered[function.qualname] = function

    def lowered_functions(self) -> list[Function]:
        return list(self._lowered.values())

    def targets(self) -> list[str]:
        """Every top-level function and method (async ones too: they are reported unsupported)."""
        return [name for name in self.function_defs if name not in self.synthesized] + list(self.async_defs)

    def exception_base(self, name: str) -> str | None:
        if name in self.classes:
            return self.classes[name].base
        if name in EXCEPTION_BASES:
            return EXCEPTION_BASES[name]
        cls = self.foreign_exceptions.get(name)
        if cls is not None and len(cls.__mro__) > 1 and cls is not BaseException:
            return self.register_exception(cls.__mro__[1])
        return None

    def mentions(self, qualname: str, name: str) -> bool:
        """Whether the source of function ``qualname`` uses the name ``name``."""
        node = self.function_defs.get(qualname)
        return node is None or any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))

    # ------------------------------------------------------------ the real module

    def global_cell(self, name: str, node: ast.AST) -> Ref:
        """The heap reference of the cell holding module-level ``name``, which some function
        declares ``global``: reserved, never an allocation or an input reference. Unsupported
        (at ``node``) unless the module binds ``name`` to an immutable literal: the generated
        tests and the replay set it back to that value before each call."""
        if self.global_initial(name) is _NOT_LITERAL:
            raise self.unsupported(
                node, f"global {name!r}, which the module does not bind to a literal constant (int, float, str, bool, None or a tuple of them)"
            )
        return Ref(GLOBAL_CELLS + sorted(self.global_decls).index(name))

    def global_initial(self, name: str) -> object:
        """The value every path starts from for the module-level ``name`` some function
        declares ``global``: the real module's, else the source's literal; ``_NOT_LITERAL``
        when it is unbound or not an immutable literal."""
        if self.runtime is None:
            return self.constants.get(name, _NOT_LITERAL)
        if not self.has_runtime(name):
            return _NOT_LITERAL
        value = self.runtime_value(name)
        return value if _plain_literal(value) else _NOT_LITERAL

    def global_values(self) -> dict[str, object]:
        """The ``global`` names the code may use (bound to literals), with the values every
        path starts from."""
        values = {name: self.global_initial(name) for name in sorted(self.global_decls)}
        return {name: value for name, value in values.items() if value is not _NOT_LITERAL}

    def global_cells(self) -> dict[Ref, object]:
        """The heap cells of ``global_values``."""
        order = sorted(self.global_decls)
        return {Ref(GLOBAL_CELLS + order.index(name)): value for name, value in self.global_values().items()}

    def has_runtime(self, name: str) -> bool:
        return self.runtime is not None and (name in vars(self.runtime) or name in self.local_imports)

    def runtime_value(self, name: str) -> object:
        assert self.runtime is not None
        if name in self.local_imports:
            return self.local_imports[name]
        return vars(self.runtime)[name]

    def local_import(self, value: object) -> str:
        """The hidden module-level name under which ``value``, bound by an import inside a
        function, is resolved (``lowering.imports``)."""
        for name, known in self.local_imports.items():
            if known is value:
                return name
        name = f"import~{len(self.local_imports)}"
        self.local_imports[name] = value
        return name

    def register_exception(self, cls: type) -> str:
        """The name under which exception class ``cls`` (raised by code run in CPython) is
        known to the analysis, with its bases, so that handlers match it as CPython does."""
        name = cls.__name__
        if name in EXCEPTION_BASES or name in self.classes:
            return name
        if name not in self.foreign_exceptions:
            self.foreign_exceptions[name] = cls
            if cls is not BaseException and len(cls.__mro__) > 1:
                self.register_exception(cls.__mro__[1])
        return name

    def _require_runtime(self, what: str) -> ModuleType:
        from pathloom.domain.outcome import RuntimeUnsupported

        if self.runtime is None:
            raise RuntimeUnsupported(f"{what} (the real module is not imported)")
        return self.runtime

    def real_function(self, qualname: str) -> object:
        """The real function object of an analysed function, for code run in CPython."""
        from pathloom.domain.outcome import RuntimeUnsupported

        if qualname in self.lambdas or "<" in qualname:
            raise RuntimeUnsupported("passing a lambda to an operation run in CPython")
        namespace, _, local = qualname.rpartition(":")
        if namespace:
            return vars(self.linked[namespace].runtime)[local]
        value: object = self._require_runtime(f"passing {qualname} to an operation run in CPython")
        for part in qualname.split("."):
            value = getattr(value, part)
        return value

    def real_class(self, name: str) -> type:
        """The real class of an analysed class or a known exception class."""
        if name in self.foreign_exceptions:
            return self.foreign_exceptions[name]
        if name not in self.classes and name in EXCEPTION_BASES:
            return getattr(builtins, name)  # type: ignore[no-any-return]
        runtime = self._require_runtime(f"passing an instance of {name} to an operation run in CPython")
        return getattr(runtime, name)  # type: ignore[no-any-return]

    def modeled_name(self, obj: object) -> tuple[str, str] | None:
        """(kind, name) when ``obj`` is an analysed function or class of this module, or an
        instance of an analysed class: then the analysis models it instead of keeping it opaque."""
        if self.runtime is None:
            return None
        spaces = vars(self.runtime)
        for name in self.classes:
            cls = spaces.get(name)
            if cls is None:
                continue
            if obj is cls:
                return "class", name
            if type(obj) is cls and hasattr(obj, "__dict__") and not self.classes[name].is_exception:
                return "instance", name
        fname = getattr(obj, "__name__", None)
        if isinstance(fname, str) and fname in self.function_defs and spaces.get(fname) is obj:
            return "function", fname
        return None

    def is_exception_class(self, name: str) -> bool:
        seen: set[str] = set()
        current: str | None = name
        while current is not None and current not in seen:
            if current == "BaseException":
                return True
            seen.add(current)
            current = self.exception_base(current)
        return False


def load_module(path: str, real: bool = True) -> Module:
    """Parse ``path`` and, when ``real``, import the real module (``frontend.realmodule``):
    module-level names then take their real values."""
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
    module = parse_module(source, path)
    if real:
        from pathloom.frontend.realmodule import load_checked

        # scanned again with the real module: it decides which dataclasses are modelled
        module = parse_module(source, path, load_checked(path))
        from pathloom.frontend.linker import adopt_classes

        adopt_classes(module)
    return module


def parse_module(source: str, filename: str, runtime: ModuleType | None = None, namespace: str = "") -> Module:
    try:
        tree = ast.parse(source, filename=filename)
    except SyntaxError as exc:
        line = exc.lineno or 1
        col = exc.offset or 1
        raise UsageError(f"{filename}:{line}:{col}: syntax error: {exc.msg}") from None
    except ValueError as exc:  # e.g. source with NUL bytes
        raise UsageError(f"{filename}: not a Python source file ({exc})") from None
    module = Module(filename, source, tree, runtime=runtime, namespace=namespace)
    for stmt in tree.body:
        _scan_top_level(module, stmt)
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            for name in node.names:
                module.global_decls.setdefault(name, node)
    return module


def _scan_top_level(module: Module, stmt: ast.stmt) -> None:
    if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        for sub in ast.walk(stmt):  # (name := value) binds a module-level name: its value is the real module's
            if isinstance(sub, ast.NamedExpr) and isinstance(sub.target, ast.Name):
                module.opaque.setdefault(sub.target.id, sub)
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
    """A class the analysis models: no decorators (but a plain ``@dataclass``,
    ``frontend.dataclass_model``), no ``__new__``, at most one base that is an analysed class,
    a builtin exception or icontract's ``DBC``. Any other class (``Enum``, a frozen dataclass, a subclass of an imported class)
    is opaque: with the real module imported it is the real class, run in CPython."""
    base: str | None = None
    model = model_dataclass(node, module.runtime) if node.decorator_list else None
    abstract_root = _is_abstract_root(module, node)
    if len(node.bases) > 1 or (node.keywords and not abstract_root) or (node.decorator_list and model is None):
        module.opaque[node.name] = node
        return
    contracted = _contracted_methods(module, node)
    if contracted is None:  # a method inherits contracts it does not state
        module.opaque[node.name] = node
        return
    if any(isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == "__new__" for stmt in node.body):
        module.opaque[node.name] = node  # construction is its __new__ (which may return anything): CPython's
        return
    if node.bases and not abstract_root:
        first = node.bases[0]
        if _contract_base(module, first):
            pass  # icontract's DBC: a metaclass that checks the contracts of methods that have them, no behaviour of its own
        elif not isinstance(first, ast.Name) or not (first.id == "object" or first.id in EXCEPTION_BASES or first.id in module.classes):
            module.opaque[node.name] = node
            return
        else:
            base = None if first.id == "object" else first.id
    methods: dict[str, str] = {}
    attrs: dict[str, object] = {}
    other: set[str] = set()
    decorated: dict[str, tuple[str, str]] = {}
    setters: dict[str, str] = {}
    for stmt in node.body:
        if isinstance(stmt, ast.FunctionDef) and (not stmt.decorator_list or stmt.name in contracted):
            qualname = f"{node.name}.{stmt.name}"
            methods[stmt.name] = qualname
            module.function_defs[qualname] = stmt
            other.discard(stmt.name)
            attrs.pop(stmt.name, None)
            decorated.pop(stmt.name, None)
            setters.pop(stmt.name, None)
            continue
        decorator = _plain_decorator(module, stmt)
        if decorator is not None:
            assert isinstance(stmt, ast.FunctionDef)
            qualname = f"{node.name}.{stmt.name}"
            module.function_defs[qualname] = _undecorated(stmt)
            decorated[stmt.name] = (decorator, qualname)
            setters.pop(stmt.name, None)
            methods.pop(stmt.name, None)
            attrs.pop(stmt.name, None)
            other.add(stmt.name)  # the real attribute is the descriptor: read from the real class
            continue
        setter = _property_setter(stmt, decorated)
        if setter is not None:  # @level.setter: the property keeps its getter, gains a setter
            qualname = f"{node.name}.{setter}.setter"
            assert isinstance(stmt, ast.FunctionDef)
            module.function_defs[qualname] = _undecorated(stmt)
            setters[setter] = qualname
            continue
        for name in _bound_names(stmt):
            setters.pop(name, None)
            decorated.pop(name, None)
            methods.pop(name, None)
            attrs.pop(name, None)
            other.add(name)
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            constant = _literal(stmt.value)
            if constant is not _NOT_LITERAL:
                attrs[stmt.targets[0].id] = constant
                other.discard(stmt.targets[0].id)
        if model is not None and isinstance(stmt, ast.AnnAssign) and stmt.value is not None and isinstance(stmt.target, ast.Name):
            attrs[stmt.target.id] = _literal(stmt.value)  # a field's default is also a class attribute
            other.discard(stmt.target.id)
    abstract = {stmt.name for stmt in node.body if isinstance(stmt, ast.FunctionDef) and any(_is_abstractmethod(d) for d in stmt.decorator_list)}
    if base is not None and base in module.classes:
        abstract |= {name for name in module.classes[base].abstract if name not in methods and name not in decorated}
    compare_methods: dict[str, str] = {}
    if model is not None:
        for method in model.methods + model.comparisons:
            qualname = f"{node.name}.{method.name}"
            module.function_defs[qualname] = method
            module.synthesized.add(qualname)
            if method in model.comparisons:
                compare_methods[method.name] = qualname
            else:
                methods[method.name] = qualname
        other |= (GENERATED_NAMES | (FROZEN_NAMES if model.frozen else frozenset()) | {m.name for m in model.comparisons}) - set(methods)
    is_exception = base is not None and (base in EXCEPTION_BASES or (base in module.classes and module.classes[base].is_exception))
    if base is not None and base not in EXCEPTION_BASES and base in module.classes:
        parent = module.classes[base]
        own = set(methods) | set(attrs) | other
        methods = {**{k: v for k, v in parent.methods.items() if k not in own}, **methods}
        attrs = {**{k: v for k, v in parent.attrs.items() if k not in own}, **attrs}
        other |= {name for name in parent.other if name not in own}
        decorated = {**{k: v for k, v in parent.decorated.items() if k not in own}, **decorated}
        setters = {**{k: v for k, v in parent.setters.items() if k not in own}, **setters}
    module.classes[node.name] = ClassInfo(
        node.name, base, methods, attrs, node.lineno, is_exception, frozenset(other), compare_methods, decorated, frozenset(abstract), setters
    )


_DESCRIPTORS = frozenset({"property", "staticmethod", "classmethod"})


def _is_abstract_root(module: Module, node: ast.ClassDef) -> bool:
    """``class C(ABC)`` or ``class C(metaclass=ABCMeta)`` (checked on the real class): the root
    of an abstract hierarchy, modelled like a class with no base; its abstract methods are
    read from the real class, and instantiating it is left to CPython (its TypeError)."""
    import abc

    real = vars(module.runtime).get(node.name) if module.runtime is not None else None
    if not isinstance(real, abc.ABCMeta) or real.__bases__ not in ((object,), (abc.ABC,)):
        return False
    bases = [ast.unparse(b) for b in node.bases]
    keywords = [(k.arg, ast.unparse(k.value)) for k in node.keywords]
    return (
        bases in ([], ["ABC"], ["abc.ABC"])
        and keywords in ([], [("metaclass", "ABCMeta")], [("metaclass", "abc.ABCMeta")])
        and (bases != []) != (keywords != [])
    )


def _contracted_methods(module: Module, node: ast.ClassDef) -> set[str] | None:
    """The methods whose decorators are all icontract's or deal's contracts (lowered with their
    contracts written in, ``frontend.contracts``); None when the real class gives a method
    contracts it does not state itself (icontract's DBC inherits a base's), which pathloom
    would miss: the class is then left to CPython."""
    namespace = vars(module.runtime) if module.runtime is not None else None
    resolve = contract_resolver(namespace)
    found = {
        stmt.name
        for stmt in node.body
        if isinstance(stmt, ast.FunctionDef) and stmt.decorator_list and all(library_call(d, resolve) is not None for d in stmt.decorator_list)
    }
    real = namespace.get(node.name) if namespace is not None else None
    if not isinstance(real, type):
        return found
    for stmt in node.body:
        if not isinstance(stmt, ast.FunctionDef):
            continue
        wrapped = real.__dict__.get(stmt.name)
        states = sum(1 for d in stmt.decorator_list if (library_call(d, resolve) or ("", ""))[1] in ("require", "pre"))
        groups = getattr(wrapped, "__preconditions__", None) or []
        inherited = any(stmt.name in base.__dict__ for base in real.__mro__[1:] if base.__name__ not in ("DBC", "object"))
        if (stmt.name not in found and (groups or getattr(wrapped, "__postconditions__", None))) or (
            stmt.name in found and (inherited or len(groups) > (1 if states else 0))
        ):
            return None
    return found


def _contract_base(module: Module, base: ast.expr) -> bool:
    """``base`` is icontract's ``DBC`` in the real module (its metaclass wraps only the methods
    that carry contracts, which the class scan leaves to the real class, and adds invariants
    only under ``@invariant``, which keeps a class opaque)."""
    value = contract_resolver(vars(module.runtime) if module.runtime is not None else None)(base)
    return isinstance(value, type) and value.__name__ == "DBC" and str(getattr(value, "__module__", "")).startswith("icontract")


def _is_abstractmethod(decorator: ast.expr) -> bool:
    return ast.unparse(decorator) in ("abstractmethod", "abc.abstractmethod")


def _plain_decorator(module: Module, stmt: ast.stmt) -> str | None:
    """``property``, ``staticmethod`` or ``classmethod`` when ``stmt`` is a method decorated with
    exactly that builtin (not rebound by the module)."""
    if not (isinstance(stmt, ast.FunctionDef) and len(stmt.decorator_list) == 1):
        return None
    decorator = stmt.decorator_list[0]
    if not isinstance(decorator, ast.Name) or decorator.id not in _DESCRIPTORS:
        return None
    name = decorator.id
    if name in module.function_defs or name in module.classes or name in module.opaque or name in module.constants:
        return None
    return name


def _property_setter(stmt: ast.stmt, decorated: dict[str, tuple[str, str]]) -> str | None:
    """The property name when ``stmt`` is ``@name.setter`` over a ``def name`` (exactly that
    decorator) and ``name`` is a property of the class body so far; else None."""
    if not (isinstance(stmt, ast.FunctionDef) and len(stmt.decorator_list) == 1):
        return None
    decorator = stmt.decorator_list[0]
    if not (isinstance(decorator, ast.Attribute) and decorator.attr == "setter" and isinstance(decorator.value, ast.Name)):
        return None
    name = decorator.value.id
    if name != stmt.name or decorated.get(name, ("", ""))[0] != "property":
        return None
    return name


def _undecorated(stmt: ast.FunctionDef) -> ast.FunctionDef:
    """The method without its decorator (what the descriptor wraps)."""
    import copy

    bare = copy.copy(stmt)
    bare.decorator_list = []
    return bare


def _bound_names(stmt: ast.stmt) -> set[str]:
    """The names a statement of a class body binds (assignments, decorated definitions...)."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {stmt.name}
    if isinstance(stmt, ast.AnnAssign) and stmt.value is None:
        return set()  # a bare annotation binds nothing
    names: set[str] = set()
    for sub in ast.walk(stmt):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            names.add(sub.id)
    return names


_NOT_LITERAL = object()


def _plain_literal(value: object) -> bool:
    """An immutable value a literal writes: int, float, str, bool, None, a tuple of them."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    return type(value) is tuple and all(_plain_literal(v) for v in value)


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


_RE_FUNCTIONS = frozenset({"compile", "findall", "finditer", "fullmatch", "match", "search", "split", "sub", "subn"})


def _regex_patterns(tree: ast.Module, first: int, last: int) -> set[int]:
    """The ids of the str constants between lines ``first`` and ``last`` written as the pattern
    (first argument) of a call of a ``re`` function (``re.sub(P, ...)``, ``fullmatch(P, s)``):
    a syntactic guess, used only to choose values to try."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and first <= node.lineno <= last and node.args and isinstance(node.args[0], ast.Constant)):
            continue
        func = node.func
        name = (
            func.attr
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "re"
            else func.id
            if isinstance(func, ast.Name)
            else None
        )
        if name in _RE_FUNCTIONS and isinstance(node.args[0].value, str):
            found.add(id(node.args[0]))
    return found
