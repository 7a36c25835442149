"""f-strings: plain fields, a conversion and a format spec (run in CPython on pinned values)."""


def describe(name: str, n: int, flag: bool) -> str:
    if n < 0:
        return f"{n!r} is negative"
    label = f"{name}:{n}"
    if len(label) > 4:
        return f"long {label} [{flag:>3}]"
    return label
