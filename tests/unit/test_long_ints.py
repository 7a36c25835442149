"""Ints too long for CPython's decimal text (over ``sys.get_int_max_str_digits()`` digits) in
inputs, returned values and path conditions: written ``{"$int": "0x..."}`` in JSON
(``encoding.values.json_safe``), ``int('0x...', 16)`` in the text report and the generated
tests, read back by the replay. They were an internal error (``ValueError: Exceeds the limit
(4300 digits) for integer string conversion``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pathloom.cli import main
from pathloom.replay import json_equal
from pathloom.encoding.values import decode_input, json_safe
from pathloom.engines.registry import engine_names

SOURCE = """
def big(x: int) -> int:
    if x > 10 ** 5000:
        return x + 1
    if x == 3:
        raise ValueError(x)
    return 0
"""


@pytest.mark.parametrize("engine", engine_names())
def test_a_long_int_input_and_result_are_reported_replayed_and_tested(tmp_path: Path, engine: str) -> None:
    program = tmp_path / "big.py"
    program.write_text(SOURCE)
    out, tests = tmp_path / "big.json", tmp_path / "test_big_generated.py"
    assert main(["explore", f"{program}::big", "--engine", engine, "--verify", "--json", str(out), "--tests", str(tests)]) == 0
    paths = json.loads(out.read_text())["paths"]
    [long] = [p for p in paths if isinstance(p["inputs"]["x"], dict)]
    x = decode_input(long["inputs"]["x"], {})
    assert isinstance(x, int) and x > 10**5000
    assert decode_input(long["returned"], {}) == x + 1
    assert "int('0x" in tests.read_text()
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(tests)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0 and "3 passed" in run.stdout, run.stdout


def test_json_safe_keeps_short_ints_and_compares_long_ones_by_value() -> None:
    value = [1, {"$tuple": [2**20000, 3]}]
    safe = json_safe(value)
    assert safe[0] == 1 and safe[1]["$tuple"][1] == 3 and set(safe[1]["$tuple"][0]) == {"$int"}
    assert json_safe([1, 2]) == [1, 2]
    assert json_equal(2**20000, json_safe(2**20000)) and not json_equal(2**20000, json_safe(2**20000 + 1))


SYLVESTER = """
def sylvester(number: int) -> int:
    assert isinstance(number, int), f"The input value of [n={number}] is not an integer"
    if number == 1:
        return 2
    elif number < 1:
        raise ValueError(f"The input value of [n={number}] has to be > 0")
    num = sylvester(number - 1)
    return (num - 1) * num + 1
"""


@pytest.mark.parametrize("engine", engine_names())
def test_a_product_past_the_int_bound_is_a_reported_cut(tmp_path: Path, engine: str) -> None:
    """Sylvester's sequence doubles its digits at each step: squaring ints of millions of
    digits is one native call no deadline stops (it ran 40 s past --timeout, and the replay
    mismatch message of its result crashed on ``repr``). A product past ``ops.MAX_INT_BITS``
    bits cuts its path, reported; every finished path replays."""
    from pathloom.semantics.ops import MAX_INT_BITS

    program = tmp_path / "syl.py"
    program.write_text(SYLVESTER)
    out = tmp_path / "syl.json"
    assert main(["explore", f"{program}::sylvester", "--engine", engine, "--verify", "--json", str(out), "--quiet", "--timeout", "60"]) == 0
    result = json.loads(out.read_text())
    assert not result["complete"]
    cut = [p for p in result["paths"] if p["outcome"] == "cut" and "bits" in (p["reason"] or "")]
    assert cut and all(f"{MAX_INT_BITS:,} bits" in p["reason"] for p in cut)
    assert any(p["outcome"] == "return" and isinstance(p["returned"], dict) for p in result["paths"])  # past 4,300 digits


def test_a_mismatch_message_shows_a_long_int_in_hex_and_short() -> None:
    from pathloom.replay import SHOWN_CHARS, shown

    text = shown({"x": 10**5000})
    assert text.startswith("{'x': {'$int': '0x") and len(text) == SHOWN_CHARS and text.endswith("...")
    assert shown([1, "a"]) == "[1, 'a']"
