"""Test tiers: `make test` runs every test; `make test-fast` (``-m "not slow"``)
leaves out the tests marked ``slow``. A browser test (``e2e``) is always slow."""
from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("e2e") is not None:
            item.add_marker(pytest.mark.slow)
