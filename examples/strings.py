"""Everyday string code: palindromes, counting, Caesar shifts with ord/chr."""


def is_palindrome(s: str) -> bool:
    i = 0
    j = len(s) - 1
    while i < j:
        if s[i] != s[j]:
            return False
        i += 1
        j -= 1
    return True


def count_vowels(s: str) -> int:
    count = 0
    for c in s:
        if c in "aeiou":
            count += 1
    return count


def shift_letter(c: str, k: int) -> str:
    if len(c) != 1:
        raise ValueError("expected one character")
    code = ord(c)
    if 97 <= code <= 122:
        return chr(97 + (code - 97 + k) % 26)
    return c


def greeting(name: str, formal: bool) -> str:
    if name == "":
        return "hello"
    if formal:
        return "dear " + name
    return "hi " + name
