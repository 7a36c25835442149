"""Everyday syntax in random programs (mixed into ``progen._Builder`` through
``progen_breadth.BreadthBuilder``; written only with ``edges=True``, tagged ``SYNTAX_FEATURES``):

* an import inside the entry, its first statement, in one of four forms (``import math``,
  ``import math as mth``, ``from math import gcd``, ``from math import gcd as gcd1``), whose
  name the next statement calls: ``li0 = math.gcd(e, k)`` (an int local from then on);
* a module-level helper ``cf0(a: int, b: int) -> int`` under ``@functools.cache`` or
  ``@functools.lru_cache`` (bare, or with a positional ``maxsize``), maybe also under the
  identity decorator ``keep`` (``def keep(f: object) -> object: return f``), or ``kp0`` under
  ``keep`` alone or under ``wrap``, which returns its nested ``inner(*args, **kwargs)``
  (maybe under ``functools.wraps(f)``) passing them on to ``f`` and adding a constant; its body reads only its parameters and literals (a pure function: the cache
  changes nothing CPython shows), and the entry's second statement calls it:
  ``cv0 = cf0(e, e2)``;
* entry parameters of the Enum class ``Hue`` (members ``R``, ``G``, ``B``, values 1..3) and of
  the frozen dataclass ``Fz`` (int fields ``a``, ``b``), read as ``hu.value``, ``hu.name``,
  ``hu is Hue.R``, ``hu == Hue.G``, ``fz.a``, ``fz.b`` (never assigned: the entry's parameters
  of these types are read-only); their inputs are ``{"$enum": "Hue", "member": m}`` and
  ``{"$new": "Fz", "args": {"a": i, "b": j}}``, as pathloom reports them;
* ``match`` statements (a compound statement of the entry and helpers): over a dict display
  (``{s: e, "b": e2}``, maybe with ``"p": d0`` last) with mapping patterns (``{"a": mc0}``,
  ``{"b": 0 | 1}``, ``{"a": mc0, **mr0}``, ``{}``, ``{"p": D0(a=mc0)}``), over an instance of
  ``D0`` or ``Fz`` (maybe or an int) with class patterns by keyword (``D0(a=mc0, b=2)``, a
  missing attribute ``D0(z=_)``: no match) and by position (``Fz(mc0, _)``, through the
  dataclass's ``__match_args__``), or over an int (maybe or a str) with int and str
  literals, ``|``, ``int(mc0)``, ``int(3)``, ``bool()``, ``int() as mc0``, ``str() as mc0``;
  each case maybe guarded, maybe a last ``case _``. Captures are fresh names ``mcN`` (and
  ``len(mrN)`` of a ``**mrN``), read only in their case's guard and body; no pattern raises;
* in a branch, a statement pathloom does not model (``class LcN: pass``, ``zcN = 2j``): the
  paths that reach it are cut there (``unsupported``), the others go on.
"""

from __future__ import annotations

from typing import Callable

from hypothesis import strategies as st

from .progen_base import _E, DC, INT, STR, STR_LITERALS, _Ctx, _DataCls, _indent, _par, _Var

HUE, FROZ = "Hue", "Fz"
SYNTAX_ANNOTATION = {HUE: "Hue", FROZ: "Fz"}
SYNTAX_PARAM_NAMES = {HUE: ["hu", "hu2", "hu3", "hu4"], FROZ: ["fz", "fz2", "fz3", "fz4"]}
HUE_MEMBERS = ("R", "G", "B")
_MATCH_KEYS = ("a", "b", "ab")  # the keys of the mapping patterns (and of the subject's display)
_Case = tuple[str, list[_Var]]  # a pattern's text, and the variables its captures give the case

# the local imports, each with the call its name makes (and the tag)
_LOCAL_IMPORTS = (
    ("import math", "math.gcd", "local_import"),
    ("import math as mth", "mth.gcd", "local_import_as"),
    ("from math import gcd", "gcd", "local_from_import"),
    ("from math import gcd as gcd1", "gcd1", "local_from_import_as"),
)
LOCAL_IMPORT_LINES = frozenset(line for line, _, _ in _LOCAL_IMPORTS)

#: The feature tags of the everyday-syntax features (a subset of ``progen.FEATURES``).
SYNTAX_FEATURES: frozenset[str] = frozenset(
    {
        *(tag for _, _, tag in _LOCAL_IMPORTS),
        "cache_helper",  # cf0 under @functools.cache
        "lru_helper",  # cf0 under @functools.lru_cache or @functools.lru_cache(k)
        "identity_decorator",  # keep, an identity decorator, on cf0 or kp0
        "wrapper_decorator",  # wrap, a decorator returning a wrapper that passes on *args and **kwargs, on kp0
        "wrapper_own_params",  # or a wrapper inner(a, b) that calls f with arguments of its choosing
        "param:Hue",  # an entry parameter of the Enum class Hue
        "param:Fz",  # an entry parameter of the frozen dataclass Fz
        "enum_param",  # a Hue parameter read
        "frozen_param",  # an Fz parameter read
        "match_mapping",  # a match over a dict display, mapping patterns
        "match_rest",  # a mapping pattern with **rest
        "match_class_keyword",  # a class pattern with keyword sub-patterns (D0, Fz)
        "match_class_positional",  # a class pattern with positional sub-patterns (__match_args__)
        "match_missing_attribute",  # a keyword sub-pattern of an attribute the class lacks: no match
        "match_nested",  # a class pattern inside a mapping pattern
        "match_builtin_class",  # int(p), bool(), str() as t over an int or str subject
        "match_literal",  # a literal pattern (top-level or a sub-pattern)
        "match_or",  # an or pattern of literals
        "match_capture",  # a capture pattern
        "match_as",  # str() as name
        "match_guard",  # case ... if cond
        "match_wildcard",  # a last case _
        "unmodelled_stmt",  # a statement pathloom does not model (a nested class, a complex literal), in a branch: its paths are cut
    }
)


def syntax_input_types(ints: st.SearchStrategy[int]) -> dict[str, st.SearchStrategy[object]]:
    """Concrete arguments of the Enum and frozen dataclass parameters (JSON, as pathloom
    reports them)."""
    members = st.sampled_from(HUE_MEMBERS).map(lambda m: {"$enum": "Hue", "member": m})
    frozen = st.tuples(ints, ints).map(lambda ab: {"$new": "Fz", "args": {"a": ab[0], "b": ab[1]}})
    return {SYNTAX_ANNOTATION[HUE]: members, SYNTAX_ANNOTATION[FROZ]: frozen}


def syntax_imports(source: str) -> list[tuple[str, bool]]:
    """The module-level import lines the syntax features need, each with whether ``source``
    needs it."""
    return [("import functools", "@functools." in source)]  # Callable: progen_breadth's import


class SyntaxBuilder:
    """The local imports, the cached and decorated helpers, the Enum and frozen dataclass
    parameters; mixed into ``progen._Builder``, whose choice helpers (``int_in``, ``flag``,
    ``choice``, ``tag``) and ``num`` it uses."""

    cached: str | None = None  # the decorated helper's name (cf0 or kp0), once defined

    def syntax_param_kinds(self) -> list[tuple[int, Callable[[], str]]]:
        return [(1, lambda: HUE), (1, lambda: FROZ)]

    def syntax_helper(self) -> list[str]:
        """``keep`` (maybe) and the decorated helper ``cf0`` (cached) or ``kp0`` (``keep`` alone)."""
        lines: list[str] = []
        decorators: list[str] = []
        keep = self.flag(1, 3)
        if keep:
            self.tag("identity_decorator")
            lines += ["def keep(f: object) -> object:", "    return f", "", ""]
            decorators.append("@keep")
        wrap = not keep and self.flag(1, 3)
        if wrap:
            self.tag("wrapper_decorator")
            inner = ["@functools.wraps(f)"] if self.flag() else []
            if self.flag(1, 3):  # a wrapper with parameters of its own, calling f as it likes
                self.tag("wrapper_own_params")
                inner += ["def inner(a: int, b: int) -> int:", f"    return f(b, a) if a > {self.int_in(-2, 2)} else f(a, a) + 1"]
            else:
                inner += ["def inner(*args: int, **kwargs: int) -> int:", f"    return f(*args, **kwargs) + {self.int_in(0, 3)}"]
            lines += ["def wrap(f: Callable[..., int]) -> Callable[..., int]:"] + _indent(inner) + ["    return inner", "", ""]
            decorators.append("@wrap")
        if wrap or (keep and self.flag(1, 3)):
            name = "kp0"
        else:
            name = "cf0"
            form = self.int_in(0, 2)
            self.tag("cache_helper" if form == 0 else "lru_helper")
            decorators.append(["@functools.cache", "@functools.lru_cache", f"@functools.lru_cache({self.int_in(1, 4)})"][form])
            if keep and self.flag():
                decorators.reverse()  # keep outside the cache, or inside it
        k, k2 = self.int_in(-2, 3), self.int_in(1, 3)
        body = [f"if a > b + {k}:", f"    return a - b * {k2}", f"return a * 2 + b - {self.int_in(0, 3)}"]
        self.cached = name
        return lines + decorators + [f"def {name}(a: int, b: int) -> int:"] + _indent(body)

    def syntax_head(self, c: _Ctx) -> tuple[list[str], list[str], list[_Var]]:
        """(the entry's first statements: maybe a local import, the rest: its use and a call
        of the decorated helper, the int locals they bind)."""
        first: list[str] = []
        rest: list[str] = []
        made: list[_Var] = []
        if self.flag(1, 4):
            line, call, tag = self.choice(_LOCAL_IMPORTS)
            self.tag(tag)
            first.append(line)
            rest.append(f"li0 = {call}({self.num(c, 1).text}, {self.int_in(2, 12)})")
            made.append(_Var("li0", "int", True))
        if self.cached is not None:
            rest.append(f"cv0 = {self.cached}({self.num(c, 1).text}, {self.num(c, 1).text})")
            made.append(_Var("cv0", "int", True))
        return first, rest, made

    def syntax_classes(self, types: set[str]) -> list[list[str]]:
        """The classes of the Enum and frozen dataclass parameters the entry takes."""
        chunks: list[list[str]] = []
        if HUE in types:
            chunks.append(["class Hue(Enum):"] + [f"    {m} = {i + 1}" for i, m in enumerate(HUE_MEMBERS)])
        if FROZ in types:
            chunks.append(["@dataclass(frozen=True)", "class Fz:", "    a: int", "    b: int"])
        return chunks

    def syntax_nums(self, c: _Ctx) -> list[tuple[int, Callable[[], _E]]]:
        hues, frozen = c.vars(HUE), c.vars(FROZ)
        options: list[tuple[int, Callable[[], _E]]] = []
        if hues:
            options.append((8, lambda: self._hue_value(hues)))
        if frozen:
            options.append((8, lambda: self._frozen_field(frozen)))
        return options

    def syntax_bools(self, c: _Ctx) -> list[tuple[int, Callable[[], _E]]]:
        hues = c.vars(HUE)
        return [(6, lambda: self._hue_test(hues))] if hues else []

    def syntax_strs(self, c: _Ctx) -> list[tuple[int, Callable[[], _E]]]:
        hues = c.vars(HUE)
        return [(4, lambda: self._hue_name(hues))] if hues else []

    def _hue_value(self, hues: list[_Var]) -> _E:
        self.tag("enum_param")
        return _E(f"{self.choice(hues).text}.value", True)

    def _hue_test(self, hues: list[_Var]) -> _E:
        self.tag("enum_param")
        v, m = self.choice(hues).text, self.choice(HUE_MEMBERS)
        return _E(f"{v} is Hue.{m}" if self.flag() else f"{v} == Hue.{m}", False)

    def _hue_name(self, hues: list[_Var]) -> _E:
        self.tag("enum_param")
        return _E(f"{self.choice(hues).text}.name", True)

    def _frozen_field(self, frozen: list[_Var]) -> _E:
        self.tag("frozen_param")
        return _E(f"{self.choice(frozen).text}.{self.choice(('a', 'b'))}", True)

    # -- match statements ---------------------------------------------------------------
    def syntax_stmts(self, c: _Ctx, compound_ok: bool) -> list[tuple[int, Callable[[], tuple[list[str], bool]]]]:
        opts: list[tuple[int, Callable[[], tuple[list[str], bool]]]] = [(2, lambda: (self.match_stmt(c), False))] if compound_ok else []
        if c.in_branch:
            opts.append((1, lambda: ([self.unmodelled_stmt()], False)))
        return opts

    unmodelled = 0  # names made by unmodelled statements so far

    def unmodelled_stmt(self) -> str:
        """A statement pathloom does not model, in a branch: ``class LcN: pass`` or ``zcN = 2j``
        (a name nothing reads). The path that reaches it is cut there (``unsupported``), the
        others explored as usual."""
        self.tag("unmodelled_stmt")
        n = self.unmodelled
        self.unmodelled += 1
        return f"class Lc{n}: pass" if self.flag() else f"zc{n} = {self.int_in(1, 3)}j"

    def match_stmt(self, c: _Ctx) -> list[str]:
        """``match`` over a dict display, an instance of D0 or Fz, or an int (see the module
        docstring): one to three cases, each maybe guarded, maybe a last ``case _``."""
        classes = c.vars(DC, FROZ)
        subjects: list[tuple[int, Callable[[], tuple[str, Callable[[], _Case]]]]] = [
            (3, lambda: self._mapping_subject(c, classes)),
            (2, lambda: self._builtin_subject(c)),
        ]
        if classes:  # a mapping subject then may hold an instance too (``match_nested``, the rarest form)
            subjects += [(10, lambda: self._class_subject(c, self.choice(classes))), (6, lambda: self._mapping_subject(c, classes))]
        subject, case = self.pick(subjects)
        lines = [f"match {subject}:"]
        for k in range(3):
            made = self.optional(case, 2, 3) if k else case()
            if made is None:
                break
            pattern, captured = made
            lines += _indent(self._case(c, pattern, captured))
        if self.flag(1, 3):
            self.tag("match_wildcard")
            lines += _indent(self._case(c, "_", []))
        return lines

    def _case(self, c: _Ctx, pattern: str, captured: list[_Var]) -> list[str]:
        inner = c.branch(is_if=True)
        inner = _Ctx(inner.fn, inner.scope + tuple(captured), inner.depth, inner.if_depth, inner.loop_depth, inner.in_branch, inner.can_continue, inner.frozen)
        guard = ""
        if pattern != "_" and self.flag(1, 3):
            self.tag("match_guard")
            guard = f" if {self.cond(inner, 1).text}"
        return [f"case {pattern}{guard}:"] + _indent(self.block(inner, 2))

    def _capture(self, c: _Ctx, ty: str, captured: list[_Var]) -> str:
        self.tag("match_capture")
        name = c.fn.fresh("mc")
        captured.append(_Var(name, ty, False))
        return name

    def _int_pattern(self, c: _Ctx, captured: list[_Var]) -> str:
        """A sub-pattern for an int: a capture, ``_``, a literal or literals joined by ``|``."""
        k = self.int_in(0, 3)
        if k == 0:
            return self._capture(c, INT, captured)
        if k == 1:
            return "_"
        self.tag("match_literal")
        first = self.int_lit(-2, 4).text
        if k == 2:
            return first
        self.tag("match_or")
        return f"{first} | {self.int_lit(-2, 4).text}"

    def _str_pattern(self, c: _Ctx, captured: list[_Var]) -> str:
        k = self.int_in(0, 2)
        if k == 0:
            return self._capture(c, STR, captured)
        if k == 1:
            return "_"
        self.tag("match_literal")
        return repr(self.choice(STR_LITERALS))

    def _mapping_subject(self, c: _Ctx, classes: list[_Var]) -> tuple[str, Callable[[], _Case]]:
        """``{k: e, "b": e2}`` (``k`` a str expression or a literal: maybe equal keys, the
        later value kept), maybe with ``"p": d0`` last (an instance of D0 or Fz: whatever
        ``k`` is, ``"p"`` holds it), and mapping patterns over the keys ``a``, ``b``, ``ab``
        (int sub-patterns) and ``p`` (a class pattern or ``_``)."""
        self.tag("match_mapping")
        first = self.str_(c, 1).text if self.flag() else repr(self.choice(_MATCH_KEYS))
        items = [f"{first}: {self.num(c, 1).text}", f"{repr(self.choice(_MATCH_KEYS))}: {self.num(c, 1).text}"]
        obj = self.choice(classes) if classes and self.flag(3, 4) else None
        if obj is not None:
            items.append(f"'p': {obj.text}")
        subject = "{" + ", ".join(items) + "}"

        def case() -> _Case:
            captured: list[_Var] = []
            keys = [key for key in _MATCH_KEYS if self.flag(1, 2)][:2]
            items = [f"{key!r}: {self._int_pattern(c, captured)}" for key in keys]
            if obj is not None and self.flag(3, 4):  # the rarest match form: drawn often enough to be seen
                self.tag("match_nested")
                items.append(f"'p': {self._class_pattern(c, obj, captured)}")
            if self.flag(1, 3):
                self.tag("match_rest")
                rest = c.fn.fresh("mr")
                captured.append(_Var(f"len({rest})", INT, False))
                items.append(f"**{rest}")
            return "{" + ", ".join(items) + "}", captured

        return subject, case

    def _class_subject(self, c: _Ctx, obj: _Var) -> tuple[str, Callable[[], _Case]]:
        """An instance of D0 or Fz, maybe or an int (``d0 if cond else e``), and class
        patterns of its class by keyword or by position, or ``int(...)``."""
        mixed = self.flag(1, 3)
        subject = f"{obj.text} if {_par(self.cond(c, 1))} else {_par(self.num(c, 1))}" if mixed else obj.text

        def case() -> _Case:
            captured: list[_Var] = []
            if mixed and self.flag(1, 4):
                self.tag("match_builtin_class")
                return f"int({self._int_pattern(c, captured)})", captured
            return self._class_pattern(c, obj, captured), captured

        return subject, case

    def _class_pattern(self, c: _Ctx, obj: _Var, captured: list[_Var]) -> str:
        """A class pattern of the class of ``obj`` (D0 or Fz), by position (its dataclass
        ``__match_args__``: the fields in order) or by keyword."""
        fields = obj.cls.fields if isinstance(obj.cls, _DataCls) else (("a", INT), ("b", INT))
        name = obj.cls.name if isinstance(obj.cls, _DataCls) else FROZ

        def sub(ty: str) -> str:
            return self._int_pattern(c, captured) if ty == INT else self._str_pattern(c, captured)

        if self.flag():
            self.tag("match_class_positional")
            count = self.int_in(1, len(fields))
            args = [sub(ty) for _, ty in fields[:count]]
            keywords = [f"{f}={sub(ty)}" for f, ty in fields[count:] if self.flag(1, 3)]
            return f"{name}({', '.join(args + keywords)})"
        self.tag("match_class_keyword")
        keywords = [f"{f}={sub(ty)}" for f, ty in fields if self.flag()]
        if self.flag(1, 6):
            self.tag("match_missing_attribute")
            keywords.append("z=_")  # no such attribute: never a match
        return f"{name}({', '.join(keywords)})"

    def _builtin_subject(self, c: _Ctx) -> tuple[str, Callable[[], _Case]]:
        """An int, maybe or a str, and literal, ``|`` and builtin class patterns."""
        mixed = self.flag(1, 3)
        subject = f"{_par(self.num(c, 1))} if {_par(self.cond(c, 1))} else {_par(self.str_(c, 1))}" if mixed else self.num(c, 1).text

        def case() -> _Case:
            captured: list[_Var] = []
            k = self.int_in(0, 5 if mixed else 3)
            if k == 5:
                self.tag("match_literal")
                return repr(self.choice(STR_LITERALS)), captured
            if k == 0:
                self.tag("match_literal")
                first = self.int_lit(-2, 4).text
                if self.flag():
                    return first, captured
                self.tag("match_or")
                return f"{first} | {self.int_lit(-2, 4).text}", captured
            self.tag("match_builtin_class")
            if k == 1:
                return f"int({self._int_pattern(c, captured)})", captured
            if k == 2:
                return "bool()", captured
            self.tag("match_as")
            if k == 3:
                return f"int() as {self._capture(c, INT, captured)}", captured
            return f"str() as {self._capture(c, STR, captured)}", captured

        return subject, case
