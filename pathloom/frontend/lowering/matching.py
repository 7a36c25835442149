"""The ``match`` statement, lowered to explicit tests.

Job: ``stmt_Match``. The subject is evaluated once; each ``case`` tests its pattern, binds the
pattern's names only once the whole pattern matched (CPython stores captures at the end), then
tests the guard; the first case that matches runs its body, and no match falls through.
Patterns, with CPython's tests: a literal is ``subject == literal`` (its truth), ``None``,
``True`` and ``False`` are ``subject is ...`` (for the bools, ``isinstance(subject, bool)``
and ``subject == True``: the only bools are those two objects), a dotted name is ``subject == value``, a capture
binds, ``_`` matches anything, ``p as name`` binds after ``p`` matched, ``p | q`` tries the
alternatives in order. A sequence pattern first requires ``isinstance(subject,
collections.abc.Sequence)`` and not a ``str``, ``bytes`` or ``bytearray``, then the length
(``len(subject) == n``, or ``>=`` the items around a star), then matches the items read by
index (``len(subject) - k`` after a star, as CPython computes it; a ``_`` item is not read);
with a named star the subject is unpacked as CPython does (``*rest`` a new list).

A mapping pattern ``{k: p, ..., **rest}`` is CPython's compiled one: ``isinstance(subject,
collections.abc.Mapping)``, ``len(subject) >= len(keys)`` (with keys), the keys (literals,
dotted names) evaluated in order, then every lookup before any sub-pattern: ``%mapping_get``
(``semantics.patterns``) hashes each key, raises CPython's ``ValueError`` for a key equal to
an earlier one, and looks it up as ``subject.get(key, dummy)`` (a missing key: no match; a
``defaultdict`` never calls its factory); the values then match the sub-patterns in order;
extra keys are allowed; ``**rest`` is ``dict(subject)`` with each key deleted, in the
subject's order.

A class pattern ``C(p, ..., a=q, ...)``: the class evaluated, CPython's ``TypeError`` if it
is no class, ``isinstance(subject, C)``, then the attributes read in order before any
sub-pattern: the positional ones named by ``C.__match_args__`` (or the subject itself for
``bool``, ``bytearray``, ``bytes``, ``dict``, ``float``, ``frozenset``, ``int``, ``list``,
``set``, ``str``, ``tuple``: their one positional sub-pattern), then the keyword ones, each by
``%match_attribute``: an ``AttributeError`` is no match. Too many positional sub-patterns, a
``__match_args__`` that is no tuple of strs, an attribute named twice: CPython's
``TypeError``, with its message. ``__match_args__`` and the class's flags are read from the
real class when the pattern is lowered, so the class must be known then.

Refused, one line each: a class pattern whose class is a local name (or a name a ``global``
statement rebinds, or that the module binds twice), not defined, of an analysed class without
the real module, a dotted name that cannot be read; positional sub-patterns where some code
assigns a ``__match_args__``; and at run time, an attribute read through a property or
``__getattr__`` (an ``AttributeError`` raised there would be swallowed).
"""

from __future__ import annotations

import ast
import builtins
import collections.abc
import functools
from dataclasses import dataclass

from pathloom.domain.values import BuiltinVal, ClassVal, PyObj
from pathloom.frontend import ir
from pathloom.frontend.ir import Const, Global, Loc, Operand, Var
from pathloom.frontend.lowering.builder import Builder, node_loc

MAPPING_GET = "%mapping_get"  # (subject, key, *earlier keys) -> (found, value): semantics.patterns
MATCH_ATTRIBUTE = "%match_attribute"  # (subject, name) -> (found, value): semantics.patterns

_SEQUENCE = Const(PyObj(collections.abc.Sequence))
_BUILTINS = ("isinstance", "len", "str", "bytes", "bytearray")
# what a mapping or class pattern calls is CPython's own, whatever the code binds to the names
_MAPPING = Const(PyObj(collections.abc.Mapping))
_ISINSTANCE = Const(BuiltinVal("isinstance"))
_LEN = Const(BuiltinVal("len"))
_DICT = Const(PyObj(dict))
_HIDDEN_GET = Const(BuiltinVal(MAPPING_GET))
_HIDDEN_ATTRIBUTE = Const(BuiltinVal(MATCH_ATTRIBUTE))
_TPFLAGS_HEAPTYPE = 1 << 9  # a class made by a class statement
_TPFLAGS_MATCH_SELF = 1 << 22  # bool, bytearray, bytes, dict, float, frozenset, int, list, set, str, tuple


class Matching(Builder):
    """``match`` statements: patterns as tests and jumps."""

    def stmt_Match(self, node: ast.Match) -> None:
        loc = node_loc(node)
        subject = self.temp()
        self.emit(ir.Assign(subject, self.expr(node.subject), loc))
        join = self.new_block()
        for case in node.cases:
            fail = self.new_block()
            captures: dict[str, Operand] = {}
            self._pattern(case.pattern, Var(subject), fail, captures)
            for name, value in captures.items():  # bound once the whole pattern matched, as CPython
                self.assign(ast.copy_location(ast.Name(name, ast.Store()), case.pattern), value)
            if case.guard is not None:
                ok = self.new_block()
                self.branch(case.guard, ok, fail)
                self.start(ok)
            self.body(case.body)
            self.goto(join, loc)
            self.start(fail)
        self.goto(join, loc)
        self.start(join)

    def _pattern(self, p: ast.pattern, subject: Operand, fail: ir.Block, captures: dict[str, Operand]) -> None:
        """Test ``subject`` against ``p``: on to ``fail`` if it does not match, else go on in
        the current block with the pattern's names (not bound yet) in ``captures``."""
        loc = node_loc(p)
        if isinstance(p, ast.MatchValue):
            self._test(ir.Compare(self.temp(), "==", subject, self.expr(p.value), loc), fail)
        elif isinstance(p, ast.MatchSingleton) and p.value is None:
            self._test(ir.Compare(self.temp(), "is", subject, Const(None), loc), fail)
        elif isinstance(p, ast.MatchSingleton):  # x is True: a bool (no subclass exists) equal to True
            if not self._is_builtin("bool") or not self._is_builtin("isinstance"):
                raise self.unsupported(p, "True or False pattern where 'bool' or 'isinstance' is not the builtin")
            self._test(ir.Call(self.temp(), Global("isinstance"), (subject, Global("bool")), (), loc), fail)
            self._test(ir.Compare(self.temp(), "==", subject, Const(p.value), loc), fail)
        elif isinstance(p, ast.MatchAs):
            if p.pattern is not None:
                self._pattern(p.pattern, subject, fail, captures)
            if p.name is not None:
                captures[p.name] = subject
        elif isinstance(p, ast.MatchOr):
            self._alternatives(p, subject, fail, captures)
        elif isinstance(p, ast.MatchSequence):
            self._sequence(p, subject, fail, captures)
        elif isinstance(p, ast.MatchMapping):
            self._mapping(p, subject, fail, captures)
        elif isinstance(p, ast.MatchClass):
            self._class(p, subject, fail, captures)
        else:
            raise self.unsupported(p, f"{type(p).__name__} in a match statement")

    def _test(self, made: ir.Compare | ir.Call, fail: ir.Block) -> None:
        """Go on when the value ``made`` computes is true, else to ``fail``."""
        self.emit(made)
        ok = self.new_block()
        self._branch_on(Var(made.dst), ok, fail, made.loc)
        self.start(ok)

    def _alternatives(self, p: ast.MatchOr, subject: Operand, fail: ir.Block, captures: dict[str, Operand]) -> None:
        matched = self.new_block()
        shared: dict[str, Var] = {}
        for alternative in p.patterns:
            next_one = self.new_block()
            own: dict[str, Operand] = {}
            self._pattern(alternative, subject, next_one, own)
            for name in sorted(own):  # every alternative binds the same names (a SyntaxError else)
                slot = shared.setdefault(name, Var(self.temp()))
                self.emit(ir.Assign(slot.name, own[name], node_loc(alternative)))
            self.goto(matched, node_loc(alternative))
            self.start(next_one)
        self.goto(fail, node_loc(p))
        self.start(matched)
        captures.update(shared)

    def _sequence(self, p: ast.MatchSequence, subject: Operand, fail: ir.Block, captures: dict[str, Operand]) -> None:
        loc = node_loc(p)
        for name in _BUILTINS:
            if not self._is_builtin(name):
                raise self.unsupported(p, f"sequence pattern where {name!r} is not the builtin")
        self._test(ir.Call(self.temp(), Global("isinstance"), (subject, _SEQUENCE), (), loc), fail)
        for excluded in ("str", "bytes", "bytearray"):
            flag = self.temp()
            self.emit(ir.Call(flag, Global("isinstance"), (subject, Global(excluded)), (), loc))
            ok = self.new_block()
            self._branch_on(Var(flag), fail, ok, loc)
            self.start(ok)
        stars = [k for k, q in enumerate(p.patterns) if isinstance(q, ast.MatchStar)]
        star = stars[0] if stars else None
        length = self.temp()
        self.emit(ir.Call(length, Global("len"), (subject,), (), loc))
        count = len(p.patterns) - (1 if star is not None else 0)
        self._test(ir.Compare(self.temp(), "==" if star is None else ">=", Var(length), Const(count), loc), fail)
        unpacked: tuple[str, ...] = ()
        if star is not None and getattr(p.patterns[star], "name", None) is not None:
            unpacked = tuple(self.temp() for _ in p.patterns)  # UNPACK_EX, as CPython for a named star
            self.emit(ir.Unpack(unpacked, subject, loc, star))
        for k, q in enumerate(p.patterns):
            if isinstance(q, ast.MatchStar):
                if q.name is not None:
                    captures[q.name] = Var(unpacked[k])
            elif unpacked:
                self._pattern(q, Var(unpacked[k]), fail, captures)
            elif not (isinstance(q, ast.MatchAs) and q.pattern is None and q.name is None):  # _ reads nothing
                self._pattern(q, self._item(subject, Var(length), k, len(p.patterns), star, loc), fail, captures)

    def _item(self, subject: Operand, length: Var, k: int, total: int, star: int | None, loc: Loc) -> Var:
        """Item ``k`` of the subject as CPython reads it: ``subject[k]`` before a star,
        ``subject[len(subject) - (total - k)]`` after it."""
        at: Operand = Const(k)
        if star is not None and k > star:
            index = self.temp()
            self.emit(ir.BinOp(index, "-", length, Const(total - k), loc))
            at = Var(index)
        item = self.temp()
        self.emit(ir.GetItem(item, subject, at, loc))
        return Var(item)

    # ------------------------------------------------------------ mapping patterns

    def _mapping(self, p: ast.MatchMapping, subject: Operand, fail: ir.Block, captures: dict[str, Operand]) -> None:
        """As CPython's compiler: ``MATCH_MAPPING``, ``len(subject) >= len(keys)``, the keys
        evaluated in order, then ``MATCH_KEYS`` (every lookup before any sub-pattern), the
        sub-patterns in order, and ``**rest``: ``dict(subject)`` less the keys."""
        loc = node_loc(p)
        self._test(ir.Call(self.temp(), _ISINSTANCE, (subject, _MAPPING), (), loc), fail)
        if not p.keys and p.rest is None:
            return
        if p.keys:
            length = self.temp()
            self.emit(ir.Call(length, _LEN, (subject,), (), loc))
            self._test(ir.Compare(self.temp(), ">=", Var(length), Const(len(p.keys)), loc), fail)
        keys = [self.expr(key) for key in p.keys]  # literals and dotted names only (the parser's rule)
        values = [self._found(ir.Call(self.temp(), _HIDDEN_GET, (subject, key, *keys[:k]), (), loc), fail) for k, key in enumerate(keys)]
        for q, value in zip(p.patterns, values):
            self._pattern(q, value, fail, captures)
        if p.rest is not None:  # BUILD_MAP, DICT_UPDATE with the subject, then del rest[key] per key
            rest = self.temp()
            self.emit(ir.Call(rest, _DICT, (subject,), (), loc))
            for key in keys:
                self.emit(ir.DelItem(Var(rest), key, loc))
            captures[p.rest] = Var(rest)

    def _found(self, lookup: ir.Call, fail: ir.Block) -> Var:
        """The value a ``(found, value)`` helper gives, going to ``fail`` when not found."""
        self.emit(lookup)
        flag, value = self.temp(), self.temp()
        self.emit(ir.GetItem(flag, Var(lookup.dst), Const(0), lookup.loc))
        ok = self.new_block()
        self._branch_on(Var(flag), ok, fail, lookup.loc)
        self.start(ok)
        self.emit(ir.GetItem(value, Var(lookup.dst), Const(1), lookup.loc))
        return Var(value)

    # ------------------------------------------------------------ class patterns

    def _class(self, p: ast.MatchClass, subject: Operand, fail: ir.Block, captures: dict[str, Operand]) -> None:
        """As CPython's ``MATCH_CLASS``: the class evaluated, ``isinstance(subject, cls)``,
        the attributes read in order (the positional ones named by ``cls.__match_args__``, or
        the subject itself for a class that matches itself, then the keyword ones; a missing
        one ends the match), then the sub-patterns in order. ``__match_args__`` and the class's
        flags are read from the real class when the pattern is lowered: the class must be a
        name the module binds to a class (or a builtin, or a dotted name of an imported module)
        that no code rebinds, and no code may assign a ``__match_args__``."""
        loc = node_loc(p)
        real = self._pattern_class(p.cls)
        cls = self.expr(p.cls)
        if not isinstance(real, type):
            self._raise("TypeError", _not_a_class_message(), loc)
            return
        self._test(ir.Call(self.temp(), _ISINSTANCE, (subject, cls), (), loc), fail)
        steps = self._class_steps(p, real)
        values: list[Operand] = []
        for step in steps:
            if isinstance(step, _Raise):
                self._raise("TypeError", step.message, loc)
                return
            if step is _SELF:
                values.append(subject)
            else:
                values.append(self._found(ir.Call(self.temp(), _HIDDEN_ATTRIBUTE, (subject, Const(step)), (), loc), fail))
        for q, value in zip([*p.patterns, *p.kwd_patterns], values):
            self._pattern(q, value, fail, captures)

    def _class_steps(self, p: ast.MatchClass, real: type) -> list[object]:
        """What ``MATCH_CLASS`` does after the ``isinstance`` test, in order: an attribute name
        to read, ``_SELF`` (the subject itself), or the ``TypeError`` it raises (the last step)."""
        steps: list[object] = []
        names: list[object] = []
        if p.patterns:
            if any(isinstance(n, ast.Attribute) and n.attr == "__match_args__" and not isinstance(n.ctx, ast.Load) for n in ast.walk(self.module.tree)):
                raise self.unsupported(p, "class pattern with positional sub-patterns where the code assigns a __match_args__")
            try:
                match_args = getattr(real, "__match_args__")
                match_self = False
            except AttributeError:
                match_args, match_self = (), bool(real.__flags__ & _TPFLAGS_MATCH_SELF)
            except Exception:  # noqa: BLE001 - what reading it raises is not modelled
                raise self.unsupported(p, "class pattern whose class's __match_args__ raises when read") from None
            if type(match_args) is not tuple:
                return [_Raise(f"{self._type_name(p, real)}.__match_args__ must be a tuple (got {self._type_name(p, type(match_args))})")]
            allowed = 1 if match_self else len(match_args)
            if allowed < len(p.patterns):
                s = "" if allowed == 1 else "s"
                return [_Raise(f"{self._type_name(p, real)}() accepts {allowed} positional sub-pattern{s} ({len(p.patterns)} given)")]
            if match_self:
                steps.append(_SELF)
            else:
                names = list(match_args[: len(p.patterns)])
        seen: set[str] = set()
        for name in [*names, *p.kwd_attrs]:
            if type(name) is not str:
                return steps + [_Raise(f"__match_args__ elements must be strings (got {self._type_name(p, type(name))})")]
            if name in seen:
                return steps + [_Raise(f"{self._type_name(p, real)}() got multiple sub-patterns for attribute {name!r}")]
            seen.add(name)
            steps.append(name)
        return steps

    def _type_name(self, p: ast.MatchClass, cls: type) -> str:
        """CPython's ``tp_name`` of ``cls`` in its messages: a class statement's ``__name__``,
        a builtin type's name."""
        if cls.__flags__ & _TPFLAGS_HEAPTYPE:
            return cls.__name__
        if cls.__module__ == "builtins":
            return cls.__qualname__
        raise self.unsupported(p, f"class pattern whose TypeError names the class {cls.__qualname__} (its C name is not known)")

    def _pattern_class(self, node: ast.expr) -> object:
        """The real object the class of a class pattern names, read when it is lowered."""
        module = self.module
        if isinstance(node, ast.Attribute):
            parts: list[str] = []
            root: ast.expr = node
            while isinstance(root, ast.Attribute):
                parts.insert(0, root.attr)
                root = root.value
            if not isinstance(root, ast.Name):
                raise self.unsupported(node, "class pattern whose class is not a dotted name")
            value = self._pattern_class(root)
            for part in parts:
                try:
                    value = getattr(value, part)
                except Exception:  # noqa: BLE001 - CPython's error when the pattern is tried: not modelled here
                    raise self.unsupported(node, f"class pattern whose class {ast.unparse(node)} cannot be read when it is lowered") from None
            return value
        assert isinstance(node, ast.Name)  # the parser's rule: a name or a dotted name
        name = node.id
        if name in self.locals or name in self.renames or name in module.global_decls:
            raise self.unsupported(node, f"class pattern whose class {name!r} a function binds")
        if name in module.classes:
            if name in module.constants or name in module.opaque or name in module.function_defs:
                raise self.unsupported(node, f"class pattern whose class {name!r} the module binds twice")
            if module.runtime is None:
                raise self.unsupported(node, f"class pattern of class {name} without the real module")
            return module.real_class(name)
        if self._is_builtin(name):
            if not hasattr(builtins, name):
                raise self.unsupported(node, f"class pattern naming {name!r}, which is not defined")
            return getattr(builtins, name)
        if module.has_runtime(name):
            return module.runtime_value(name)
        raise self.unsupported(node, f"class pattern whose class {name!r} is not known when it is lowered")

    def _raise(self, cls: str, message: str, loc: Loc) -> None:
        """Raise CPython's ``cls(message)`` here; what follows is unreachable."""
        exc = self.temp()
        self.emit(ir.Call(exc, Const(ClassVal(cls)), (Const(message),), (), loc))
        self.terminate(ir.Raise(Var(exc), "implicit", loc))
        self.dead_block()


@dataclass(frozen=True)
class _Raise:
    message: str


_SELF = object()  # a class that matches itself (int(x)): the subject is the positional value


@functools.cache
def _not_a_class_message() -> str:
    """CPython's message for a class pattern whose class is no class (3.11 says "must be a
    type", later versions "must be a class"): asked of the running CPython."""
    try:
        exec("match 0:\n    case c():\n        pass", {"c": 0})
    except TypeError as exc:
        return str(exc)
    raise AssertionError("a class pattern of a non-class matched")
