"""A flight-control-style mode logic (after the paper's WBS/ASW subjects) called from several
entry points with related arguments."""


def mode(alt: int, speed: int, armed: bool) -> int:
    if not armed:
        return 0
    if alt < 100:
        if speed > 50:
            return 1
        return 2
    if alt < 1000:
        return 3
    if speed < 300:
        return 4
    return 5


def launch(alt: int, speed: int, armed: bool) -> int:
    total = 0
    for step in range(10):
        total += mode(alt + 100 * step, speed + 25 * step, armed)
    return total


def abort(alt: int, speed: int, armed: bool) -> int:
    return mode(alt, speed, armed) * 10 + mode(alt - 500, speed - 100, armed)
