"""Enum-typed inputs: a parameter annotated with an ``enum.Enum`` class of the target module
(``IntEnum``, ``StrEnum`` and ``auto()`` values too) is one of the class's members, chosen by
the solver like a union's member.

Job: ``enum_class`` tells such an annotation; ``enum_input`` makes the input: a chain of
``InputChoice`` over the members in definition order (aliases are their canonical member),
each alternative the real member as the analysed code sees a module-level member
(``from_runtime``), chosen by the Bool flags ``name.is_<MEMBER>`` of all members but the last;
reported ``{"$enum": "Color", "member": "RED"}``, which the replay and the generated tests pass
as ``Color.RED`` of the real module.

Invariant: every value of the annotation is among the alternatives, so the exploration covers
the type: a ``Flag`` class (whose members combine into values that are no member) and a class
with no members are unsupported; the members are the real class's, read after the module ran.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

from pathloom.domain.values import from_runtime
from pathloom.engines.entry import InputChoice  # entry imports this module when it meets an Enum annotation
from pathloom.frontend import ir
from pathloom.frontend.module import Module
from pathloom.terms import expr as T
from pathloom.terms.expr import BOOL


def enum_class(module: Module, annotation: str) -> type[enum.Enum] | None:
    """The Enum class of the real module the annotation names, else None."""
    if not annotation.isidentifier() or annotation in module.classes or not module.has_runtime(annotation):
        return None
    value = module.runtime_value(annotation)
    return value if isinstance(value, type) and issubclass(value, enum.Enum) else None


def enum_param(module: Module, param: ir.Param, name: str) -> tuple[object, Callable[[dict[str, Any]], Any], Callable[[Any], dict[str, Any]]] | None:
    """The input of an Enum-annotated parameter (``enum_input``), None for another annotation;
    ``Unsupported`` at the parameter for an Enum whose members are not all its values."""
    cls = enum_class(module, param.annotation or "")
    if cls is None:
        return None
    why = unsupported_enum(cls)
    if why is not None:
        raise module.unsupported_at(param.line, param.col, why)
    return enum_input(cls, name)


def unsupported_enum(cls: type[enum.Enum]) -> str | None:
    """Why inputs of ``cls`` cannot be all its members, else None."""
    if issubclass(cls, enum.Flag):
        return f"input of type {cls.__name__}, a Flag (its members combine into values that are no member)"
    if not list(cls):
        return f"input of type {cls.__name__}, an Enum with no members"
    return None


def enum_input(cls: type[enum.Enum], name: str) -> tuple[object, Callable[[dict[str, Any]], Any], Callable[[Any], dict[str, Any]]]:
    """The symbolic input ``name`` of Enum class ``cls``, how a model decodes to its JSON
    form, and how that form encodes back to the flags."""
    members = list(cls)
    flags = [f"{name}.is_{m.name}" for m in members[:-1]]
    value: object = from_runtime(members[-1])
    for flag, member in reversed(list(zip(flags, members))):
        value = InputChoice(T.sym(flag, BOOL), from_runtime(member), value)

    def decode(model: dict[str, Any]) -> dict[str, Any]:
        chosen = next((m for flag, m in zip(flags, members) if model.get(flag, False)), members[-1])
        return {"$enum": cls.__name__, "member": chosen.name}

    def encode(v: Any) -> dict[str, Any]:
        index = [m.name for m in members].index(v["member"])
        return {flag: j == index for j, flag in enumerate(flags[: index + 1])}

    return value, decode, encode
