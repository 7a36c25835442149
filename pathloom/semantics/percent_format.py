"""``fmt % values`` of a literal format string, built from terms instead of run in CPython.

Job: the printf-style formatting of ``str`` (``"%d%%" % n``, ``"%s: %05d" % (name, n)``) when
the format is a concrete str whose conversions are all ``%s`` (no flags, width or precision)
and ``%d``/``%i`` (flags ``-``, ``+``, space and ``0``, a width), and each value is of the kind
the conversion is modelled for: ``%s`` of a str, int or bool (``builtins.text_of``), ``%d`` of
an int (not a bool: ``"%d" % True`` is ``'1'``, which ``format`` of the int would not give).
``%d`` with flags and width is ``format(n, spec)`` of the matching spec (``-`` is ``<``
alignment and overrides ``0``; ``0`` zero-pads after the sign; ``+``/space the sign), which
``strings.format_int`` builds. Anything else (a mapping key ``%(name)s``, ``*`` widths, other
conversions, a count of values that does not match, a float, a list operand) returns None: the
caller runs CPython's operator on pinned values, which also gives its TypeErrors.

Invariant: a returned outcome is what CPython's ``fmt % values`` gives for every value of the
operands' symbols (``tests/unit/test_percent_format.py`` checks it against CPython).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from pathloom.domain.outcome import Ok, Outcome, map_ok
from pathloom.semantics import builtins as B
from pathloom.semantics import strings as STRS
from pathloom.semantics.heapview import HeapView
from pathloom.semantics.ops import kind
from pathloom.terms import expr as T
from pathloom.terms.expr import INT, Arg, Term

if TYPE_CHECKING:
    from pathloom.frontend.module import Module

_CONVERSION = re.compile(r"%(?P<flags>[-+ 0]*)(?P<width>[1-9][0-9]*)?(?P<type>[sdi%])")


def _pieces(fmt: str) -> list[str | tuple[str, str, str]] | None:
    """The literal texts and the conversions (flags, width, type) of ``fmt``; None when it has
    a conversion outside the modelled ones."""
    pieces: list[str | tuple[str, str, str]] = []
    pos = 0
    while True:
        start = fmt.find("%", pos)
        if start < 0:
            pieces.append(fmt[pos:])
            return pieces
        found = _CONVERSION.match(fmt, start)
        if found is None:
            return None
        flags, width, conv = found["flags"], found["width"] or "", found["type"]
        if conv == "%" and (flags or width):
            return None
        if conv == "s" and (flags or width):
            return None
        pieces.append(fmt[pos:start])
        pieces.append("%" if conv == "%" else (flags, width, conv))
        pos = found.end()


def _int_spec(flags: str, width: str) -> str:
    """The ``format`` spec of ``%<flags><width>d``."""
    align = "<" if "-" in flags else ""
    sign = "+" if "+" in flags else (" " if " " in flags else "")
    zero = "0" if "0" in flags and not align else ""
    return f"{align}{sign}{zero}{width}d"


def format_percent(module: Module, heap: HeapView, fmt: str, values: object) -> Outcome | None:
    """``fmt % values`` (see the module docstring), or None: not modelled."""
    pieces = _pieces(fmt)
    if pieces is None:
        return None
    conversions = [p for p in pieces if isinstance(p, tuple)]
    items = values if isinstance(values, tuple) else (values,)
    if len(items) != len(conversions):
        return None
    parts: list[Outcome] = []
    remaining = iter(items)
    for piece in pieces:
        if isinstance(piece, str):
            parts.append(Ok(piece))
            continue
        flags, width, conv = piece
        value = next(remaining)
        if conv == "s":
            if kind(value) not in ("str", "int", "bool"):
                return None
            text = B.text_of(module, heap, value)
            if text is None:
                return None
            parts.append(text)
        else:
            if kind(value) != "int":
                return None
            spec = _int_spec(flags, width)
            if isinstance(value, int):
                parts.append(Ok(format(value, spec)))
                continue
            term = cast(Term, value)
            if term.sort != INT or STRS.format_int(term, "", spec) is None:
                return None
            parts.append(map_ok(B.int_text(term), _int_formatter(term, spec)))
    return _joined(parts)


def _int_formatter(term: Term, spec: str) -> Callable[[Ok], Outcome]:
    """From the text of ``term`` to ``format(term, spec)``."""
    return lambda text: Ok(STRS.format_int(term, cast(Arg, text.value), spec))


def _appender(done: Ok) -> Callable[[Ok], Outcome]:
    """From a text to the text ``done`` gave followed by it."""
    return lambda text: Ok(T.concat(cast(Arg, done.value), cast(Arg, text.value)))


def _joined(parts: list[Outcome]) -> Outcome:
    """The concatenation of the texts the outcomes give (each may split, e.g. on the limit on
    digits: every combination of cases, in order)."""
    result: Outcome = Ok("")
    for part in parts:
        result = map_ok(result, _then_append(part))
    return result


def _then_append(part: Outcome) -> Callable[[Ok], Outcome]:
    return lambda done: map_ok(part, _appender(done))
