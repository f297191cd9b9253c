"""Adapters from real MCTS engines (OpenSpiel, mctx) to our log and tree formats.

May import search (the one log writer) and the standard library; each imports its engine lazily.
"""
