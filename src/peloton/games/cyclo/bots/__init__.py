"""The bots' knowledge of Cyclo: what the greedy and MCTS bots know of the game beyond
its rules. The race model (rides left to a line, win and rank shares), the time model
of the timed events, the lines' points and risks, each mode's goal, the metrics of a
position, and the heuristics the bots read (``HEURISTICS``).

Built on the engine (the package root) and read by the bots; the engine never imports
it (``tests/games/cyclo/test_layers.py``).
"""
