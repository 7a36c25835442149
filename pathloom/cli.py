"""The console entry point: exit codes, and Ctrl-C handled from the first moment.

Exit codes, for every command: 0 no bug found, 1 bug found (a failed assert or an exception
the code raised implicitly), 2 usage error or unsupported program (one line on stderr),
3 internal inconsistency (a replay mismatch, or a crash of pathloom itself), 130 interrupted
(Ctrl-C; what was found is still reported).

This module imports almost nothing, so the Ctrl-C handler is installed a few milliseconds
after the interpreter starts; the commands, the engines and Z3 are imported under it.
"""

from __future__ import annotations

import sys
from typing import Sequence

from pathloom import interrupt
from pathloom.errors import EXIT_INTERRUPTED, EngineBug, PathloomError, internal_error


def main(argv: Sequence[str] | None = None) -> int:
    with interrupt.installed():
        try:
            with interrupt.deferred():
                from pathloom.command import run_command
            interrupt.raise_if_requested()
            code = run_command(argv)
        except KeyboardInterrupt:  # before the command had its targets (it reports its own)
            sys.stdout.write("not explored: interrupted\n")
            sys.stderr.write("pathloom: interrupted\n")
            code = EXIT_INTERRUPTED
        except PathloomError as exc:
            sys.stderr.write(exc.one_line() + "\n")
            return exc.exit_code
        except Exception as exc:  # noqa: BLE001 - a crash must still be one line and exit 3
            sys.stderr.write(internal_error(exc) + "\n")
            return EngineBug.exit_code
    if code == EXIT_INTERRUPTED:
        # A KeyboardInterrupt raised inside exec() of a string (dataclasses and namedtuples
        # build their methods so) sets CPython's "unhandled KeyboardInterrupt" flag even when
        # it is caught, and `python -m pathloom` would then end by SIGINT instead of exit
        # 130; the flag is cleared by the next exec() of a string.
        exec("pass")  # noqa: S102 - a constant string: clears the flag, runs nothing
    return code


if __name__ == "__main__":
    sys.exit(main())
