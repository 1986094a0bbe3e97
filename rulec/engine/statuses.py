"""Where a unit is: on the map, or why it is not."""

from typing import Final

ON_MAP: Final = "map"
PENDING: Final = "pending"  # not yet arrived (a reinforcement, or a unit arriving when its owner chooses)
EXITED: Final = "exited"  # left the map; never returns
ELIMINATED: Final = "eliminated"
UNUSED: Final = "unused"  # not in this game (an optional unit whose option was not chosen)

# The turn a pending unit set up by a placement phase is due by movement: none (turns start at 1).
NEVER: Final = 0
