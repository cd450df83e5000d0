"""No full garbage collection in the middle of an explorer's opening (issue 33, section 4).

``views.mapview.collection_after_the_cell`` holds the collector while a map is built and, in a kernel
(an event loop running), switches it on again from the loop once the cell is done.
"""

from __future__ import annotations

import asyncio
import gc

import pytest

from normandy_lab.views.mapview import collection_after_the_cell


@pytest.fixture(autouse=True)
def _collector_on():
    gc.enable()
    yield
    gc.enable()


def test_held_while_building_and_on_again_after_in_a_script():
    with collection_after_the_cell():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_on_again_after_an_error_too():
    with pytest.raises(ValueError), collection_after_the_cell():
        raise ValueError("a map that could not be built")
    assert gc.isenabled()


def test_in_a_kernel_it_waits_for_the_loop():
    seen: list[bool] = []

    async def cell() -> None:
        with collection_after_the_cell():
            pass
        seen.append(gc.isenabled())  # the cell's end (the map displayed): still held
        await asyncio.sleep(0)  # the loop turns: the collector is on again
        seen.append(gc.isenabled())

    asyncio.run(cell())
    assert seen == [False, True]


def test_a_collector_switched_off_by_the_caller_stays_off():
    gc.disable()
    with collection_after_the_cell():
        pass
    assert not gc.isenabled()


def test_an_explorer_opens_with_the_collector_on_after_it():
    import normandy_lab as nl

    nl.explore("bfn_1944-06-13_am")
    assert gc.isenabled()
