"""Searches and optimisers on top of lumicore: ``solvers.lucia`` (BFS, A*, IDA* on puzzles;
deals with hands), ``solvers.reef`` (optimal placement, the best turn), ``solvers.lemuria``
(CP-SAT year scheduling and its bounds, the best turn), ``solvers.lumen`` (the best choice,
the odds of winning); ``solvers.arena`` plays any game of ``lumicore.game`` with bots and runs
tournaments, ``solvers.batch`` runs them on local cores or a Dask cluster, and ``solvers.cli``
is the ``lumicore`` command.

Every search takes limits and returns a result that says whether it is proven.
"""
