"""Regular expressions with literal patterns: validation, extraction, substitution.

A quality-corpus module (see benchmarks/quality_corpus.py): every top-level function is a
target; an assert marked ``# BUG: what (witness)`` fails for the witness input.
"""

import re


def is_zip_code(s: str) -> bool:
    assert len(s) <= 10
    ok = re.fullmatch(r"\d{5}", s) is not None
    assert not ok or len(s) == 5
    return ok


def extract_numbers(text: str) -> list[int]:
    assert len(text) <= 20
    numbers = [int(m) for m in re.findall(r"-?\d+", text)]
    assert all(n >= 0 for n in numbers)  # BUG: the pattern accepts a minus sign (text='-1')
    return numbers


def hex_value(s: str) -> int:
    assert 1 <= len(s) <= 6
    if re.fullmatch(r"[0-9a-fA-F]+", s) is None:
        raise ValueError(f"not hex: {s!r}")
    value = int(s, 16)
    assert 0 <= value < 16 ** len(s)
    return value


def username_ok(name: str) -> bool:
    assert len(name) <= 12
    ok = re.match(r"[a-z][a-z0-9_]*", name) is not None
    if ok:
        assert name.isalnum() or "_" in name  # BUG: re.match anchors only at the start (name='a-')
    return ok


def split_words(text: str) -> list[str]:
    assert len(text) <= 20
    words = [w for w in re.split(r"\s+", text.strip()) if w]
    assert all(" " not in w for w in words)
    return words


def phone_extension(s: str) -> str:
    assert len(s) <= 6
    m = re.fullmatch(r"(\d{2})-(\d{2})", s)
    if m is None:
        raise ValueError(f"bad extension: {s!r}")
    digits = m.group(1) + m.group(2)
    assert digits.isascii()  # BUG: \d matches non-ASCII digits too (s='١2-34')
    return digits


def count_ab(text: str) -> int:
    assert len(text) <= 12
    n = len(re.findall(r"ab", text))
    assert n == text.count("ab")
    return n


def strip_tags(html: str) -> str:
    assert len(html) <= 20
    text = re.sub(r"<[^>]*>", "", html)
    assert "<" not in text  # BUG: an unclosed tag survives (html='<')
    return text


def is_clock_time(s: str) -> bool:
    assert len(s) <= 8
    ok = re.fullmatch(r"\d\d:\d\d", s) is not None
    if ok:
        assert s[2] == ":" and len(s) == 5
    return ok


def squeeze_spaces(s: str) -> str:
    assert len(s) <= 12
    out = re.sub(r" +", " ", s)
    assert re.search(r"\s\s", out) is None  # BUG: tabs are not squeezed (s='\t\t')
    return out


def is_identifier(s: str) -> bool:
    assert len(s) <= 12
    ok = re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", s) is not None
    if ok:
        assert s.isidentifier()
    return ok


def version_key(s: str) -> tuple[int, int]:
    assert len(s) <= 8
    m = re.fullmatch(r"v?(\d+)\.(\d+)", s)
    if m is None:
        raise ValueError(f"bad version: {s!r}")
    key = (int(m.group(1)), int(m.group(2)))
    assert key >= (0, 1)  # BUG: version 0.0 is accepted (s='0.0')
    return key


def mask_digits(s: str) -> str:
    assert len(s) <= 12
    out = re.sub(r"\d", "#", s)
    assert len(out) == len(s)
    return out


def has_double_letter(s: str) -> bool:
    assert len(s) <= 10
    found = re.search(r"(.)\1", s) is not None
    if found:
        assert any(s[i] == s[i + 1] for i in range(len(s) - 1))
    return found


def is_yes(s: str) -> bool:
    assert len(s) <= 4
    ok = re.fullmatch(r"y|yes", s, re.IGNORECASE) is not None
    if ok:
        assert s.lower() in ("y", "yes")  # BUG: IGNORECASE also matches the long s (s='yeſ')
    return ok


def word_count_re(text: str) -> int:
    assert len(text) <= 20
    n = len(re.findall(r"\w+", text))
    assert n <= len(text)
    return n


def signed_int(s: str) -> int:
    assert len(s) <= 6
    if re.fullmatch(r"[+-]?[0-9]+", s) is None:
        raise ValueError(f"not an int: {s!r}")
    v = int(s)
    assert str(v) == s.lstrip("+")  # BUG: '-0' comes back as '0' (s='-0')
    return v
