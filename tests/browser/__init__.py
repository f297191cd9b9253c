"""Browser tests (a package so that its conftest never shadows tests/conftest.py as module `conftest`)."""
