"""The application, built in one place for `bgdoor serve` and `bgdoor door`.

`running(config, service)` gives the runtime every session shares: the gateway (inside the
runtime), the change feed it follows, the computer opponent, and the loop that forfeits
games left too long.  Everything it starts, it stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator

from bgdoor.config import Config
from bgdoor.service import Service, ServiceError
from bgdoor.store import db
from bgdoor.ui.runtime import Bot, Runtime

log = logging.getLogger("bgdoor")

FORFEIT_EVERY = 3600.0  # seconds between looks for games left too long


def open_service(config: Config) -> Service:
    """The service on the configured database, with the configured settings for it.

    Raises StorageError (a ServiceError) when the database cannot be opened.
    """
    settings = db.Settings(
        busy_timeout_ms=config.busy_timeout_ms,
        synchronous=config.sqlite_synchronous,
        write_patience=config.write_patience,
    )
    service = Service(config.database_url, settings=settings)
    service.show_board = config.show_board
    return service


def _make_bot(service: Service) -> Bot | None:
    """The computer opponent, or None (no numpy, or a database that cannot create its players)."""
    try:
        from bgdoor.bot.runner import BotRunner  # noqa: PLC0415 - the bot (and numpy) only when wanted

        return BotRunner(service)
    except Exception:
        log.exception("the computer opponent is not available")
        return None


@contextlib.asynccontextmanager
async def running(config: Config, service: Service, *, bot: bool = True) -> AsyncIterator[Runtime]:
    # The bot creates its players: database writes, kept off the event loop.
    opponent = await asyncio.to_thread(_make_bot, service) if bot else None
    runtime = Runtime(service, config, bot=opponent)
    if opponent is not None:
        opponent.start(runtime)
    runtime.start()
    forfeits = asyncio.ensure_future(forfeit_loop(runtime, config))
    every = float(os.environ.get("BGDOOR_STATS_SECONDS", "0") or 0)
    stats = asyncio.ensure_future(stats_loop(runtime, every)) if every > 0 else None
    try:
        yield runtime
    finally:
        if stats is not None:
            stats.cancel()
        forfeits.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await forfeits
        # Who left just now goes from W)ho at once; callers cut off by a shutdown expire.
        await runtime.presence.close()
        if opponent is not None:
            await opponent.stop()
        runtime.close()


async def stats_loop(runtime: Runtime, every: float) -> None:
    """BGDOOR_STATS_SECONDS: log the SQL statements run so far every so many seconds (benchmarks)."""
    while True:
        log.info("stats: statements %d", runtime.service.statements)
        await asyncio.sleep(every)


async def forfeit_loop(runtime: Runtime, config: Config) -> None:
    """Forfeit games left too long, once at start and then hourly."""
    if config.forfeit_days <= 0:
        return
    while True:
        try:
            for game_id in await runtime.service.forfeit_stale(config.forfeit_days):
                log.info("game %s forfeited: no move for %s days", game_id, config.forfeit_days)
                runtime.notify(game_id)
        except ServiceError as exc:
            log.warning("forfeiting stale games failed: %s", exc)
        await asyncio.sleep(FORFEIT_EVERY)
