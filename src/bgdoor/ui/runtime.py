"""What every session in one process shares: the service, the config, change notices and the bot."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bgdoor.config import Config
from bgdoor.service import Service, ServiceError, StorageError

log = logging.getLogger("bgdoor.runtime")


class AsyncService:
    """The service's blocking calls, run on a small thread pool so no caller holds up another."""

    def __init__(self, service: Service, workers: int = 4) -> None:
        self.sync = service
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="db")

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self.sync, name)

        async def call(*args: Any, **kwargs: Any) -> Any:
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self._pool, functools.partial(method, *args, **kwargs))
            except ServiceError:
                raise
            except Exception as exc:  # the database failed in a way the service did not foresee
                log.exception("service call %s failed", name)
                raise StorageError("The game database is not answering right now. Please try again shortly.") from exc

        return call

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


class Runtime:
    def __init__(self, service: Service, config: Config, bot: Any | None = None) -> None:
        self.service = AsyncService(service)
        self.config = config
        self.bot = bot  # bgdoor.bot runner, when there is one
        self._watchers: dict[int, set[Callable[[], None]]] = {}

    # ---- change notices: in-process at once, other processes by polling

    def notify(self, game_id: int) -> None:
        """Wake the screens showing this game."""
        for wake in list(self._watchers.get(game_id, ())):
            wake()

    async def game_changed(self, game_id: int) -> None:
        self.notify(game_id)
        if self.bot is not None:
            self.bot.poke(game_id)

    def watch(self, game_id: int, wake: Callable[[], None]) -> None:
        self._watchers.setdefault(game_id, set()).add(wake)

    def unwatch(self, game_id: int, wake: Callable[[], None]) -> None:
        watchers = self._watchers.get(game_id)
        if watchers is not None:
            watchers.discard(wake)
            if not watchers:
                del self._watchers[game_id]

    # ---- the computer opponent

    def bot_levels(self) -> list[tuple[str, str]]:
        """(label, bot handle) for each level on offer."""
        if self.bot is None:
            return []
        return list(self.bot.levels())

    @property
    def bot_note(self) -> str:
        if self.bot is None:
            return "The computer opponent is not available on this system."
        return str(getattr(self.bot, "note", ""))
