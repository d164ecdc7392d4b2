"""Searches and optimisers on top of lumicore: ``solvers.lucia`` (BFS, A*, IDA*),
``solvers.reef`` (optimal placement), ``solvers.lemuria`` (CP-SAT build scheduling).

Every search takes limits and returns a result that says whether it is proven.
"""
