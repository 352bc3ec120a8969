"""Bots that play Chicago, and the search machinery they use."""
