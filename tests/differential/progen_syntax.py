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
  ``{"$new": "Fz", "args": {"a": i, "b": j}}``, as pathloom reports them.
"""

from __future__ import annotations

from typing import Callable

from hypothesis import strategies as st

from .progen_base import _E, _Ctx, _indent, _Var

HUE, FROZ = "Hue", "Fz"
SYNTAX_ANNOTATION = {HUE: "Hue", FROZ: "Fz"}
SYNTAX_PARAM_NAMES = {HUE: ["hu", "hu2", "hu3", "hu4"], FROZ: ["fz", "fz2", "fz3", "fz4"]}
HUE_MEMBERS = ("R", "G", "B")

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
        "param:Hue",  # an entry parameter of the Enum class Hue
        "param:Fz",  # an entry parameter of the frozen dataclass Fz
        "enum_param",  # a Hue parameter read
        "frozen_param",  # an Fz parameter read
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
