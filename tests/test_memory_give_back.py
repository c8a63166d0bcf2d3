"""What a burst of callers leaves in CPython's own caches is freed by the trim after it.

Each such survivor holds a whole allocator arena of the burst in memory, so a few hundred of
them kept the server's resident size 15-21% up after 2,000 callers (test_resources_spike
allows 20%): the await iterators asyncio's C Future keeps for reuse, and the attribute names
the type cache keeps, which telnetlib3 makes afresh for every caller (f"handle_{key}").
"""

from __future__ import annotations

import asyncio
import gc
import tracemalloc
import weakref

from bgdoor.transport import memory


class Handlers:
    def handle_naws(self) -> None: ...


async def burst() -> None:
    """What 600 callers at once leave behind: awaits on futures, and attribute names made afresh."""
    loop = asyncio.get_running_loop()
    futures = [loop.create_future() for _ in range(600)]

    async def wait(f: asyncio.Future[None]) -> None:
        await f

    tasks = [asyncio.ensure_future(wait(f)) for f in futures]
    await asyncio.sleep(0)
    for f in futures:
        f.set_result(None)
    await asyncio.gather(*tasks)
    h = Handlers()
    for _ in range(600):
        key = "naws"
        getattr(h, f"handle_{key}")


def left_by_burst(snapshot: tracemalloc.Snapshot) -> int:
    """Objects still alive that the burst's awaits and attribute lookups made."""
    with open(__file__) as f:
        source = f.read().splitlines()
    lines = {n for n, text in enumerate(source, 1) if text.strip() in ("await f", 'getattr(h, f"handle_{key}")')}
    assert len(lines) == 2
    here = snapshot.filter_traces([tracemalloc.Filter(True, __file__)])
    return sum(stat.count for stat in here.statistics("lineno") if stat.traceback[0].lineno in lines)


async def test_the_trim_frees_what_a_burst_left_in_cpython_caches() -> None:
    tracemalloc.start()
    try:
        await burst()
        gc.collect()
        before = left_by_burst(tracemalloc.take_snapshot())
        memory.give_back()
        after = left_by_burst(tracemalloc.take_snapshot())
    finally:
        tracemalloc.stop()
    print(f"\nobjects made in a burst and still alive: {before} before the trim, {after} after")
    assert after <= 10, (before, after)


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


async def test_the_collector_runs_on_its_clock() -> None:
    was_enabled = gc.isenabled()
    gc.disable()
    collector = memory.Collector(tick=0.01)
    try:
        collector.start()
        await asyncio.sleep(0.2)
        assert collector.ticks >= 5
        assert collector.looks >= 1
        assert gc.get_freeze_count() > 0, "each pass sets what is new aside"
    finally:
        collector.stop()
        if was_enabled:
            gc.enable()
    assert gc.get_freeze_count() == 0, "stopping gives everything set aside back to the collector"


def test_the_collector_looks_less_often_while_it_finds_nothing_and_at_once_after_it_found_some() -> None:
    """Each pass sets what is new aside (frozen); some passes look at it first and free its
    cycles.  Looks that find nothing come ever less often, down to one in LOOK_TICKS passes; a
    look that frees a cycle makes the next passes look again.  A cycle set aside while alive
    waits for the trim after callers leave, which looks at everything."""
    was_enabled = gc.isenabled()
    gc.disable()  # only the collector's own passes run
    gc.collect()
    collector = memory.Collector()
    try:
        kept = Node()
        kept_ref = weakref.ref(kept)
        for _ in range(4 * memory.LOOK_TICKS):
            collector.collect()
        assert collector.looks <= 8, collector.looks  # passes 1, 3, 7, 15, 31, 47 and 63
        assert collector.next_look - collector.ticks <= memory.LOOK_TICKS
        del kept  # set aside while alive; now garbage
        while collector.ticks + 1 < collector.next_look:
            collector.collect()
        dropped = Node()
        dropped_ref = weakref.ref(dropped)
        del dropped
        looks = collector.looks
        collector.collect()
        assert collector.looks == looks + 1
        assert dropped_ref() is None, "a new cycle is freed by a look"
        assert collector.next_look == collector.ticks + 1, "having found one, the next pass looks too"
        assert kept_ref() is not None, "a cycle set aside waits for the trim"
        memory.give_back()
        assert kept_ref() is None
    finally:
        collector.stop()
        if was_enabled:
            gc.enable()
    assert gc.get_freeze_count() == 0, "stopping gives everything set aside back to the collector"


def test_while_a_crowd_dials_in_the_collector_sets_everything_aside_and_collects_again_after() -> None:
    """A crowd's connections make objects that live as long as their calls: while many are still
    negotiating, nothing is collected (automatic collection included) and each pass sets what is
    new aside; the first pass after most have begun their sessions turns collection back on."""
    was_enabled = gc.isenabled()
    gc.enable()
    collector = memory.Collector(crowd=5)  # its passes made here, not by its clock
    try:
        for _ in range(4):
            collector.connected()
        assert gc.isenabled(), "four connections are no crowd"
        collector.connected()
        assert not gc.isenabled(), "five negotiating at once are"
        made = Node()
        made_ref = weakref.ref(made)
        frozen = gc.get_freeze_count()
        collector.collect()  # still crowded: it sets aside what is new
        assert collector.crowded and not gc.isenabled()
        assert gc.get_freeze_count() > frozen
        del made
        collector.settled()  # four are left negotiating: no crowd, once a pass looks
        assert not gc.isenabled()
        collector.collect()
        assert not collector.crowded and gc.isenabled()
        collector.collect()
        assert made_ref() is not None, "what a crowd made waits for the trim"
        memory.give_back()
        assert made_ref() is None
        collector.connected()
        assert not gc.isenabled(), "five negotiating again"
    finally:
        collector.stop()
        assert gc.isenabled(), "stopping turns collection back on"
        if not was_enabled:
            gc.disable()
