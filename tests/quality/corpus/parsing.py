"""Parsing small text formats: times, durations, ranges, key=value pairs, tokens.

A quality-corpus module (see benchmarks/quality_corpus.py): every top-level function is a
target; an assert marked ``# BUG: what (witness)`` fails for the witness input.
"""


def parse_time(s: str) -> int:
    assert len(s) == 5 and s[2] == ":"
    hours, minutes = s[:2], s[3:]
    if not (hours.isdecimal() and minutes.isdecimal()):
        raise ValueError(f"bad time: {s!r}")
    h, m = int(hours), int(minutes)
    if h > 24 or m > 59:
        raise ValueError(f"out of range: {s!r}")
    total = h * 60 + m
    assert total < 24 * 60  # BUG: hour 24 is accepted (s='24:00')
    return total


def parse_clock(s: str) -> int:
    assert len(s) == 5 and s[2] == ":"
    hours, minutes = s[:2], s[3:]
    if not (hours.isdecimal() and minutes.isdecimal()):
        raise ValueError(f"bad time: {s!r}")
    h, m = int(hours), int(minutes)
    if h > 23 or m > 59:
        raise ValueError(f"out of range: {s!r}")
    total = h * 60 + m
    assert 0 <= total < 24 * 60
    return total


def parse_kv(line: str) -> tuple[str, str]:
    assert "=" in line
    key, _, value = line.partition("=")
    key = key.strip()
    assert "=" not in key
    return key, value.strip()


def parse_pairs(text: str) -> dict[str, str]:
    assert len(text) <= 40
    items = {}
    for part in text.split(","):
        if "=" in part:
            key, value = part.split("=", 1)
            items[key] = value
    assert len(items) <= text.count("=")
    assert "" not in items  # BUG: an empty key is accepted (text='=1')
    return items


def parse_int_list(s: str) -> list[int]:
    assert s.isascii()
    out = []
    for token in s.split(","):
        token = token.strip()
        if token.isdigit():
            out.append(int(token))
    assert all(v >= 0 for v in out)
    return out


def parse_unsigned(s: str) -> int:
    assert s.isascii() and 1 <= len(s) <= 6
    if not s.isdigit():
        raise ValueError(f"not a number: {s!r}")
    value = int(s)
    assert str(value) == s  # BUG: leading zeros do not round-trip (s='01')
    return value


def parse_short_color(s: str) -> tuple[int, int, int]:
    assert len(s) == 4 and s.startswith("#")
    digits = s[1:].lower()
    if not all(c in "0123456789abcdef" for c in digits):
        raise ValueError(f"bad color: {s!r}")
    r, g, b = (int(c * 2, 16) for c in digits)
    assert all(0 <= v <= 255 for v in (r, g, b))
    return r, g, b


def parse_duration(s: str) -> int:
    assert 2 <= len(s) <= 5 and s.isascii()
    number, unit = s[:-1], s[-1]
    if not number.isdigit():
        raise ValueError(f"bad duration: {s!r}")
    n = int(number)
    if unit == "s":
        seconds = n
    elif unit == "m":
        seconds = n * 60
    elif unit == "h":
        seconds = n * 3600
    else:
        raise ValueError(f"bad unit: {unit!r}")
    assert seconds < 86400  # BUG: hours have no upper bound (s='24h')
    return seconds


def split_path(path: str) -> list[str]:
    assert len(path) <= 40
    parts = [p for p in path.split("/") if p]
    assert all("/" not in p for p in parts)
    return parts


def parse_range(s: str) -> list[int]:
    assert s.count("-") == 1 and s.isascii()
    a, b = s.split("-")
    if not (a.isdigit() and b.isdigit()):
        raise ValueError(f"bad range: {s!r}")
    lo, hi = int(a), int(b)
    if hi < lo or hi - lo > 10:
        raise ValueError(f"bad range: {s!r}")
    values = list(range(lo, hi))
    assert len(values) == hi - lo + 1  # BUG: the range's end is exclusive (s='1-2')
    return values


def csv_row(fields: list[str]) -> str:
    assert len(fields) <= 4
    cells = [f'"{f}"' if "," in f else f for f in fields]
    row = ",".join(cells)
    assert row.count(",") >= len(fields) - 1
    return row


def parse_csv_line(line: str) -> list[str]:
    assert "\n" not in line
    fields = line.split(",")
    assert all(f == f.strip() for f in fields)  # BUG: spaces after the commas are kept (line='a, b')
    return fields


def parse_query(q: str) -> dict[str, int]:
    assert len(q) <= 40
    params = {}
    for part in q.split("&"):
        key, sep, value = part.partition("=")
        if sep and value.isdecimal():
            params[key] = int(value)
    assert all(v >= 0 for v in params.values())
    return params


DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def day_of_year(s: str) -> int:
    assert len(s) == 5 and s[2] == "/" and s.isascii()
    mm, dd = s[:2], s[3:]
    if not (mm.isdigit() and dd.isdigit()):
        raise ValueError(f"bad date: {s!r}")
    month, day = int(mm), int(dd)
    if not 1 <= month <= 12 or not 1 <= day <= DAYS_IN_MONTH[month - 1]:
        raise ValueError(f"no such day: {s!r}")
    n = sum(DAYS_IN_MONTH[: month - 1]) + day
    assert n <= 365  # BUG: the table counts February 29, so December 31 is day 366 (s='12/31')
    return n


def tokenize(expr: str) -> list[str]:
    assert expr.isascii()
    tokens = []
    number = ""
    for c in expr:
        if c.isdigit():
            number += c
            continue
        if number:
            tokens.append(number)
            number = ""
        if c in "+-*/()":
            tokens.append(c)
    if number:
        tokens.append(number)
    assert "".join(tokens) == "".join(c for c in expr if c.isdigit() or c in "+-*/()")
    return tokens


def eval_rpn(tokens: list[str]) -> int:
    assert all(t in ("+", "-", "*") or t.isdecimal() for t in tokens)
    stack: list[int] = []
    for t in tokens:
        if t in ("+", "-", "*"):
            if len(stack) < 2:
                raise ValueError("stack underflow")
            b = stack.pop()
            a = stack.pop()
            if t == "+":
                stack.append(a + b)
            elif t == "-":
                stack.append(a - b)
            else:
                stack.append(a * b)
        else:
            stack.append(int(t))
    assert len(stack) == 1  # BUG: leftover operands are not rejected (tokens=['1', '2'])
    return stack[0]


def parse_header(line: str) -> tuple[str, str]:
    assert ":" in line
    name, value = line.split(":", 1)
    name = name.strip().lower()
    assert ":" not in name
    return name, value.strip()


def parse_bool(value: str) -> bool:
    assert len(value) <= 8
    v = value.strip().lower()
    if v in ("yes", "true", "on", "1"):
        return True
    if v in ("no", "false", "off", "0"):
        return False
    raise ValueError(f"not a boolean: {value!r}")
