"""Binding a call's arguments to the parameters of an analysed function, as CPython does.

Invariant: ``bind`` follows CPython's own algorithm (``initialize_locals`` in
``Python/ceval.c``, 3.11) step by step, so that both the bound values and the first error, with
CPython's exact TypeError message, are CPython's: the positional arguments fill the positional
parameters in order, the rest go to ``*args`` as a tuple; then each keyword, in call order,
fills the positional-or-keyword or keyword-only parameter of its name, or goes into the
``**kwargs`` dict (a new dict, in call order), or is an error (a positional-only parameter's
name given as a keyword, an unknown name, a parameter already filled); then too many
positionals is an error; then the positional defaults fill the rest, the missing positionals
are an error, the keyword-only defaults fill theirs and the missing keyword-only ones are an
error. Parameters come in the order of ``ir.Param``; the captures of a closure are never
passed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pathloom.domain.outcome import Ok, Outcome, RuntimeUnsupported, throw
from pathloom.domain.values import DictRec, Ref
from pathloom.semantics.heapview import HeapView
from pathloom.semantics.unpacking import python_qualname

if TYPE_CHECKING:
    from pathloom.frontend.ir import Param
    from pathloom.frontend.module import Module

Kwargs = tuple[tuple[str, object], ...]
_UNSET = object()


def bind(
    module: Module, qualname: str, args: tuple[object, ...], kwargs: Kwargs, heap: HeapView | None = None
) -> tuple[Outcome, tuple[tuple[Ref, DictRec], ...]]:
    """``(Ok(the values of the parameters, in order), the new **kwargs dict's write)``, or
    (the TypeError CPython raises, ()). ``heap`` allocates the ``**kwargs`` dict (a function
    with one called without a heap, by an operator, is unsupported)."""
    function = module.function(qualname)
    params = function.params[: len(function.params) - len(function.captures)]  # captures are not passed
    name = python_qualname(qualname)
    positional = [p for p in params if p.kind in ("", "posonly")]
    star = next((p for p in params if p.kind == "*"), None)
    double = next((p for p in params if p.kind == "**"), None)
    values: dict[str, object] = {p.name: _UNSET for p in params}
    for p, a in zip(positional, args):
        values[p.name] = a
    if star is not None:
        values[star.name] = tuple(args[len(positional) :])
    by_keyword = {p.name for p in params if p.kind in ("", "kwonly")}
    extra: list[tuple[str, object]] = []
    for key, value in kwargs:
        if key not in by_keyword:
            if double is None:
                return _misplaced_keyword(name, params, kwargs, key), ()
            extra.append((key, value))
        elif values[key] is not _UNSET:
            return throw("TypeError", f"{name}() got multiple values for argument '{key}'"), ()
        else:
            values[key] = value
    if len(args) > len(positional) and star is None:
        return throw("TypeError", _too_many_positional(name, params, len(args), values)), ()
    missing = [p.name for p in positional if values[p.name] is _UNSET and p.default is None]
    if missing:
        return _missing(name, missing, "positional"), ()
    for p in params:
        if values[p.name] is _UNSET and p.default is not None and p.kind in ("", "posonly"):
            values[p.name] = p.default.value  # type: ignore[union-attr]
    missing = [p.name for p in params if p.kind == "kwonly" and values[p.name] is _UNSET and p.default is None]
    if missing:
        return _missing(name, missing, "keyword-only"), ()
    for p in params:
        if values[p.name] is _UNSET and p.default is not None:
            values[p.name] = p.default.value  # type: ignore[union-attr]
    writes: tuple[tuple[Ref, DictRec], ...] = ()
    if double is not None:
        if heap is None:
            raise RuntimeUnsupported(f"a call of {name}(), which takes **{double.name}, made by an operator")
        ref = heap.fresh()
        writes = ((ref, DictRec(tuple(k for k, _ in extra), tuple(v for _, v in extra))),)
        values[double.name] = ref
    return Ok(tuple(values[p.name] for p in params)), writes


def _misplaced_keyword(name: str, params: tuple[Param, ...], kwargs: Kwargs, key: str) -> Outcome:
    """The keyword ``key`` no parameter takes: positional-only names given as keywords (all
    of them, in the parameters' order) if any, else ``key`` itself."""
    given = {k for k, _ in kwargs}
    posonly = [p.name for p in params if p.kind == "posonly" and p.name in given]
    if posonly:
        return throw("TypeError", f"{name}() got some positional-only arguments passed as keyword arguments: '{', '.join(posonly)}'")
    return throw("TypeError", f"{name}() got an unexpected keyword argument '{key}'")


def _too_many_positional(name: str, params: tuple[Param, ...], given: int, values: dict[str, object]) -> str:
    positional = [p for p in params if p.kind in ("", "posonly")]
    with_default = sum(1 for p in positional if p.default is not None)
    if with_default:
        takes, plural = f"from {len(positional) - with_default} to {len(positional)}", "s"
    else:
        takes, plural = str(len(positional)), "" if len(positional) == 1 else "s"
    keyword_only = sum(1 for p in params if p.kind == "kwonly" and values[p.name] is not _UNSET)
    if keyword_only:
        s, ks = "" if given == 1 else "s", "" if keyword_only == 1 else "s"
        return (
            f"{name}() takes {takes} positional argument{plural} but {given} positional argument{s} (and {keyword_only} keyword-only argument{ks}) were given"
        )
    verb = "was" if given == 1 else "were"
    return f"{name}() takes {takes} positional argument{plural} but {given} {verb} given"


def _missing(name: str, missing: list[str], kind: str) -> Outcome:
    plural = "s" if len(missing) > 1 else ""
    return throw("TypeError", f"{name}() missing {len(missing)} required {kind} argument{plural}: {_name_list(missing)}")


def _name_list(names: list[str]) -> str:
    quoted = [f"'{n}'" for n in names]
    if len(quoted) == 1:
        return quoted[0]
    if len(quoted) == 2:
        return f"{quoted[0]} and {quoted[1]}"
    return ", ".join(quoted[:-1]) + f", and {quoted[-1]}"
