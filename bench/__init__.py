"""The benchmarks: run each from the project root as ``python -m bench.NAME``
(``make bench`` runs them all)."""
