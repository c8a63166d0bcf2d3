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


async def test_the_collector_frees_new_cycles_by_the_clock_and_the_trim_frees_those_set_aside() -> None:
    """The server's collector runs on a clock, not on allocation counts: a cycle dropped is freed
    by its next pass; survivors are set aside (frozen) every few passes, and a cycle among them
    waits for the trim after callers leave, which looks at everything."""
    was_enabled = gc.isenabled()
    gc.disable()  # only the collector's own passes run
    collector = memory.Collector(tick=0.01)
    try:
        kept = Node()
        kept_ref = weakref.ref(kept)
        collector.start()
        await asyncio.sleep(0.01 * (memory.FREEZE_TICKS + 10))
        assert collector.ticks >= memory.FREEZE_TICKS
        assert gc.get_freeze_count() > 0
        del kept  # set aside while alive; now garbage
        dropped = Node()
        dropped_ref = weakref.ref(dropped)
        del dropped
        await asyncio.sleep(0.05)
        assert dropped_ref() is None, "a new cycle is freed by the next passes"
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
