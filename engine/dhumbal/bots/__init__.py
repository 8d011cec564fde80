"""The bots at every level, the sampler of deals consistent with one seat's view,
the expert, the call odds, and how each level plays in words.
"""
