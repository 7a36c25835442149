"""Which library calls are analysed through a Python-level model (``pathloom.models.library``).

Job: given a call of a real library function (``math.gcd(a, b)``, ``calendar.isleap(y)``) or a
method of a str (``s.split(",")``), name the model to call instead of running the original in
CPython on pinned values, when the arguments are of the kinds the model is exact for; else None
(the caller concretizes as before). The model is then invoked like an analysed function, so its
branches are explored by whichever engine runs.

Invariant: a model is chosen only for arguments on which it is checked equal to the original
(``models.library``'s invariant): the right count, no keyword the original does not take, and
operand kinds the model is written for (ints for ``gcd``; str receivers and str or None
separators for ``split``). A symbolic value's kind is its sort, so the choice never splits a
path.
"""

from __future__ import annotations

import calendar
import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from pathloom.frontend.linker import library_model
from pathloom.semantics.ops import kind
from pathloom.terms.expr import Term

if TYPE_CHECKING:
    from pathloom.frontend.module import Module

Kwargs = tuple[tuple[str, object], ...]
Accepts = Callable[[tuple[object, ...], Kwargs], bool]


def _ints(n: int) -> Accepts:
    return lambda args, kwargs: not kwargs and len(args) == n and all(kind(a) in ("int", "bool") for a in args)


def _isleap_args(args: tuple[object, ...], kwargs: Kwargs) -> bool:
    values = args + tuple(v for _, v in kwargs)
    return len(values) == 1 and all(k == "year" for k, _ in kwargs) and kind(values[0]) in ("int", "bool")


def _split_args(args: tuple[object, ...], kwargs: Kwargs) -> bool:
    """``split(sep=None, maxsplit=-1)``: sep a str or None, maxsplit an int, each given once."""
    names = ("sep", "maxsplit")
    if len(args) > 2 or any(k not in names or names.index(k) < len(args) for k, _ in kwargs) or len({k for k, _ in kwargs}) != len(kwargs):
        return False
    given = dict(zip(names, args)) | dict(kwargs)
    return kind(given.get("sep")) in ("str", "none") and kind(given.get("maxsplit", -1)) in ("int", "bool")


def _partition_args(args: tuple[object, ...], kwargs: Kwargs) -> bool:
    return not kwargs and len(args) == 1 and kind(args[0]) == "str"


FUNCTIONS: dict[int, tuple[str, Accepts]] = {  # by the id of the (long-lived) original
    id(calendar.isleap): ("isleap", _isleap_args),
    id(math.gcd): ("gcd", _ints(2)),
}

STR_METHODS: dict[str, tuple[str, Accepts]] = {
    "split": ("str_split", _split_args),
    "partition": ("str_partition", _partition_args),
}


def _symbolic(args: tuple[object, ...], kwargs: Kwargs) -> bool:
    """Some operand is a term (on concrete ones CPython's own function is exact and faster)."""
    return any(isinstance(v, Term) for v in args + tuple(v for _, v in kwargs))


def for_function(module: Module, fn: object, args: tuple[object, ...], kwargs: Kwargs) -> str | None:
    """The model's qualname for the call ``fn(*args, **kwargs)``, or None."""
    found = FUNCTIONS.get(id(fn))
    if found is None or not _symbolic(args, kwargs) or not found[1](args, kwargs):
        return None
    return library_model(module, found[0])


def for_str_method(module: Module, receiver: object, name: str, args: tuple[object, ...], kwargs: Kwargs) -> str | None:
    """The model's qualname for ``s.name(*args, **kwargs)`` on a str ``s`` (passed first), or None."""
    found = STR_METHODS.get(name)
    if found is None or not _symbolic((receiver,) + args, kwargs) or not found[1](args, kwargs):
        return None
    return library_model(module, found[0])
