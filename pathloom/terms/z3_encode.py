"""Translate terms to Z3 expressions (cached per term), and Z3 models back to Python values.

Invariant: the Z3 meaning of every operator equals the Python meaning given by ``evaluate``
on the domain where the semantics layer uses it (``floordiv``/``mod`` with a nonzero divisor,
``at`` in range, ``to_code`` on one-character strings, ``from_code`` within ``MAX_CODE``);
``substr`` is SMT-LIB's ``str.substr`` on both sides, for every argument.
Python floors integer division toward negative infinity; SMT-LIB ``div`` is Euclidean, so
``a // b`` is encoded as ``div(a, b)`` for ``b > 0`` and ``div(-a, -b)`` for ``b < 0``.
``pow2(n)`` is ``1`` shifted left by ``n`` in a 64-bit vector, read back as an int (exact for
``0 <= n <= 62``: Z3 reasons about it far faster than about ``x`` and its bits, and
``x * pow2(n)``, ``x // pow2(n)`` are Python's shifts of every ``x``). ``str`` of an int is
Z3's ``str.from_int`` (digits of a non-negative int) with a ``-`` prefixed to that of ``-a``
for negatives.
"""

from __future__ import annotations

import weakref
from typing import Callable

import z3

from pathloom.terms.expr import BOOL, INT, STR, Arg, Concrete, Term, postorder

_cache: weakref.WeakKeyDictionary[Term, z3.ExprRef] = weakref.WeakKeyDictionary()
_symbols: dict[tuple[str, str], z3.ExprRef] = {}


def z3_symbol(name: str, sort: str) -> z3.ExprRef:
    key = (name, sort)
    found = _symbols.get(key)
    if found is None:
        found = {INT: z3.Int, BOOL: z3.Bool, STR: z3.String}[sort](name)
        _symbols[key] = found
    return found


def _const(value: Concrete) -> z3.ExprRef:
    if isinstance(value, bool):
        return z3.BoolVal(value)
    if isinstance(value, int):
        return z3.IntVal(value)
    return z3.StringVal(value)


def _floordiv(a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
    return z3.If(b > 0, a / b, (-a) / (-b))


def _mod(a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
    return a - b * _floordiv(a, b)


def _pow2(n: z3.ArithRef) -> z3.ArithRef:
    return z3.BV2Int(z3.BitVecVal(1, 64) << z3.Int2BV(n, 64))


def _int_str(a: z3.ArithRef) -> z3.SeqRef:
    return z3.If(a >= 0, z3.IntToStr(a), z3.Concat(z3.StringVal("-"), z3.IntToStr(-a)))


_OPS: dict[str, Callable[..., z3.ExprRef]] = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "neg": lambda a: -a,
    "floordiv": _floordiv,
    "mod": _mod,
    "not": z3.Not,
    "and": z3.And,
    "or": z3.Or,
    "ite": z3.If,
    "eq": lambda a, b: a == b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "str_lt": lambda a, b: z3.StrLT(a, b) if hasattr(z3, "StrLT") else a < b,
    "str_le": lambda a, b: z3.StrLE(a, b) if hasattr(z3, "StrLE") else a <= b,
    "concat": z3.Concat,
    "len": z3.Length,
    "at": lambda s, i: z3.SubString(s, i, 1),
    "substr": z3.SubString,
    "contains": z3.Contains,
    "to_code": z3.StrToCode,
    "from_code": z3.StrFromCode,
    "int_str": _int_str,
    "pow2": _pow2,
}


def encode(term: Arg) -> z3.ExprRef:
    if not isinstance(term, Term):
        return _const(term)
    cache = _cache
    found = cache.get(term)
    if found is not None:
        return found
    # Bottom-up without recursion: terms can be far deeper than the recursion limit.
    for t in postorder(term, cache):
        if t.op == "sym":
            cache[t] = z3_symbol(str(t.args[0]), t.sort)
        else:
            cache[t] = _OPS[t.op](*(cache[a] if isinstance(a, Term) else _const(a) for a in t.args))
    return cache[term]


def decode(value: z3.ExprRef, sort: str) -> Concrete:
    if sort == INT:
        return int(value.as_long())  # type: ignore[attr-defined]
    if sort == BOOL:
        return bool(z3.is_true(value))
    return _decode_string(value)


def _decode_string(value: z3.ExprRef) -> str:
    if hasattr(value, "as_string"):
        try:
            return "".join(chr(c) for c in _string_codes(value))
        except (ValueError, z3.Z3Exception):
            pass
    return str(value.as_string())  # type: ignore[attr-defined]


def _string_codes(value: z3.ExprRef) -> list[int]:
    codes: list[int] = []
    length = z3.simplify(z3.Length(value)).as_long()  # type: ignore[attr-defined]
    for i in range(length):
        code = z3.simplify(z3.StrToCode(z3.SubString(value, i, 1)))
        codes.append(int(code.as_long()))  # type: ignore[attr-defined]
    return codes
