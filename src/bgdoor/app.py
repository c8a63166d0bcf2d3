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

from bgdoor import workers
from bgdoor.config import Config
from bgdoor.service import Service, ServiceError, StorageError
from bgdoor.service.sysop import days_text
from bgdoor.store import db
from bgdoor.ui.runtime import Bot, Runtime

log = logging.getLogger("bgdoor")

FORFEIT_EVERY = 3600.0  # seconds between looks for games left too long
BOT_RETRY = 15.0  # seconds between tries to set up the computer opponent on a read-only database


def open_service(config: Config) -> Service:
    """The service on the configured database, with the configured settings for it.

    Raises StorageError (a ServiceError) when the database cannot be opened.
    """
    settings = db.Settings(
        busy_timeout_ms=config.busy_timeout_ms,
        synchronous=config.sqlite_synchronous,
        write_patience=config.write_patience,
    )
    try:
        service = Service(config.database_url, settings=settings)
    except StorageError as exc:
        problem = db.write_problem(config.database_url)
        if problem is None:
            raise
        # Not even the schema can be checked: SQLite cannot make its files there.
        raise StorageError(f"{problem}; make it writable and start bgdoor again") from exc
    service.show_board = config.show_board
    log.info("database: %s", db.describe(config.database_url))
    return service


def _make_bot(service: Service, *, again: bool = False) -> tuple[Bot | None, bool]:
    """The computer opponent, or None (no numpy, or a database that cannot create its players);
    and whether it is worth trying again (the database could not be written)."""
    try:
        from bgdoor.bot.runner import BotRunner  # noqa: PLC0415 - the bot (and numpy) only when wanted

        return BotRunner(service), False
    except StorageError as exc:
        if not again:
            log.warning("the computer opponent is not available until the database can be written: %s", exc)
        return None, True
    except Exception:
        log.exception("the computer opponent is not available")
        return None, False


async def _bot_when_writable(runtime: Runtime, service: Service) -> None:
    """Set up the computer opponent once the sysop makes the database writable, no restart."""
    while runtime.bot is None:
        await asyncio.sleep(BOT_RETRY)
        opponent, _ = await asyncio.to_thread(_make_bot, service, again=True)
        if opponent is not None:
            runtime.bot = opponent
            opponent.start(runtime)
            log.info("the computer opponent is available now")


@contextlib.asynccontextmanager
async def running(config: Config, service: Service, *, bot: bool = True) -> AsyncIterator[Runtime]:
    # asyncio.to_thread's threads too leave signals to the main thread (see bgdoor.workers).
    asyncio.get_running_loop().set_default_executor(workers.pool(None, "asyncio"))
    problem = await asyncio.to_thread(db.write_problem, config.database_url)
    if problem is not None:
        log.warning(
            "%s: callers can log in and look around, but nothing is saved until it is writable "
            "(no restart is needed once it is)",
            problem,
        )
    # The bot creates its players: database writes, kept off the event loop.
    opponent, retry = await asyncio.to_thread(_make_bot, service) if bot else (None, False)
    runtime = Runtime(service, config, bot=opponent)
    if opponent is not None:
        opponent.start(runtime)
    later = asyncio.ensure_future(_bot_when_writable(runtime, service)) if retry else None
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
        if later is not None:
            later.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await later
        # Who left just now goes from W)ho at once; callers cut off by a shutdown expire.
        await runtime.presence.close()
        if runtime.bot is not None:
            await runtime.bot.stop()
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
                log.info("game %s forfeited: no move for %s", game_id, days_text(config.forfeit_days))
                runtime.notify(game_id)
        except ServiceError as exc:
            log.warning("forfeiting stale games failed: %s", exc)
        await asyncio.sleep(FORFEIT_EVERY)
