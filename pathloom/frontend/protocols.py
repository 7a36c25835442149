"""The calls CPython makes for ``len(obj)``, ``bool(obj)``, ``x in obj`` and ``a != b`` on an
instance of an analysed class, written as small IR functions, so that the user's ``__len__``,
``__bool__``, ``__contains__`` and ``__eq__`` run symbolically in every engine and the value
they return is checked as CPython checks it:

- ``<len C>(obj)``: ``r = obj.__len__()``, then ``%as_length(r)`` (an int or bool, at least 0
  and at most ``sys.maxsize``; otherwise CPython's TypeError, ValueError or OverflowError);
- ``<truth C>(obj)``: ``obj.__bool__()`` must return a bool (else ``TypeError: __bool__ should
  return bool, returned int``); a class with ``__len__`` and no ``__bool__`` is true when its
  checked length is not 0;
- ``<not C>(obj)``: the negated truth, for ``not obj``;
- ``<in C>(obj, x)`` / ``<not in C>``: the truth of ``obj.__contains__(x)`` (negated);
- ``<!= C>(a, b)``: ``not a.__eq__(b)``, what ``object.__ne__`` does when ``__eq__`` answers.

Invariant: each function is built once per class and kind, owns no line of its own
(``foreign_file`` is the target file, so an exception raised by the checks is reported at the
line of the ``len``/``bool``/``in``/``!=`` that called it, where CPython's traceback shows
it), and is registered in ``Module`` as already lowered. The semantics decides when to call
them (``semantics.ops``, ``semantics.builtins``): only when the dunder is an analysed method.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pathloom.frontend import ir
from pathloom.frontend.ir import Const, Var

if TYPE_CHECKING:
    from pathloom.frontend.module import Module

KINDS = ("len", "truth", "not", "in", "not in", "!=")


def protocol_function(module: Module, kind: str, cls: str) -> str:
    """The qualname of ``kind``'s IR function for instances of ``cls``, built on first use."""
    from pathloom.domain.values import BuiltinVal

    qualname = f"<{kind} {cls}>"
    if module.is_lowered(qualname):
        return qualname
    info = module.classes[cls]
    loc = ir.Loc(info.line, 1)
    block = ir.Block(0)
    emit = block.instrs.append
    params = ("obj", "other") if kind in ("in", "not in", "!=") else ("obj",)
    if kind == "len" or (kind in ("truth", "not") and "__bool__" not in info.methods):
        emit(ir.CallMethod("%1", Var("obj"), "__len__", (), (), loc))
        emit(ir.Call("%2", Const(BuiltinVal("%as_length")), (Var("%1"),), (), loc))
        if kind != "len":
            emit(ir.Compare("%3", "==" if kind == "not" else "!=", Var("%2"), Const(0), loc))
        result = "%2" if kind == "len" else "%3"
    elif kind in ("truth", "not"):
        emit(ir.CallMethod("%1", Var("obj"), "__bool__", (), (), loc))
        emit(ir.Call("%2", Const(BuiltinVal("%bool_result")), (Var("%1"),), (), loc))
        result = "%2"
        if kind == "not":
            emit(ir.UnaryOp("%3", "not", Var("%2"), loc))
            result = "%3"
    else:
        method, receiver, argument = ("__eq__", "obj", "other") if kind == "!=" else ("__contains__", "obj", "other")
        emit(ir.CallMethod("%1", Var(receiver), method, (Var(argument),), (), loc))
        emit(ir.Truth("%2", Var("%1"), loc))
        result = "%2"
        if kind in ("not in", "!="):
            emit(ir.UnaryOp("%3", "not", Var("%2"), loc))
            result = "%3"
    block.terminator = ir.Return(Var(result), loc)
    function = ir.Function(
        qualname,
        kind,
        tuple(ir.Param(p, None, None, info.line, 1) for p in params),
        {0: block},
        0,
        info.line,
        1,
        None,
        module.filename,
    )
    module.register_lowered(function)
    return qualname
