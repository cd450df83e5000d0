"""Shared fixtures."""

from __future__ import annotations

import pytest

from normandy_lab import SYSTEMS, grid


@pytest.fixture(params=SYSTEMS)
def system(request) -> str:
    return request.param


@pytest.fixture
def any_grid(system):
    return grid(system)
