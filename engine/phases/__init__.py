"""One module per part of the round (RULES §8): each exposes the legal actions of the
decisions it raises and the functions that apply them to the mutable state tree."""
