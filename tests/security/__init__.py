"""Adversarial tests: a malicious or clumsy user posting, racing and peeking.

Each known bug is kept as a ``strict`` xfail whose reason starts with "BUG:".
"""
