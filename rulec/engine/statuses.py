"""Where a unit is: on the map, or why it is not."""

ON_MAP = "map"
PENDING = "pending"  # not yet arrived (a reinforcement, or a unit arriving when its owner chooses)
EXITED = "exited"  # left the map; never returns
ELIMINATED = "eliminated"
UNUSED = "unused"  # not in this game (an optional unit whose option was not chosen)

# The turn a pending unit set up by a placement phase is due by movement: none (turns start at 1).
NEVER = 0
