# pathloom differential regression: dse:witness:not-on-own-path
# entry: f
# params: s: str, p: bool
# engines: dse,multise
# inputs: [{"s": "A", "p": true}]
# fixed: [dse:witness:not-on-own-path] path #3 [raise AssertionError at line 10 (assert)]: its own inputs {'s': 'A', 'p': True} do not satisfy its path condition (fixed by 602702d: kept as a guard)
# found: test_random_programs (derandomized seed, example shrunk by Hypothesis, then reduced); fixed by 602702d

def f(s: str, p: bool) -> int:
    assert len(s) < (p or 1)
    return 0
