"""Branches: if/elif/else, short-circuit operators, a chained comparison, a conditional expression."""


def grade(score: int, bonus: bool) -> str:
    if bonus and score < 100:
        score += 5
    if score >= 90:
        return "A"
    elif 70 <= score < 90:
        return "B"
    elif score >= 50 or bonus:
        return "C"
    else:
        return "F" if score >= 0 else "invalid"
