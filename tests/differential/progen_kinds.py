"""Parameter kinds and the walrus in random programs (mixed into ``progen._Builder`` through
``progen_breadth.BreadthBuilder``; written only with ``edges=True``, tagged ``KINDS_FEATURES``):

* a module-level helper ``kw0`` with keyword-only and positional-only parameters and maybe
  ``*rest`` and ``**named``: ``def kw0(a: int, /, b: int = k, [*rest: int,] c: int, d: int =
  k2[, **named: int]) -> int`` (without ``*rest``, a bare ``*`` makes ``c`` and ``d``
  keyword-only), whose body folds every parameter into an int and branches on it; called
  from int expressions with its arguments in the forms Python allows: ``a`` by position,
  ``b`` by position, by keyword or left to its default, extra positionals written or
  ``*[...]`` (into ``rest``), ``c`` and ``d`` by keyword or in a ``**{...}`` mapping, extra
  keywords (into ``named``); and now and then a call CPython refuses with a TypeError (a
  positional-only argument by keyword, a keyword-only one missing, ``b`` twice, an unknown
  keyword, too many positionals), whose message pathloom must give exactly;
* the walrus: ``((wz := e) * 2 - wz)``, and in a comprehension's condition, where it binds in
  the enclosing function and stays bound after it: ``(len([wz for wv in xs if (wz := wv + e)
  > e2]) + (wz if xs else 0))``. Each walrus names its own variables (``wzN``, ``wvN``), so no
  other code reads or rebinds them, and no walrus is ever inside a comprehension's iterable
  (CPython's SyntaxError: ``progen_edges``' ``[cv for cv in s][i]`` of a set ``s`` holding one
  is ``len(s)`` instead).
"""

from __future__ import annotations

from .progen_base import _E, _Ctx, _indent, _par, _Var

KINDS_FEATURES: frozenset[str] = frozenset(
    {
        "kinds_helper",  # kw0 defined, with positional-only and keyword-only parameters
        "kinds_varargs",  # kw0 takes *rest and a call gives it extra positionals
        "kinds_varkw",  # kw0 takes **named and a call gives it extra keywords
        "kinds_star_call",  # a call of kw0 with *[...] or **{...} arguments
        "kinds_call_error",  # a call of kw0 that CPython refuses with a TypeError
        "walrus",
        "walrus_comp",
    }
)


class KindsBuilder:
    """The helper ``kw0``, its calls, and the walrus; mixed into ``progen._Builder``, whose
    choice helpers (``int_in``, ``flag``, ``choice``, ``pick``, ``tag``) and ``num`` it uses."""

    kinds: tuple[bool, bool] | None = None  # kw0 is defined: (it takes *rest, it takes **named)
    walruses = 0  # walrus variables named so far

    def kinds_helper(self) -> list[str]:
        """The definition of ``kw0``; its calls may be written from then on."""
        self.tag("kinds_helper")
        rest, named = self.flag(), self.flag()
        b, d = self.int_in(-2, 3), self.int_in(-2, 3)
        params = ["a: int", "/", f"b: int = {b}", "*rest: int" if rest else "*", "c: int", f"d: int = {d}"] + (["**named: int"] if named else [])
        body = ["t = a + 2 * b + 3 * c + 5 * d"]
        if rest:
            body.append("t += 7 * len(rest) + sum(rest)")
        if named:
            body.append('t += 11 * len(named) + named.get("z", 0)')
        body += [f"if t > {self.int_in(-3, 6)}:", "    return t - a", "return t"]
        self.kinds = (rest, named)
        return [f"def kw0({', '.join(params)}) -> int:"] + _indent(body)

    def kinds_call_num(self, c: _Ctx, d: int) -> _E:
        """A call of ``kw0``: its arguments in one of the forms Python allows, or (1 in 8) a
        call CPython refuses."""
        assert self.kinds is not None
        rest, named = self.kinds

        def arg() -> str:
            return self.num(c, d - 1).text

        positional = [arg()]
        keywords: list[tuple[str, str]] = []
        b_form = self.choice(["position", "keyword", "default"])
        if b_form == "position":
            positional.append(arg())
            if rest and self.flag():
                self.tag("kinds_varargs")
                positional += [arg() for _ in range(self.int_in(1, 2))]
        elif b_form == "keyword":
            keywords.append(("b", arg()))
        keywords.append(("c", arg()))
        if self.flag():
            keywords.append(("d", arg()))
        if named and self.flag():
            self.tag("kinds_varkw")
            keywords.append(("z", arg()))
        if self.flag(1, 8):
            self.tag("kinds_call_error")
            error = self.choice(["a by keyword", "c missing", "b twice", "unknown keyword", "too many"])
            if error == "a by keyword":
                keywords.append(("a", positional.pop(0)))
            elif error == "c missing":
                keywords = [(k, v) for k, v in keywords if k != "c"]
            elif error == "b twice":
                keywords = [(k, v) for k, v in keywords if k != "b"] + [("b", arg())]
                positional[1:] = [positional[1] if len(positional) > 1 else arg()]
            elif error == "unknown keyword":
                keywords.append(("y", arg()))  # into named when kw0 takes it
            else:
                positional[1:] = [positional[1] if len(positional) > 1 else arg(), arg()]  # into rest when kw0 takes it
        return _E(f"kw0({', '.join(self._kinds_arguments(positional, keywords))})", True)

    def _kinds_arguments(self, positional: list[str], keywords: list[tuple[str, str]]) -> list[str]:
        """The call's argument texts: the positionals, the last ones maybe as ``*[...]``; the
        keywords, the last ones maybe in a ``**{...}`` mapping."""
        cut = self.int_in(0, len(positional))
        texts = positional
        if cut < len(positional) and self.flag(1, 3):
            self.tag("kinds_star_call")
            texts = positional[:cut] + [f"*[{', '.join(positional[cut:])}]"]
        cut = self.int_in(0, len(keywords))
        if cut < len(keywords) and self.flag(1, 3):
            self.tag("kinds_star_call")
            mapping = ", ".join(f"{k!r}: {v}" for k, v in keywords[cut:])
            return texts + [f"{k}={v}" for k, v in keywords[:cut]] + [f"**{{{mapping}}}"]
        return texts + [f"{k}={v}" for k, v in keywords]

    def walrus_num(self, c: _Ctx, d: int, lists: list[_Var]) -> _E:
        """``((wz := e) * 2 - wz)``, or a walrus in a comprehension's condition, read after it."""
        n = self.walruses
        self.walruses += 1
        name = f"wz{n}"
        if lists and self.flag():
            self.tag("walrus_comp")
            xs, item = self.choice(lists).text, f"wv{n}"
            e, e2 = _par(self.num(c, d - 1)), _par(self.num(c, d - 1))  # (a if b else c) inside a comprehension's if
            return _E(f"(len([{name} for {item} in {xs} if ({name} := {item} + {e}) > {e2}]) + ({name} if {xs} else 0))", True)
        self.tag("walrus")
        return _E(f"(({name} := {self.num(c, d - 1).text}) * 2 - {name})", True)
