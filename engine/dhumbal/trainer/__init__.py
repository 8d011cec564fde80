"""What the trainer tells the reader: moves graded on sampled deals, advice in
words, puzzle themes and ratings, and the review of a finished deal.
"""
