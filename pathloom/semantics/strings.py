"""Symbolic models of ``str`` methods and of ``int(s)``: ``startswith``, ``endswith``, ``find``,
``index``, ``zfill``, the character-class tests (``isdigit``, ``isdecimal``, ``isnumeric``,
``isalpha``, ``isalnum``, ``isspace``, ``isascii``, ``islower``, ``isupper``: one ``str_class``
term over CPython's own tables, see ``terms.char_classes``), ``replace`` and ``count`` of
literals (``old``/``sub`` not empty), ``strip``/``lstrip``/``rstrip`` (whitespace or a literal
set of characters), ``lower``/``upper``, ``int(s)`` in base 10 and ``format`` of an int with a
width, sign and fill spec (``terms.str_ops``).

Each is exact for every str (non-ASCII included): one term over the receiver and its argument
(Z3's ``str.prefixof``, ``str.suffixof`` and ``str.indexof`` from 0, whose meaning is Python's,
the empty string included; the terms are checked against both in ``tests/unit/test_terms.py``
and ``tests/unit/test_str_symbolic.py``). ``startswith``/``endswith`` take a str or a tuple of
strs (any of them); ``index`` is ``find`` with CPython's ValueError where ``find`` gives -1;
``zfill`` takes a concrete width. Where the model departs it splits the path instead of
guessing: ``int(s)`` is symbolic on ``[+-]?[0-9]+`` (the value) and on strings that are not
CPython's int syntax (the ValueError), and runs in CPython on pinned values on the rest
(whitespace, underscores, non-ASCII digits, strings past the limit on digits); ``lower`` and
``upper`` are symbolic on ASCII strings (``isascii``) and CPython's on pinned values on the
others (Unicode case mappings change lengths: ``"ß".upper()`` is ``"SS"``). ``split`` is not
modelled (a list of symbolic length). Start and end
arguments, keyword arguments, symbolic widths and arguments of other types return None: the
caller runs CPython's method on pinned values (concretization), which also gives CPython's
TypeError for a wrong argument.

Invariant: a model here answers only with what CPython's method returns or raises.
"""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, cast

from pathloom.semantics.concretize import run_concretely
from pathloom.semantics.heapview import HeapView
from pathloom.semantics.ops import kind
from pathloom.domain.outcome import Ok, Outcome, Throw, split, throw
from pathloom.domain.values import ExcVal, Message
from pathloom.terms import char_classes
from pathloom.terms import expr as T
from pathloom.terms import str_ops as SO
from pathloom.terms.expr import Arg

if TYPE_CHECKING:
    from pathloom.frontend.module import Module

Kwargs = tuple[tuple[str, object], ...]
MAX_WIDTH = 4096  # the widest zfill and format width modelled (a constant of that many fill characters)


def call_method(module: Module, heap: HeapView, s: object, name: str, args: tuple[object, ...], kwargs: Kwargs) -> Outcome | None:
    """``s.name(*args)`` for the str ``s``, modelled; else None."""
    if isinstance(s, T.Term) and not kwargs:
        edited = _edit(module, heap, s, name, args)
        if edited is not None:
            return edited
    if not args and not kwargs and name in char_classes.METHODS and isinstance(s, T.Term):
        if name in ("islower", "isupper") and char_classes.case_sets(name) is None:
            return None
        return Ok(T.str_class(s, name))
    if kwargs or len(args) != 1:
        return None
    arg = args[0]
    if name in ("startswith", "endswith"):
        parts = arg if isinstance(arg, tuple) else (arg,)
        if not parts and isinstance(arg, tuple):
            return Ok(False)  # "".startswith(()) is False
        if any(kind(p) != "str" for p in parts):
            return None
        test = T.prefix_of if name == "startswith" else T.suffix_of
        found: Arg = False
        for part in parts:  # each a str or Str term, as s
            found = T.or_(found, test(cast(Arg, part), cast(Arg, s)))
        return Ok(found)
    if name == "zfill" and kind(arg) in ("int", "bool") and not isinstance(arg, T.Term) and int(cast(int, arg)) <= MAX_WIDTH:
        return Ok(zfill(cast(Arg, s), int(cast(int, arg))))
    if name in ("find", "index") and kind(arg) == "str":
        at = T.index_of(cast(Arg, s), cast(Arg, arg))  # strs or Str terms
        if name == "find":
            return Ok(at)
        missing = T.eq(at, -1)
        return split([(missing, throw("ValueError", "substring not found")), (T.not_(missing), Ok(at))])
    return None


def zfill(s: Arg, width: int) -> Arg:
    """``s.zfill(width)``: zeros after a leading sign (``+`` or ``-``), before the rest, up to
    ``width`` characters (``s`` itself when it is that long). ``substr`` of a constant of
    ``width`` zeros with a count ``width - len(s)`` is the zeros, empty when not positive."""
    size = T.str_len(s)
    zeros = T.substr("0" * width, 0, T.sub(width, size))
    signed = T.or_(T.prefix_of("-", s), T.prefix_of("+", s))
    after_sign = T.concat(T.concat(T.substr(s, 0, 1), zeros), T.substr(s, 1, T.sub(size, 1)))
    return T.ite(signed, after_sign, T.concat(zeros, s))


_SIGNS_AND_DIGITS = frozenset("+-0123456789")


def int_of_str(module: Module, heap: HeapView, s: Arg) -> Outcome:
    """``int(s)`` of a symbolic str, in base 10: three cases, pairwise disjoint.

    - ``s`` is an optional sign and ASCII digits (``[+-]?[0-9]+``), at most
      ``sys.get_int_max_str_digits()`` characters: its value, ``str.to_int`` of the digits;
    - ``s`` is not CPython's int syntax (``SO.int_syntax``), at most that long: CPython's
      ValueError, its message the repr of ``s`` cut at 200 characters (``%.200R``);
    - the rest (whitespace, underscores, non-ASCII digits; longer strings, which may raise the
      limit's ValueError first): CPython's ``int`` on pinned values (concretization). When
      ``s`` is built from ``str`` of ints and literals of signs and ASCII digits
      (``SO.alphabet``), this is only the long strings."""
    limit = sys.get_int_max_str_digits()
    size = T.str_len(s)
    longest = SO.max_length(s)
    short = T.le(size, limit) if limit and (longest is None or longest > limit) else True
    negative, positive = T.prefix_of("-", s), T.prefix_of("+", s)
    unsigned = T.ite(T.or_(negative, positive), T.substr(s, 1, T.sub(size, 1)), s)
    digits = SO.str_to_int(unsigned)
    chars = SO.alphabet(s)
    if chars is not None and chars <= _SIGNS_AND_DIGITS:
        # no whitespace, underscore or other digit: short, it is plain or else invalid, and
        # the int syntax need not be asked (Z3 could not refute either other case for
        # ``str(n)[::-1]``, and spent the run there)
        digits_only = T.and_(T.lt(0, T.str_len(unsigned)), T.and_(T.not_(T.contains(unsigned, "-")), T.not_(T.contains(unsigned, "+"))))
        plain = T.and_(short, digits_only)
        invalid = T.and_(short, T.not_(digits_only))
        rest: Arg = T.not_(short)
    else:
        plain = T.and_(short, T.le(0, digits))
        invalid = T.and_(short, T.not_(SO.int_syntax(s)))
        rest = T.and_(T.not_(plain), T.not_(invalid))
    message = Message("invalid literal for int() with base 10: {!r:.200}", (s,))
    return split(
        [
            (plain, Ok(T.ite(negative, T.neg(digits), digits))),
            (invalid, Throw(ExcVal("ValueError", (message,)))),
            (rest, run_concretely(module, heap, "int()", int, (s,), where=rest)),
        ]
    )


# ``format`` of an int: [[fill]align][sign][0][width][d], the forms modelled (others: None)
_INT_SPEC = re.compile(r"(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ])?(?P<zero>0)?(?P<width>[1-9][0-9]*)?d?", re.DOTALL)


def format_int(n: Arg, text: Arg, spec: str) -> Arg | None:
    """``format(n, spec)`` of an int ``n`` whose ``str`` is ``text``, for the specs of
    ``_INT_SPEC`` (width at most ``MAX_WIDTH``); None for the others. The sign (``-``, or
    ``+``/space when asked) and the digits are padded with the fill (a space; ``0`` after
    the sign with the ``0`` flag and no alignment) to the width: on the left (``>``, the
    default), on the right (``<``), between sign and digits (``=``) or around (``^``, the
    smaller half on the left)."""
    found = _INT_SPEC.fullmatch(spec)
    if found is None or int(found["width"] or 0) > MAX_WIDTH:
        return None
    negative = T.lt(n, 0)
    digits = T.ite(negative, T.substr(text, 1, T.sub(T.str_len(text), 1)), text)
    sign = T.ite(negative, "-", {"+": "+", " ": " "}.get(found["sign"] or "", ""))
    if not found["width"]:
        return T.concat(sign, digits)
    width = int(found["width"])
    fill = found["fill"] or ("0" if found["zero"] else " ")
    align = found["align"] or ("=" if found["zero"] else ">")
    pad = T.sub(width, T.add(T.str_len(sign), T.str_len(digits)))

    def fills(count: Arg) -> Arg:
        return T.substr(fill * width, 0, count)

    if align == ">":
        return T.concat(fills(pad), T.concat(sign, digits))
    if align == "<":
        return T.concat(T.concat(sign, digits), fills(pad))
    if align == "=":
        return T.concat(sign, T.concat(fills(pad), digits))
    left = T.floordiv(pad, 2)
    return T.concat(T.concat(fills(left), T.concat(sign, digits)), fills(T.sub(pad, left)))


def _literal(arg: object) -> str | None:
    return arg if isinstance(arg, str) else None


def _edit(module: Module, heap: HeapView, s: T.Term, name: str, args: tuple[object, ...]) -> Outcome | None:
    """``replace``/``count`` of literals, ``strip``/``lstrip``/``rstrip`` (whitespace or a
    literal set of characters), ``lower``/``upper`` (symbolic on ASCII strings, CPython's on
    pinned values for the others); None for other forms."""
    if name == "replace" and len(args) == 2 and _literal(args[0]) and _literal(args[1]) is not None:
        return Ok(SO.replace(s, cast(str, args[0]), cast(str, args[1])))
    if name == "count" and len(args) == 1 and _literal(args[0]):
        return Ok(SO.count(s, cast(str, args[0])))
    if name in ("strip", "lstrip", "rstrip") and (not args or (len(args) == 1 and (args[0] is None or isinstance(args[0], str)))):
        chars = cast(str, args[0]) if args and args[0] is not None else ""
        if args and chars == "":
            return Ok(s)  # stripping no character
        return Ok(strip(s, name, chars))
    if name in ("lower", "upper") and not args:
        ascii_ = T.str_class(s, "isascii")
        rest = T.not_(ascii_)
        method = str.lower if name == "lower" else str.upper
        return split([(ascii_, Ok(SO.ascii_case(s, name))), (rest, run_concretely(module, heap, f"str.{name}()", method, (s,), where=rest))])
    return None


def strip(s: Arg, name: str, chars: str) -> Arg:
    """``s.strip(chars)`` (``lstrip``, ``rstrip``): the characters of ``chars`` (whitespace
    for "") counted from each end removed (``SO.strip_count``)."""
    if name != "rstrip":
        lead = SO.strip_count(s, "l", chars)
        s = T.substr(s, lead, T.sub(T.str_len(s), lead))
    if name != "lstrip":
        s = T.substr(s, 0, T.sub(T.str_len(s), SO.strip_count(s, "r", chars)))
    return s
