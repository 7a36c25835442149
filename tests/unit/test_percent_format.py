"""``fmt % values`` of a literal format (``semantics.percent_format``): the terms it builds
evaluate to CPython's text for every value tried (Hypothesis), the forms outside the model are
left to CPython (None), and explored in every engine the inputs replay."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pathloom.domain.outcome import Ok, Split
from pathloom.engines.registry import engine_names
from pathloom.semantics.percent_format import format_percent
from pathloom.terms import expr as T
from pathloom.terms.evaluate import evaluate

from .verified import explore_source, python_outcome

N, S = T.sym("n", T.INT), T.sym("s", T.STR)
FORMATS = ["%d", "%i%%", "%5d", "%-5d|", "%05d", "%+d", "% d", "%+06d", "%-05d", "<%s>", "%s=%d", "a%%b%s"]


def _value(outcome: object, env: dict[str, object]) -> object:
    """The text of the outcome's case that holds in ``env`` (the digit limit's split)."""
    while isinstance(outcome, Split):
        outcome = next(o for cond, o in outcome.cases if evaluate(cond, env) is True)  # type: ignore[arg-type]
    assert isinstance(outcome, Ok)
    return evaluate(cast(T.Arg, outcome.value), env)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(FORMATS), st.integers(-(10**6), 10**6), st.text(max_size=4))
def test_the_terms_give_cpythons_text(fmt: str, n: int, s: str) -> None:
    conversions = fmt.replace("%%", "").count("%")
    values: object = (S, N) if fmt == "%s=%d" else (S if "%s" in fmt else N)
    real: object = (s, n) if fmt == "%s=%d" else (s if "%s" in fmt else n)
    assert conversions == (2 if fmt == "%s=%d" else 1)
    outcome = format_percent(None, None, fmt, values)  # type: ignore[arg-type]
    assert outcome is not None
    assert _value(outcome, {"n": n, "s": s}) == fmt % real


@pytest.mark.parametrize(
    ("fmt", "values"),
    [("%.2d", N), ("%x", N), ("%(a)s", N), ("%*d", (3, N)), ("%d %d", N), ("%d", T.sym("f", T.FLOAT)), ("%5s", S), ("%d", True)],
)
def test_other_forms_are_left_to_cpython(fmt: str, values: object) -> None:
    assert format_percent(None, None, fmt, values) is None  # type: ignore[arg-type]


SOURCE = textwrap.dedent("""
    def percent_label(part: int, total: int) -> str:
        if total <= 0 or not 0 <= part <= total:
            return "-"
        text = "%d%%" % (100 * part // total)
        if len(text) > 3:
            return "full"
        return text


    def row(name: str, n: int) -> str:
        s = "%s: %05d|%-4d|%+d" % (name, n, n, n)
        if s.startswith("ab: -"):
            return "neg"
        return s
""")


@pytest.mark.parametrize("engine", engine_names())
@pytest.mark.parametrize("target", ["percent_label", "row"])
def test_percent_formatting_is_explored(tmp_path: Path, engine: str, target: str) -> None:
    result = explore_source(tmp_path, SOURCE, "pct.py", target, engine)
    paths = [p for p in result["paths"] if p["outcome"] == "return"]  # type: ignore[union-attr]
    for p in paths:
        assert p["returned"] == python_outcome(SOURCE, target, p["inputs"]), p
    assert {"full", "neg"} & {p["returned"] for p in paths}
    assert not result["stats"]["concretizations"]  # type: ignore[index]
