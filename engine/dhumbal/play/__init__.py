"""One deal: what cards make together, the actions, the turn state machine and
its settlement, play-outs for simulations, records and the ``#table=`` link codec.
"""
