"""String handling as application code writes it: cleaning, padding, masking, formatting.

A quality-corpus module (see benchmarks/quality_corpus.py): every top-level function is a
target; an assert marked ``# BUG: what (witness)`` fails for the witness input.
"""


def normalize_username(name: str) -> str:
    assert len(name) <= 12
    cleaned = name.strip().lower()
    assert cleaned == cleaned.strip()
    return cleaned


def pad_code(n: int) -> str:
    assert 0 <= n < 100000
    code = str(n).zfill(5)
    assert len(code) == 5
    return code


def pad_order_id(n: int) -> str:
    assert 0 <= n <= 100000
    code = str(n).zfill(5)
    assert len(code) == 5  # BUG: the upper bound is inclusive, so 100000 has six digits (n=100000)
    return code


def initials(first: str, last: str) -> str:
    assert first and last
    assert first.isascii() and last.isascii()
    assert first.isalpha() and last.isalpha()
    result = first[0].upper() + last[0].upper()
    assert result.isupper()
    return result


def mask_card(number: str) -> str:
    assert number.isdigit() and len(number) >= 4
    masked = "*" * (len(number) - 4) + number[-4:]
    assert masked.endswith(number[-4:])
    assert len(masked) == len(number)
    return masked


def ellipsize(text: str, width: int) -> str:
    assert 1 <= width <= 10
    if len(text) <= width:
        return text
    result = text[: width - 1] + "..."
    assert len(result) <= width  # BUG: the ellipsis is three characters, not one (text='abcd', width=3)
    return result


def shorten(text: str, width: int) -> str:
    assert 3 <= width <= 10
    if len(text) <= width:
        return text
    result = text[: width - 3] + "..."
    assert len(result) == width
    return result


def title_line(words: list[str]) -> str:
    assert len(words) <= 4
    line = " ".join(w.capitalize() for w in words)
    assert line.count(" ") >= len(words) - 1
    return line


def vowel_share(word: str) -> int:
    assert word.isascii() and word.isalpha()
    vowels = sum(1 for c in word.lower() if c in "aeiou")
    assert vowels < len(word)  # BUG: a word can be all vowels (word='a')
    return 100 * vowels // len(word)


def is_palindrome(s: str) -> bool:
    assert s.isascii()
    cleaned = [c.lower() for c in s if c.isalnum()]
    result = cleaned == cleaned[::-1]
    if result and cleaned:
        assert cleaned[0] == cleaned[-1]
    return result


def slugify(title: str) -> str:
    assert title.isascii()
    slug = title.strip().lower().replace(" ", "-")
    assert "--" not in slug  # BUG: two spaces in a row make a double dash (title='a  b')
    return slug


def strip_prefix(s: str, prefix: str) -> str:
    assert prefix
    if s.startswith(prefix):
        s = s[len(prefix) :]
    assert not s.startswith(prefix)  # BUG: the prefix may repeat (s='aa', prefix='a')
    return s


def word_count(text: str) -> int:
    assert len(text) <= 40
    n = len(text.split())
    assert n <= len(text)
    return n


def format_price(cents: int) -> str:
    assert cents >= 0
    text = f"{cents // 100}.{cents % 100}"
    assert len(text.split(".")[1]) == 2  # BUG: the cents are not zero-padded (cents=5)
    return text


def format_price_padded(cents: int) -> str:
    assert cents >= 0
    text = f"{cents // 100}.{cents % 100:02d}"
    assert len(text.split(".")[1]) == 2
    return text


def center_label(label: str, width: int) -> str:
    assert 0 <= width <= 20
    assert len(label) <= width
    out = f"{label:^{width}}"
    assert len(out) == width
    return out


def camel_to_snake(name: str) -> str:
    assert name.isascii()
    out = []
    for i, c in enumerate(name):
        if c.isupper() and i > 0:
            out.append("_")
        out.append(c.lower())
    result = "".join(out)
    assert "__" not in result  # BUG: an underscore before a capital doubles (name='a_B')
    return result


def column(n: int, width: int) -> str:
    assert 1 <= width <= 8
    cell = f"{n:>{width}}"
    assert len(cell) == width  # BUG: a wide number overflows its column (n=100, width=2)
    return cell


def censor(text: str) -> str:
    assert len(text) <= 30
    result = text.replace("bad", "***")
    assert len(result) == len(text)
    return result


def strip_comment(line: str) -> str:
    assert len(line) <= 80
    code = line[: line.find("#")]
    assert len(code) == len(line) or "#" in line  # BUG: find returns -1 when there is no comment (line='x')
    return code


def plural(n: int, noun: str) -> str:
    assert n >= 0 and noun.isalpha()
    text = "%d %s%s" % (n, noun, "" if n == 1 else "s")
    assert text.startswith(str(n))
    return text


def percent_label(part: int, total: int) -> str:
    assert total > 0 and 0 <= part <= total
    text = "%d%%" % (100 * part // total)
    assert len(text) <= 3  # BUG: 100% needs four characters (part=1, total=1)
    return text


def join_tags(tags: list[str]) -> str:
    assert all(t.isalnum() for t in tags)
    joined = ",".join(sorted(set(tags)))
    assert joined.count(",") == max(len(set(tags)) - 1, 0)
    return joined
