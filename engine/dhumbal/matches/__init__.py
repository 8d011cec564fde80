"""Several deals: the match (dealers, ledger or points, elimination), and deals
played with real cards settled from their show (the score pad's sheet).
"""
