"""Cyclo's competitions: games strung together with the same teams and standings kept
across them. A stage race on the road; an omnium, a sprint tournament and a pursuit
series on the track; their kinds and the competition file (``kinds``).

Built on the engine (the package root), which never imports it
(``tests/games/cyclo/test_layers.py``).
"""
