"""A compiled map game as a PettingZoo AEC environment with action masks (extra `pettingzoo`).

    from rulec.pettingzoo import env
    e = env("NAME", options=["OPTION"])   # NAME: a game in games/ or a path
    e.reset(seed=1)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(observation["action_mask"])
        e.step(action)

Agents are the game's sides; actions are rulec.adapters.catalogue's numbers; an observation
is {"observation": rulec.adapters.observation's tensor, "action_mask": int8, 1 for each legal
action of the agent to move}. Dice are rolled inside the environment, with its seed.
"""

try:
    import pettingzoo  # noqa: F401
except ImportError as error:  # the extra is not installed: say how to install it
    raise ImportError("rulec.pettingzoo needs PettingZoo: pip install -e '.[pettingzoo]'") from error

from rulec.pettingzoo.env import RulecEnv, env  # noqa: E402

__all__ = ["RulecEnv", "env"]
