"""The test suite, one package per part (``tests.engine``, ``tests.site``…) with its
shared machinery at the top (``tests.sitekit``, ``tests.conftest``): a helper is
imported by its package path, never put on ``sys.path``."""
