"""Property test over the example programs: for random concrete inputs, exactly one reported
path condition holds (when exploration is complete; at most one otherwise), and the outcome
predicted for that path is what CPython does with those inputs."""

from __future__ import annotations

import re

import signal
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathloom.api import explore
from pathloom.errors import Unsupported
from pathloom.frontend.module import load_module
from pathloom.options import Options
from pathloom.replay import Observed, json_equal, load, run_one
from pathloom.results import Exploration
from tests.conftest import EXAMPLES, EXAMPLES_UNSUPPORTED
from pathloom.engines.registry import engine_names

OPTIONS = Options(timeout=60)
ENGINES = tuple(engine_names())
INTS = st.one_of(st.integers(-8, 8), st.integers(-200, 200), st.integers(-(10**6), 10**6))
STRS = st.text(alphabet="aeiobxAZ ", max_size=OPTIONS.max_str_len)
_STRATEGIES = {
    "int": INTS,
    "bool": st.booleans(),
    "str": STRS,
    "list[int]": st.lists(st.integers(-4, 4), max_size=OPTIONS.max_list_len),
}


def _cases() -> list[tuple[Path, str, str]]:
    cases = []
    for path in EXAMPLES:
        module = load_module(str(path))
        for target in module.targets():
            for engine in ENGINES:
                cases.append((path, target, engine))
    return cases


_explored: dict[tuple[Path, str, str], Exploration | None] = {}


def _exploration(path: Path, target: str, engine: str) -> Exploration | None:
    key = (path, target, engine)
    if key not in _explored:
        expected = EXAMPLES_UNSUPPORTED.get((path.name, target))
        if expected is None:
            _explored[key] = explore(str(path), target, replace(OPTIONS, engine=engine))
        else:
            with pytest.raises(Unsupported, match=re.escape(expected)):
                explore(str(path), target, replace(OPTIONS, engine=engine))
            _explored[key] = None
    return _explored[key]


def _input_strategy(path: Path, target: str, exploration: Exploration) -> st.SearchStrategy[dict[str, Any]]:
    module = load_module(str(path))
    fields: dict[str, st.SearchStrategy[Any]] = {}
    if "." in target and not target.endswith(".__init__"):
        cls = target.split(".")[0]
        init = module.classes[cls].methods.get("__init__")
        init_params = module.function(init).params[1:] if init else ()
        fields["self"] = st.fixed_dictionaries({p.name: _STRATEGIES[p.annotation or ""] for p in init_params if p.annotation}).map(
            lambda args, cls=cls: {"$new": cls, "args": args}
        )
    for name, annotation in exploration.params:
        if name != "self":
            fields[name] = _STRATEGIES[annotation]
    return st.fixed_dictionaries(fields)


@pytest.mark.parametrize("path,target,engine", _cases(), ids=lambda v: v.name if isinstance(v, Path) else v)
def test_paths_partition_inputs_and_predict_cpython(path: Path, target: str, engine: str) -> None:
    exploration = _exploration(path, target, engine)
    if exploration is None:
        return  # listed in EXAMPLES_UNSUPPORTED, its refusal checked
    module = load(str(path.resolve()))
    signal.signal(signal.SIGALRM, _alarm)

    @settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(_input_strategy(path, target, exploration))
    def check(inputs: dict[str, Any]) -> None:
        holding = [p for p in exploration.paths if exploration.holds(p, inputs)]
        if exploration.complete:
            assert len(holding) == 1, f"{len(holding)} path conditions hold for {inputs}"
        else:
            assert len(holding) <= 1, f"{len(holding)} path conditions hold for {inputs}"
        if not holding or holding[0].outcome not in ("return", "raise"):
            return
        predicted = holding[0]
        observed = Observed(**run_one(module, str(path.resolve()), target, inputs, 5.0))
        if predicted.outcome == "return":
            assert observed.outcome == "return", (inputs, observed)
            expected = exploration.predicted_return(predicted, inputs)
            assert json_equal(expected, observed.returned), (inputs, expected, observed.returned)
        else:
            assert (observed.outcome, observed.exception, observed.line) == ("raise", predicted.exception, predicted.line), inputs

    check()


def _alarm(signum: int, frame: Any) -> None:
    from pathloom.replay import _Timeout

    raise _Timeout()
