"""The driver of an entry: how it calls the target on values built from the inputs.

A target whose parameters are all inputs is entered directly (the engines bind the inputs to
its parameters); a method, a constructor, or a function with a parameter that its class's
constructor builds (``Constructed``) is explored through a small driver function whose
parameters are the inputs, which builds those objects and calls the target. Invariant: the
driver's call passes every parameter as CPython's binding expects it: keyword-only
parameters by keyword, the others by position (``call_operands``), so the call binds exactly as
the replay's and the generated tests' calls do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pathloom.frontend import ir


@dataclass(frozen=True)
class Constructed:
    """A parameter the entry's driver builds as ``cls(*params)`` from symbolic constructor
    arguments (``values``, the driver's parameters ``params``, named ``<name>.<arg>``)."""

    cls: str
    params: tuple[ir.Param, ...]
    values: tuple[object, ...]


def with_constructions(params: Sequence[ir.Param], args: Sequence[object], loc: ir.Loc) -> tuple[list[ir.Param], list[object], list[ir.Call]]:
    """The driver's parameters and arguments for ``params`` taking ``args``, and the calls
    that build the ``Constructed`` ones into locals named after their parameters."""
    driver_params: list[ir.Param] = []
    driver_args: list[object] = []
    builds: list[ir.Call] = []
    for p, a in zip(params, args):
        if isinstance(a, Constructed):
            driver_params += a.params
            driver_args += a.values
            builds.append(ir.Call(p.name, ir.Global(a.cls), *call_operands(a.params), loc))
        else:
            driver_params.append(p)
            driver_args.append(a)
    return driver_params, driver_args, builds


def call_operands(params: Sequence[ir.Param]) -> tuple[tuple[ir.Operand, ...], tuple[tuple[str, ir.Operand], ...]]:
    """The arguments of a driver's call that passes each of ``params`` its local of the same
    name (a driver's parameter ``<prefix>.<name>`` passes ``name``): keyword-only parameters
    by keyword, the others by position."""
    args = tuple(ir.Var(p.name) for p in params if p.kind != "kwonly")
    kwargs = tuple((p.name.rpartition(".")[2], ir.Var(p.name)) for p in params if p.kind == "kwonly")
    return args, kwargs
