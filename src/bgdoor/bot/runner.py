"""Plays the computer's side of games through the service, like any other caller.

In the server it is a background task woken whenever a game changes; in a
door the same runner acts the moment the human commits a turn.  Thinking
runs on its own thread, so no caller waits on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import Any

from bgdoor import workers
from bgdoor.rules.game import Phase
from bgdoor.service import GameChanged, GameView, Service, ServiceError

log = logging.getLogger("bgdoor.bot")

SWEEP_SECONDS = 5.0  # also act on games changed by other processes
MAX_ACTIONS = 40  # per wake-up: a bot never loops forever on one game


class BotRunner:
    def __init__(self, service: Service, seed: int | None = None) -> None:
        from bgdoor.bot import brain  # noqa: PLC0415 - numpy loads only when a bot is wanted

        self.service = service
        self.brain = brain
        self.rng = random.Random(seed)
        self._pool = workers.pool(1, "bot")
        self._players: dict[int, Any] = {}  # bot player id -> Bot
        self._labels: list[tuple[str, str]] = []
        self._wake: asyncio.Event | None = None  # made in start(), inside the running loop
        self._task: asyncio.Task[None] | None = None
        self.note = ""
        self._setup()

    def _setup(self) -> None:
        levels = self.brain.available_levels()
        self.note = self.brain.unavailable_reason() or ""
        if self.note:
            log.info("%s", self.note)  # for the sysop; players are told only that the levels are missing
        for level in levels:
            info = self.service.ensure_bot_player(level.handle)
            self._players[info.id] = self.brain.Bot(level, rng=random.Random(self.rng.random()))
            self._labels.append((level.label, level.handle))

    def levels(self) -> list[tuple[str, str]]:
        return list(self._labels)

    # ------------------------------------------------------------ running

    def start(self, runtime: Any) -> None:
        self.runtime = runtime
        self._wake = asyncio.Event()
        self._task = asyncio.ensure_future(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        self._pool.shutdown(wait=False, cancel_futures=True)

    def poke(self, game_id: int) -> None:
        """Something changed (in game `game_id`): look at once for games where a bot is to act."""
        if self._wake is not None:
            self._wake.set()

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        wake = self._wake
        assert wake is not None  # start() made it before starting this loop
        first = True
        while True:
            # The first sweep is at once: games left to the computer before a restart go on, and
            # its thread and queries are set up at start rather than in the middle of a crowd.
            if not first:
                # asyncio.timeout, not wait_for: 3.11's wait_for swallows a cancel that comes as the
                # wake does, and stop() then waited for ever on a loop still sweeping.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(SWEEP_SECONDS):
                        await wake.wait()
            first = False
            wake.clear()
            try:
                changed = await loop.run_in_executor(self._pool, self.play_due)
            except Exception:
                log.exception("bot sweep failed")
                continue
            for view in changed:
                self.runtime.announce(view)

    def play_due(self) -> list[GameView]:
        """Act in every game where a bot is to act; returns each changed game as the bot left it."""
        changed: list[GameView] = []
        for bot_id in self._players:
            try:
                games = self.service.my_turn_games(bot_id)
            except ServiceError:
                continue
            for g in games:
                last = self.act(bot_id, g.id)
                if last is not None:
                    changed.append(last)
        return changed

    def act(self, bot_id: int, game_id: int) -> GameView | None:
        """Make every move the bot owes in one game; the game after the last, or None if nothing changed."""
        bot = self._players[bot_id]
        acted: GameView | None = None
        for _ in range(MAX_ACTIONS):
            try:
                view = self.service.game(game_id, bot_id)
                if (
                    view.viewer_color is None
                    or view.state.over
                    or (view.state.actor is not view.viewer_color and view.state.phase is not Phase.OPENING)
                ):
                    return acted
                if view.state.phase is Phase.OPENING and view.state.actor is None and not self._opening_is_ours(view):
                    return acted
                acted = self._one(bot, bot_id, view)
            except GameChanged:
                continue
            except ServiceError as exc:
                log.warning("bot in game %s: %s", game_id, exc)
                return acted
        return acted

    @staticmethod
    def _opening_is_ours(view: GameView) -> bool:
        # A human who begins a game against the computer has it roll the opening at once.
        return view.white_id is not None and view.black_id is not None

    def _one(self, bot: Any, bot_id: int, view: GameView) -> GameView:
        st = view.state
        me = view.viewer_color
        assert me is not None
        svc = self.service
        gid, ver = view.id, view.version
        if st.phase is Phase.OPENING:
            return svc.roll(bot_id, gid, ver)
        elif st.phase is Phase.ROLL:
            if st.can_double() and bot.should_double(st, me):
                return svc.double(bot_id, gid, ver)
            else:
                return svc.roll(bot_id, gid, ver)
        elif st.phase is Phase.MOVE:
            assert st.dice is not None
            # The match score decides what gammons are worth.
            play = bot.choose_play(st.position, st.dice, self.brain.context_of(st, me))
            return svc.submit_turn(bot_id, gid, ver, play.position.id if play is not None else "")
        elif st.phase is Phase.DOUBLED:
            if bot.should_take(st, me):
                return svc.take(bot_id, gid, ver)
            else:
                return svc.drop(bot_id, gid, ver)
        elif st.phase is Phase.RESIGNED:
            return svc.answer_resign(bot_id, gid, ver, bot.should_accept_resign(st, me))
        return view  # nothing for the bot to do in this phase
