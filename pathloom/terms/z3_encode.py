"""Translate terms to Z3 expressions (cached per term), and Z3 models back to Python values.

Invariant: the Z3 meaning of every operator equals the Python meaning given by ``evaluate``
on the domain where the semantics layer uses it (``floordiv``/``mod`` with a nonzero divisor,
``at`` in range, ``to_code`` on one-character strings, ``from_code`` within ``MAX_CODE``);
``substr`` is SMT-LIB's ``str.substr`` on both sides, for every argument.
Python floors integer division toward negative infinity; SMT-LIB ``div`` is Euclidean, so
``a // b`` is encoded as ``div(a, b)`` for ``b > 0`` and ``div(-a, -b)`` for ``b < 0``.
``pow2(n)`` is ``1`` shifted left by ``n`` in a 64-bit vector, read back as an int (exact for
``0 <= n <= 62``: Z3 reasons about it far faster than about ``x`` and its bits, and
``x * pow2(n)``, ``x // pow2(n)`` are Python's shifts of every ``x``). ``str`` of an int
``a`` is ``-`` for negatives followed by a string constant named after the term (not an
input), defined as the canonical decimal digits of ``abs(a)``: ``str.to_int`` of it is
``abs(a)`` and it matches ``0|[1-9][0-9]*``. Z3's own ``str.from_int`` is the same function,
but Z3 gave up (``unknown`` after 10 s) on ``text(x) + "|" + text(x) == "-5|-5"`` with it;
with the constant it answers in 0.01 s. (Without the regular expression, a no-leading-zero
condition instead, some queries took over 10 s depending on what the process had asked Z3
before.) A constraint is asserted with the definitions of the constants in it
(``assertion``, ``definitions``).

``str_class`` of a whole string is a recursive function (``z3.RecFunction``) testing each
character's code against the class's ranges (``isspace``/``isascii``: a regular language of
few ranges); as a regular language of 60 to 730 ranges Z3 took 3 to 9 s on ``s.isdigit()``
alone and answered unknown with one more constraint, unfolded it answers in 0.01 to 2 s.
``int_syntax`` is an automaton unfolded the same way (as a regular language, mixed with the
class functions, ``s.isdigit() and int(s) > 50`` took Z3 10 s, unfolded 5 s); ``str_to_int``
is SMT-LIB's ``str.to_int``. ``replace``/``count`` of literals (Z3's ``str.replace_all`` answered
unknown at once), ``strip_count`` and ``ascii_case`` are recursive functions too, one per
literal (``_LITERAL_OPS``).

Floats are Z3's ``FPSort(11, 53)`` (binary64) with rounding to nearest, ties to even, which is
CPython's for ``+ - * /`` and ``sqrt``. ``eq``/``lt``/``le`` of two floats are IEEE's
(``fp.eq``, ``fp.lt``, ``fp.leq``); between an int and a float they compare exact values:
false for a NaN, the infinities below and above every int, else ``to_real`` of the float
against the int. ``i2f`` is ``to_fp`` of the int as a real (RNE); ``f2i`` is the integer of
``to_real`` of the float rounded toward zero. ``fsame`` is SMT-LIB's ``=`` on floats (one
NaN, two zeros). Mixed int and float reasoning (``to_real``) is much slower in Z3 than pure
float or pure int reasoning; a query it cannot decide in time is ``unknown``.
"""

from __future__ import annotations

import functools

import math
import struct
import weakref
from typing import Callable, Iterable

import z3

from pathloom.terms import char_classes
from pathloom.terms import regex_z3

from pathloom.terms.expr import BOOL, FLOAT, INT, STR, Arg, Concrete, Term, postorder

FLOAT64 = z3.FPSort(11, 53)
_RNE = z3.RNE()

_cache: weakref.WeakKeyDictionary[Term, z3.ExprRef] = weakref.WeakKeyDictionary()
# the definitions of the constants a term's encoding introduced (only terms with some)
_definitions: weakref.WeakKeyDictionary[Term, tuple[z3.BoolRef, ...]] = weakref.WeakKeyDictionary()
_symbols: dict[tuple[str, str], z3.ExprRef] = {}


def z3_symbol(name: str, sort: str) -> z3.ExprRef:
    key = (name, sort)
    found = _symbols.get(key)
    if found is None:
        found = z3.FP(name, FLOAT64) if sort == FLOAT else {INT: z3.Int, BOOL: z3.Bool, STR: z3.String}[sort](name)
        _symbols[key] = found
    return found


_DIGITS = 4000  # decimal digits converted at a time: CPython refuses int <-> str beyond 4300


def int_of_decimal(text: str) -> int:
    """``int(text)`` for a decimal numeral of any length (CPython's own conversion refuses
    more than 4300 digits: a Z3 model of a fuzzed tree program had an int of 4301)."""
    digits = text.lstrip("-")
    if len(digits) <= _DIGITS:
        return int(text)
    n = 0
    for i in range(0, len(digits), _DIGITS):
        part = digits[i : i + _DIGITS]
        n = n * 10 ** len(part) + int(part)
    return -n if text.startswith("-") else n


def decimal_of_int(n: int) -> str:
    """``str(n)`` for an int of any size (the converse of ``int_of_decimal``)."""
    if n.bit_length() < 13_000:  # fewer than 3,914 digits
        return str(n)
    rest, parts = abs(n), []
    while rest:
        rest, part = divmod(rest, 10**_DIGITS)
        parts.append(part)
    return ("-" if n < 0 else "") + str(parts[-1]) + "".join(str(p).zfill(_DIGITS) for p in reversed(parts[:-1]))


def _const(value: Concrete) -> z3.ExprRef:
    if isinstance(value, bool):
        return z3.BoolVal(value)
    if isinstance(value, int):
        return z3.IntVal(decimal_of_int(value))
    if isinstance(value, float):
        return _float_const(value)
    return z3.StringVal(value)


def _float_const(value: float) -> z3.ExprRef:
    if math.isnan(value):
        return z3.fpNaN(FLOAT64)
    if math.isinf(value):
        return z3.fpPlusInfinity(FLOAT64) if value > 0 else z3.fpMinusInfinity(FLOAT64)
    return z3.FPVal(value, FLOAT64)  # exact, -0.0 included


def _finite(f: z3.ExprRef) -> z3.BoolRef:
    return z3.Not(z3.Or(z3.fpIsNaN(f), z3.fpIsInf(f)))


def _compare(op: str, a: z3.ExprRef, b: z3.ExprRef) -> z3.BoolRef:
    """``a op b`` for ``op`` in eq, lt, le: Python's meaning on ints, floats and their mix."""
    fa, fb = z3.is_fp(a), z3.is_fp(b)
    if fa and fb:
        return {"eq": z3.fpEQ, "lt": z3.fpLT, "le": z3.fpLEQ}[op](a, b)
    if not fa and not fb:
        return {"eq": lambda x, y: x == y, "lt": lambda x, y: x < y, "le": lambda x, y: x <= y}[op](a, b)
    f = a if fa else b
    ra = z3.fpToReal(a) if fa else z3.ToReal(a)
    rb = z3.fpToReal(b) if fb else z3.ToReal(b)
    exact = {"eq": lambda: ra == rb, "lt": lambda: ra < rb, "le": lambda: ra <= rb}[op]()
    if op == "eq":
        return z3.And(_finite(f), exact)
    # an infinity orders by its sign: +inf is above every int, -inf below
    inf_decides = z3.fpIsPositive(f) if fb else z3.fpIsNegative(f)
    return z3.And(z3.Not(z3.fpIsNaN(f)), z3.If(z3.fpIsInf(f), inf_decides, exact))


def _f2i(f: z3.ExprRef) -> z3.ArithRef:
    return z3.ToInt(z3.fpToReal(z3.fpRoundToIntegral(z3.RTZ(), f)))


def _i2f(i: z3.ArithRef) -> z3.ExprRef:
    return z3.fpToFP(_RNE, z3.ToReal(i), FLOAT64)


def _floordiv(a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
    return z3.If(b > 0, a / b, (-a) / (-b))


def _mod(a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
    return a - b * _floordiv(a, b)


def _pow2(n: z3.ArithRef) -> z3.ArithRef:
    return z3.BV2Int(z3.BitVecVal(1, 64) << z3.Int2BV(n, 64))


# decimal digits without a leading zero
_CANONICAL = z3.Union(z3.Re("0"), z3.Concat(z3.Range("1", "9"), z3.Star(z3.Range("0", "9"))))


def _int_str(term: Term, a: z3.ArithRef) -> tuple[z3.SeqRef, z3.BoolRef]:
    """The text of the int ``a`` (the encoding of ``term``), and the definition of its digits."""
    digits = z3.String(f"%digits{term.serial}")
    # the last two conjuncts follow from the first two; stated, they let Z3 tell a sign from a
    # digit at once (str(x) == str(-x) for x != 0 was refuted in 0.05 s or not in 10 s,
    # depending on what the shared solver had learnt before)
    first = z3.StrToCode(z3.SubString(digits, 0, 1))
    definition = z3.And(z3.StrToInt(digits) == z3.If(a >= 0, a, -a), z3.InRe(digits, _CANONICAL), z3.Length(digits) >= 1, first >= ord("0"), first <= ord("9"))
    return z3.Concat(z3.If(a >= 0, z3.StringVal(""), z3.StringVal("-")), digits), definition


def _char_in_class(code: z3.ArithRef, method: str) -> z3.BoolRef:
    """``c.method()`` of a one-character string of code point ``code``: the code within one
    of the method's ranges (integer arithmetic; a regular language costs Z3 far more)."""
    if method == "isascii":
        ranges: char_classes.Ranges = ((0, 127),)
    elif method in char_classes.ALL_OF:
        ranges = char_classes.char_set(method)
    else:
        sets = char_classes.case_sets(method)
        assert sets is not None, method
        ranges = sets[0]
    return _in_ranges(code, ranges)


def _in_ranges(code: z3.ArithRef, ranges: char_classes.Ranges) -> z3.BoolRef:
    return z3.Or([z3.And(lo <= code, code <= hi) if lo < hi else code == lo for lo, hi in ranges])


def _head_and_tail(x: z3.SeqRef) -> tuple[z3.ArithRef, z3.SeqRef]:
    return z3.StrToCode(z3.SubString(x, 0, 1)), z3.SubString(x, 1, z3.Length(x) - 1)


@functools.cache
def _class_function(method: str) -> z3.FuncDeclRef:
    """A recursive function of a string that is ``method()`` of it for a class of many ranges:
    for ``isdigit``... every character's code within the ranges (the caller adds the string's
    being non-empty); for ``islower``/``isupper`` ``f(x, seen)``: no blocker, and a cased
    character in ``x`` or ``seen``. Z3 unfolds it along the string; as a regular language of
    60 to 730 ranges Z3 took seconds or answered unknown on one-line queries."""
    x = z3.String(f"%{method}.x")
    code, tail = _head_and_tail(x)
    if method in char_classes.ALL_OF or method == "isascii":
        ranges = ((0, 127),) if method == "isascii" else char_classes.char_set(method)
        every = z3.RecFunction(f"%{method}.all", z3.StringSort(), z3.BoolSort())
        z3.RecAddDefinition(every, [x], z3.If(z3.Length(x) == 0, True, z3.And(_in_ranges(code, ranges), every(tail))))
        return every
    sets = char_classes.case_sets(method)
    assert sets is not None, method  # str_class terms of a case test are built only then
    cased, blockers = sets
    seen = z3.Bool(f"%{method}.seen")
    case = z3.RecFunction(f"%{method}.cased", z3.StringSort(), z3.BoolSort(), z3.BoolSort())
    step = z3.And(z3.Not(_in_ranges(code, blockers)), case(tail, z3.Or(seen, _in_ranges(code, cased))))
    z3.RecAddDefinition(case, [x, seen], z3.If(z3.Length(x) == 0, seen, step))
    return case


def _str_class(s: z3.SeqRef, method: str) -> z3.BoolRef:
    """``s.method()`` of a whole string (see ``char_classes``)."""
    if method == "isascii":  # (mixed with the other functions a regular language made Z3 time out)
        return _class_function(method)(s)
    if method in char_classes.ALL_OF:
        return z3.And(z3.Length(s) > 0, _class_function(method)(s))
    return _class_function(method)(s, z3.BoolVal(False))


def _rec(name: str, body: Callable[[z3.FuncDeclRef, z3.SeqRef], z3.ExprRef], result: z3.SortRef) -> z3.FuncDeclRef:
    f = z3.RecFunction(name, z3.StringSort(), result)
    x = z3.String(f"{name}.x")
    z3.RecAddDefinition(f, [x], body(f, x))
    return f


def _drop(x: z3.SeqRef, n: int) -> z3.SeqRef:
    return z3.SubString(x, n, z3.Length(x) - n)


@functools.cache
def _replace_function(old: str, new: str) -> z3.FuncDeclRef:
    """``x.replace(old, new)``, ``old`` not empty: at an occurrence ``new`` and the rest after
    it, else the first character and the rest (Z3's ``str.replace_all`` answered unknown at
    once)."""
    m, literal = len(old), z3.StringVal(old)

    def body(f: z3.FuncDeclRef, x: z3.SeqRef) -> z3.ExprRef:
        found = z3.Concat(z3.StringVal(new), f(_drop(x, m)))
        return z3.If(z3.Length(x) < m, x, z3.If(z3.PrefixOf(literal, x), found, z3.Concat(z3.SubString(x, 0, 1), f(_drop(x, 1)))))

    return _rec(f"%replace.{old!r}.{new!r}", body, z3.StringSort())


@functools.cache
def _count_function(sub: str) -> z3.FuncDeclRef:
    """``x.count(sub)``, ``sub`` not empty: the occurrences ``replace`` finds."""
    m, literal = len(sub), z3.StringVal(sub)

    def body(f: z3.FuncDeclRef, x: z3.SeqRef) -> z3.ExprRef:
        return z3.If(z3.Length(x) < m, 0, z3.If(z3.PrefixOf(literal, x), 1 + f(_drop(x, m)), f(_drop(x, 1))))

    return _rec(f"%count.{sub!r}", body, z3.IntSort())


def _strip_ranges(chars: str) -> char_classes.Ranges:
    if not chars:
        return char_classes.char_set("isspace")
    return char_classes.union(tuple((ord(c), ord(c)) for c in chars), ())


@functools.cache
def _strip_function(side: str, chars: str) -> z3.FuncDeclRef:
    """How many characters of ``chars`` (whitespace for "") lead (``side`` "l") or end ("r")
    ``x``."""
    ranges = _strip_ranges(chars)

    def body(f: z3.FuncDeclRef, x: z3.SeqRef) -> z3.ExprRef:
        at = 0 if side == "l" else z3.Length(x) - 1
        rest = _drop(x, 1) if side == "l" else z3.SubString(x, 0, z3.Length(x) - 1)
        inside = _in_ranges(z3.StrToCode(z3.SubString(x, at, 1)), ranges)
        return z3.If(z3.Length(x) == 0, 0, z3.If(inside, 1 + f(rest), 0))

    return _rec(f"%strip.{side}.{chars!r}", body, z3.IntSort())


@functools.cache
def _case_function(to: str) -> z3.FuncDeclRef:
    """``x`` with ASCII letters only mapped to ``to`` case (``expr.py_ascii_case``)."""
    lo, shift = (ord("A"), 32) if to == "lower" else (ord("a"), -32)

    def body(f: z3.FuncDeclRef, x: z3.SeqRef) -> z3.ExprRef:
        code = z3.StrToCode(z3.SubString(x, 0, 1))
        head = z3.If(z3.And(lo <= code, code <= lo + 25), z3.StrFromCode(code + shift), z3.SubString(x, 0, 1))
        return z3.If(z3.Length(x) == 0, z3.StringVal(""), z3.Concat(head, f(_drop(x, 1))))

    return _rec(f"%case.{to}", body, z3.StringSort())


def _char_case(c: z3.SeqRef, to: str) -> z3.SeqRef:
    """``_case_function`` of a string of at most one character (``s[i]``), without recursion:
    a loop lowering ``name[i]`` made Z3 unfold the function at each character (4.6 s to refute
    ``'__' in name[0].lower() + '_' + name[1].lower()`` with both characters uppercase)."""
    lo, shift = (ord("A"), 32) if to == "lower" else (ord("a"), -32)
    code = z3.StrToCode(c)
    return z3.If(z3.And(lo <= code, code <= lo + 25), z3.StrFromCode(code + shift), c)


@functools.cache
def _int_syntax_function() -> z3.FuncDeclRef:
    """CPython's base-10 ``int`` syntax (``char_classes.int_syntax``) as an automaton unfolded
    along the string, ``f(x, state)``: 0 leading whitespace, 1 after the sign, 2 in the digits,
    3 after an underscore, 4 trailing whitespace; accepted in 2 or 4 at the end. (As a regular
    language, mixed with the class functions, ``int(s)`` of ``s.isdigit()`` took Z3 10 s.)"""
    x, q = z3.String("%int_syntax.x"), z3.Int("%int_syntax.q")
    f = z3.RecFunction("%int_syntax", z3.StringSort(), z3.IntSort(), z3.BoolSort())
    code, tail = _head_and_tail(x)
    space, digit = _in_ranges(code, char_classes.int_spaces()), _in_ranges(code, char_classes.int_digits())
    sign = z3.Or(code == ord("+"), code == ord("-"))
    step = z3.If(
        z3.And(q == 0, space),
        0,
        z3.If(
            z3.And(q == 0, sign),
            1,
            z3.If(z3.And(q <= 3, digit), 2, z3.If(z3.And(q == 2, code == ord("_")), 3, z3.If(z3.And(z3.Or(q == 2, q == 4), space), 4, -1))),
        ),
    )
    z3.RecAddDefinition(f, [x, q], z3.If(z3.Length(x) == 0, z3.Or(q == 2, q == 4), z3.And(step >= 0, f(tail, step))))
    return f


# operators whose arguments after the string are Python constants (literals of the program)
_LITERAL_OPS: dict[str, Callable[..., z3.FuncDeclRef]] = {
    "replace": _replace_function,
    "count": _count_function,
    "strip_count": _strip_function,
    "ascii_case": _case_function,
    "re_member": regex_z3.member_function,
}

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
    "eq": lambda a, b: _compare("eq", a, b),
    "lt": lambda a, b: _compare("lt", a, b),
    "le": lambda a, b: _compare("le", a, b),
    "str_lt": lambda a, b: z3.StrLT(a, b) if hasattr(z3, "StrLT") else a < b,
    "str_le": lambda a, b: z3.StrLE(a, b) if hasattr(z3, "StrLE") else a <= b,
    "concat": z3.Concat,
    "len": z3.Length,
    "at": lambda s, i: z3.SubString(s, i, 1),
    "substr": z3.SubString,
    "contains": z3.Contains,
    "prefixof": z3.PrefixOf,
    "suffixof": z3.SuffixOf,
    "indexof": lambda s, sub: z3.IndexOf(s, sub, 0),
    "to_code": z3.StrToCode,
    "from_code": z3.StrFromCode,
    "pow2": _pow2,
    "str_class": lambda s, method: _str_class(s, method.as_string()),
    "str_to_int": z3.StrToInt,
    "int_syntax": lambda s: _int_syntax_function()(s, z3.IntVal(0)),
    "fadd": lambda a, b: z3.fpAdd(_RNE, a, b),
    "fsub": lambda a, b: z3.fpSub(_RNE, a, b),
    "fmul": lambda a, b: z3.fpMul(_RNE, a, b),
    "fdiv": lambda a, b: z3.fpDiv(_RNE, a, b),
    "itruediv": lambda a, b: z3.fpDiv(_RNE, _i2f(a), _i2f(b)),
    "fneg": z3.fpNeg,
    "fabs": z3.fpAbs,
    "fsqrt": lambda a: z3.fpSqrt(_RNE, a),
    "i2f": lambda i: _i2f(i),
    "f2i": _f2i,
    "fisnan": z3.fpIsNaN,
    "fisinf": z3.fpIsInf,
    "fsame": lambda a, b: a == b,  # SMT-LIB's =, not IEEE's
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
            continue
        args = [cache[a] if isinstance(a, Term) else _const(a) for a in t.args]
        inherited = tuple(d for a in t.args if isinstance(a, Term) for d in _definitions.get(a, ()))
        if t.op == "int_str":
            cache[t], own = _int_str(t, args[0])
            inherited = (own,) + inherited
        elif t.op == "re_piece":  # a constant and its definition, as int_str (terms.regex_groups)
            cache[t], own = regex_z3.piece(t, args[0])
            inherited = (own,) + inherited
        elif t.op == "ascii_case" and isinstance(t.args[0], Term) and t.args[0].op == "at":
            cache[t] = _char_case(args[0], str(t.args[1]))  # one character: no unfolding
        elif t.op in _LITERAL_OPS:
            cache[t] = _LITERAL_OPS[t.op](*t.args[1:])(args[0])
        elif t.op == "str_class" and isinstance(t.args[0], Term) and t.args[0].op in ("at", "from_code"):
            cache[t] = _char_in_class(z3.StrToCode(args[0]), str(t.args[1]))
        else:
            cache[t] = _OPS[t.op](*args)
        if inherited:
            _definitions[t] = tuple(dict.fromkeys(inherited))
    return cache[term]


def definitions(terms: Iterable[Term]) -> list[z3.BoolRef]:
    """The definitions of the constants the encodings of ``terms`` introduced (encode them
    first): true of exactly one value of each constant, so asserting them next to any formula
    over the terms keeps its meaning."""
    found: dict[z3.BoolRef, None] = {}
    for term in terms:
        found.update(dict.fromkeys(_definitions.get(term, ())))
    return list(found)


def assertion(term: Term) -> z3.BoolRef:
    """The Bool term ``term`` as a Z3 assertion: its encoding and the definitions it needs."""
    formula = encode(term)
    needed = _definitions.get(term)
    return z3.And(formula, *needed) if needed else formula


def decode(value: z3.ExprRef, sort: str) -> Concrete:
    if sort == INT:
        return int_of_decimal(value.as_string())
    if sort == BOOL:
        return bool(z3.is_true(value))
    if sort == FLOAT:
        return decode_float(value)
    return _decode_string(value)


def decode_float(value: z3.ExprRef) -> float:
    """A Z3 binary64 numeral as the Python float of the same bits (NaN, infinities, -0.0)."""
    assert isinstance(value, z3.FPNumRef)
    if value.isNaN():
        return math.nan
    if value.isInf():
        return -math.inf if value.isNegative() else math.inf
    bits = (int(value.sign()) << 63) | (value.exponent_as_long(True) << 52) | value.significand_as_long()
    return float(struct.unpack("<d", struct.pack("<Q", bits))[0])


def _decode_string(value: z3.ExprRef) -> str:
    if hasattr(value, "as_string"):
        try:
            return "".join(chr(c) for c in _string_codes(value))
        except (ValueError, z3.Z3Exception):
            pass
    return str(value.as_string())


def _string_codes(value: z3.ExprRef) -> list[int]:
    codes: list[int] = []
    length = z3.simplify(z3.Length(value)).as_long()
    for i in range(length):
        code = z3.simplify(z3.StrToCode(z3.SubString(value, i, 1)))
        codes.append(int(code.as_long()))
    return codes
