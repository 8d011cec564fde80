"""Dhumbal (Jhyap): the rules of every documented profile, played exactly."""
