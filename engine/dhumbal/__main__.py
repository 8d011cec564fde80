"""``python -m dhumbal``: the command line of :mod:`dhumbal.cli`.

Ctrl-C while the command line is still being imported ends in the same one
line and exit status (130) as Ctrl-C under a command, not a traceback.
"""

import sys

try:
    from .cli import main
except KeyboardInterrupt:
    if sys.stderr is not None:
        sys.stderr.write("error: interrupted\n")
    raise SystemExit(130) from None

raise SystemExit(main())
