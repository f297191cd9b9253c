"""Adapters from real MCTS engines (OpenSpiel, mctx) to our log and tree formats.

May import search (the one log writer, game loader and move names), selection (the rules' keys)
and the standard library; each imports its engine lazily.
"""
