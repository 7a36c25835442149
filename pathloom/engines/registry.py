"""Engine registry: name -> factory (``base.EngineFactory``: a class or function that builds a ``base.Engine``),
imported only when chosen; duplicates are rejected."""

from __future__ import annotations

import importlib
from typing import cast

from pathloom.engines.base import EngineFactory

_ENGINES: dict[str, str] = {}


def register(name: str, path: str) -> None:
    if name in _ENGINES:
        raise ValueError(f"engine {name!r} registered twice")
    _ENGINES[name] = path


def engine_names() -> list[str]:
    return sorted(_ENGINES)


def engine_class(name: str) -> EngineFactory:
    from pathloom.errors import UsageError

    if name not in _ENGINES:
        raise UsageError(f"unknown engine {name!r} (available: {', '.join(engine_names())})")
    module_name, _, attr = _ENGINES[name].partition(":")
    return cast(EngineFactory, getattr(importlib.import_module(module_name), attr))


register("dse", "pathloom.engines.forking:ForkingEngine")
register("multise", "pathloom.engines.multise:MultiSEEngine")
register("compose", "pathloom.engines.compose.engine:ComposeEngine")
