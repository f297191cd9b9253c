"""Adapters from real MCTS engines to our log and tree formats (each imports its engine lazily)."""
