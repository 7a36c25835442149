"""MultiSE restricts its state to the running paths every ``COLLECT_EVERY`` steps
(``MultiSEEngine._collect``). That must change no result: with a collection before *every*
step, random programs still pass every differential check (replay on CPython, partition,
prediction, agreement with DSE). Generated programs return ints, bools and strings; the
values read from heap cells after their paths have ended (returned lists and objects) are
tested on a program of their own below."""

from __future__ import annotations

import os
from pathlib import Path
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathloom.engines import multise

warnings.filterwarnings("ignore", message="There is no reason to use @st.composite")

from .harness import OPEN_BUG_FEATURES, check_program  # noqa: E402
from .progen import programs  # noqa: E402

EXAMPLES = int(os.environ.get("PATHLOOM_COLLECTION_EXAMPLES", "300"))


def test_collecting_before_every_step_changes_no_result(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(multise.limits, "COLLECT_EVERY", 1)
    collected = 0  # programs explored with collections

    @settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def check(data: st.DataObject) -> None:
        nonlocal collected
        program = data.draw(programs(without=frozenset(OPEN_BUG_FEATURES)), label="program")
        report = check_program(program, ("dse", "multise"), 10, draw=data.draw)  # MultiSE's collection only
        assert report.ok, report.describe()
        found = report.explorations.get("multise")
        if found is not None and found.stats["instructions"] > 1:
            assert found.stats["state_collections"] >= found.stats["instructions"] - 1
            collected += 1

    check()
    assert collected > EXAMPLES // 2


HEAP_RESULTS = """
class Box:
    def __init__(self, v: int) -> None:
        self.v = v
        self.items = [v]


def build(xs: list[int], k: int) -> list[int]:
    out = []
    for x in xs:
        if x > k:
            out.append(x - k)
        elif x == k:
            out.append(0)
    return out


def boxed(xs: list[int], k: int) -> Box:
    b = Box(k)
    for x in xs:
        if x < k:
            b.v = b.v + x
            b.items.append(x)
    if b.v > 10:
        raise ValueError(b.v)
    return b
"""


@pytest.mark.parametrize("target", ["build", "boxed"])
def test_returned_lists_and_objects_replay_after_collecting_at_every_step(target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Returned lists and objects are encoded from heap cells once exploration is over; the
    cells keep the values of the paths that returned them through every collection."""
    from pathloom.api import explore
    from pathloom.compare import agree
    from pathloom.frontend.module import load_module
    from pathloom.options import Options
    from pathloom.replay import verify

    source = tmp_path / "heap_results.py"
    source.write_text(HEAP_RESULTS)
    options = Options(engine="multise", max_list_len=3, max_iterations=4)
    monkeypatch.setattr(multise.limits, "COLLECT_EVERY", 1)
    collected = explore(load_module(str(source)), target, options)
    monkeypatch.setattr(multise.limits, "COLLECT_EVERY", 10**9)
    uncollected = explore(load_module(str(source)), target, options)

    assert collected.stats["state_collections"] >= collected.stats["instructions"] - 1
    assert uncollected.stats["state_collections"] == 0
    assert any(isinstance(p.returned, (list, dict)) for p in collected.paths)
    assert verify(collected, str(source), target) == []
    assert agree(collected, uncollected) == []
