"""For tests that press Ctrl-C at a rulec process: the process starts as from a terminal, where Ctrl-C is answered.

A suite started in the background of a shell without job control (`make test &` in a script) inherits SIGINT
ignored, and so would every process it starts: Python then installs no KeyboardInterrupt, and a Ctrl-C sent to
rulec would be ignored, as a background job's should be. Passed as `preexec_fn`, this restores the default first."""

from __future__ import annotations

import signal


def ctrl_c_answered() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
