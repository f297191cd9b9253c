"""Driving the app from outside, for the tests and the benchmarks alike (neither imports the other).

:mod:`.server` starts and stops ``streamlit run`` and names the browser; :mod:`.browser` waits on a
page's runs and reads what it shows; :mod:`.load_tour` runs sessions that each check they see only
their own input; :mod:`.apptest` is the AppTest workaround for st.navigation and typing C;
:mod:`.dask_processes` starts a real Dask scheduler and workers on 127.0.0.1; :mod:`.reference` is the
naive solver written from the statement, which the tests compare the core with and the core benchmark
times. Not part of the installed package (only ``mcts_core`` is).
"""
