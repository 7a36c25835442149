"""Typed engine statistics: each engine returns its own class (dse ``ForkingStats``, multise
``MultiSEStats``, compose ``ComposeStats``); ``as_dict`` is every field by name (the JSON
``stats``), which also reads as a mapping; the text reporter's MultiSE line follows the type."""

from __future__ import annotations

import io
import json

import pytest

from pathloom.api import explore
from pathloom.engine_stats import EngineStats, ForkingStats, MultiSEStats
from pathloom.engines.compose.stats import ComposeStats
from pathloom.frontend.module import parse_module
from pathloom.options import Options
from pathloom.report.text import TextReporter

SOURCE = """
def f(x: int) -> int:
    if x > 3:
        return 1
    return 0
"""

EXPECTED = {"dse": ForkingStats, "multise": MultiSEStats, "compose": ComposeStats}


@pytest.mark.parametrize("engine", sorted(EXPECTED))
def test_each_engine_returns_its_stats_class(engine: str) -> None:
    result = explore(parse_module(SOURCE, "prog.py"), "f", Options(engine=engine))
    stats = result.stats
    assert type(stats) is EXPECTED[engine]
    assert stats.branches_covered == stats.branches_total == 2
    as_dict = stats.as_dict()
    assert json.loads(json.dumps(as_dict)) == as_dict
    assert as_dict["paths"] == stats["paths"] == stats.paths
    assert list(stats) == list(as_dict) and len(stats) == len(as_dict)
    with pytest.raises(KeyError):
        stats["no_such_counter"]
    out = io.StringIO()
    TextReporter(out).finish(result)
    assert ("multise: solver" in out.getvalue()) == (engine == "multise")
    assert ("results (paths merged by outcome)" in out.getvalue()) == (engine == "multise")


def test_field_order_is_base_first() -> None:
    names = list(ForkingStats().as_dict())
    assert names[: len(EngineStats().as_dict())] == list(EngineStats().as_dict())
    assert names[-2:] == ["traces", "program_paths"]
