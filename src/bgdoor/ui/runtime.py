"""What every session in one process shares: the gateway, the config, change notices and the bot."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Protocol

from bgdoor.config import Config
from bgdoor.service import GameSummary, GameView, Service, ServiceError
from bgdoor.ui.gateway import Gateway
from bgdoor.ui.guard import LoginGuard
from bgdoor.ui.presence import PresenceKeeper

log = logging.getLogger("bgdoor.runtime")

Wake = Callable[[], None]


class Bot(Protocol):
    """The computer opponent as the runtime sees it (bgdoor.bot.runner.BotRunner)."""

    note: str

    def levels(self) -> list[tuple[str, str]]: ...

    def poke(self, game_id: int) -> None: ...

    def start(self, runtime: Runtime) -> None: ...

    async def stop(self) -> None: ...


class Runtime:
    def __init__(self, service: Service, config: Config, bot: Bot | None = None) -> None:
        self.config = config
        self.bot = bot
        self.guard = LoginGuard(limit=4 * config.login_attempts, delay=config.login_delay)
        self.service = Gateway(service, self.guard, self.changed, read=self.player_read)
        # Watchers in the order they came (dicts, not sets), so they are woken in a steady order.
        self._games: dict[int, dict[Wake, None]] = {}
        self._players: dict[int, dict[Wake, None]] = {}
        self._everything: dict[Wake, None] = {}  # screens that list every game (V)iew's)
        self._versions: dict[int, int] = {}  # the newest version announced or read, per watched game
        self._announced: dict[int, int] = {}  # the newest version announced: each wakes its screens once
        self._follower: asyncio.Task[None] | None = None
        self.presence = PresenceKeeper(self.service, config.presence_ttl)
        self.presence.moved = self._came_or_went
        self._changes = 0  # change notices so far: the games listed are read again after one
        self._reads = 0  # news read on some screen so far: a menu counting news looks again after one
        self._listing: tuple[int, asyncio.Future[list[GameSummary]]] | None = None
        # Who is on (player ids), looked at every presence_ttl/3 while a board waits on an opponent.
        self._online: frozenset[int] | None = None
        self._online_watch: dict[int, dict[Wake, None]] = {}
        self._looking: asyncio.Task[None] | None = None
        self._look_now = asyncio.Event()  # a watched player came on or went, here or perhaps elsewhere
        self._commits = 0  # the change feed's count of commits seen, at its last look

    def start(self) -> None:
        """Follow the change feed (commits by other processes); inside the event loop."""
        if self._follower is None:
            self._follower = asyncio.ensure_future(self._follow())

    async def _follow(self) -> None:
        while True:
            try:
                changes = await self.service.changes()
            except RuntimeError:  # the gateway is closed
                return
            except Exception:
                log.exception("the change feed failed; following it again in a second")
                await asyncio.sleep(1.0)
                continue
            for change in changes:
                if change.read:
                    player = change.players[0]
                    if player is not None:
                        self.player_read(player)
                else:
                    self.changed(change.game_id, change.version, change.players)
            if self.service.commits != self._commits and self._online_watch:
                # Something was committed: perhaps a caller of another process coming or going
                # (a door node's hang-up had been told up to ten seconds late).  Looked at within
                # the second, at most once a second.
                self._look_now.set()
            self._commits = self.service.commits

    def close(self) -> None:
        if self._follower is not None:
            self._follower.cancel()
            self._follower = None
        if self._looking is not None:
            self._looking.cancel()
            self._looking = None
        self.service.close()

    # ---- change notices

    @property
    def changes(self) -> int:
        """Change notices and news read so far: a screen that reads, then watches, can tell one
        came between (a read told while the menu re-read its news had been lost, and the menu went
        on listing what a board in another window had shown)."""
        return self._changes + self._reads

    def announce(self, view: GameView) -> None:
        """A change committed here outside the gateway (the computer opponent's)."""
        players = (view.white_id, view.black_id)
        self.service.note(view.id, view.version, players)
        self.changed(view.id, view.version, players)

    def changed(self, game_id: int, version: int | None, players: tuple[int | None, ...] = ()) -> None:
        """Game `game_id` is now at `version` (None: unknown, so wake regardless)."""
        self._changes += 1
        if version is None:
            self._versions.pop(game_id, None)  # so the screens look again
            self._announced.pop(game_id, None)
        elif game_id in self._games:
            if self._announced.get(game_id, 0) >= version:
                return  # already announced
            # A version one screen has read already is still news to the game's other screens: a
            # second window's board read the computer's reply before it was announced, and the
            # first stayed on the board before it, 'Beginner Bot to play', with no key to roll.
            self._announced[game_id] = version
            self._versions[game_id] = max(version, self._versions.get(game_id, 0))
        # Each screen once (a game's board watches its game and its player's games both), the
        # game's own watchers first.
        wakes = dict(self._games.get(game_id, {}))
        for player_id in players:
            if player_id is not None:
                wakes.update(self._players.get(player_id, {}))
        wakes.update(self._everything)
        for wake in wakes:
            wake()
        if self.bot is not None:
            self.bot.poke(game_id)

    def player_read(self, player_id: int) -> None:
        """The player read a game's news on one screen: their menus here count it again (a menu
        in another window listed as news what the board had just shown, and N)ews then said
        there was nothing new)."""
        self._reads += 1
        for wake in list(self._players.get(player_id, {})):
            wake()

    def notify(self, game_id: int) -> None:
        """A change whose version is not known here."""
        self.changed(game_id, None)

    def version(self, game_id: int) -> int | None:
        """The newest version of the game announced in this process, if any."""
        return self._versions.get(game_id)

    def seen(self, game_id: int, version: int) -> None:
        """A watched game was read at `version`: a wake for another game (the player's others)
        is then not taken for a change to this one, which nothing had announced yet."""
        if game_id in self._games and self._versions.get(game_id, 0) < version:
            self._versions[game_id] = version

    def watch(self, game_id: int, wake: Wake) -> None:
        self.start()
        self.service.follow(game_id)
        self._games.setdefault(game_id, {})[wake] = None

    def unwatch(self, game_id: int, wake: Wake) -> None:
        _drop(self._games, game_id, wake)
        if game_id not in self._games:
            self._versions.pop(game_id, None)
            self._announced.pop(game_id, None)

    def watch_player(self, player_id: int, wake: Wake, reads: bool = False) -> None:
        """Wake on changes to any game the player sits in (a menu that counts their turns); with
        `reads`, on the player's news read in another process as well (the menu counts it)."""
        self.start()
        self._players.setdefault(player_id, {})[wake] = None
        if reads:
            self.service.follow_reads(player_id)

    def unwatch_player(self, player_id: int, wake: Wake, reads: bool = False) -> None:
        _drop(self._players, player_id, wake)
        if reads:
            self.service.unfollow_reads(player_id)

    def watch_games(self, wake: Wake) -> None:
        """Wake on a change to any game (a list of the games in progress): one begun, moved in,
        joined, finished or withdrawn."""
        self.start()
        self._everything[wake] = None

    def unwatch_games(self, wake: Wake) -> None:
        self._everything.pop(wake, None)

    def watch_online(self, player_id: int, wake: Wake) -> None:
        """Wake when the player comes on or goes (a board whose opponent hangs up had said nothing
        of it), as presence tells it: one look for the whole process, every presence_ttl/3."""
        self._online_watch.setdefault(player_id, {})[wake] = None
        if self._looking is None:
            self._looking = asyncio.ensure_future(self._look_online())

    def unwatch_online(self, player_id: int, wake: Wake) -> None:
        _drop(self._online_watch, player_id, wake)

    def _came_or_went(self, players: set[int]) -> None:
        if not players.isdisjoint(self._online_watch):
            self._look_now.set()

    def online(self, player_id: int) -> bool | None:
        """Whether the player is on, as last looked; None before the first look."""
        return None if self._online is None else player_id in self._online

    async def _look_online(self) -> None:
        try:
            while self._online_watch:
                now: frozenset[int] | None
                try:
                    now = await self.service.online_players(self.config.presence_ttl)
                except ServiceError:
                    now = self._online  # a busy database: looked at again next time
                if now is not None and now != self._online:
                    changed = set(self._online_watch) if self._online is None else set(now ^ self._online)
                    self._online = now
                    for pid in changed & set(self._online_watch):
                        for wake in list(self._online_watch.get(pid, ())):
                            wake()
                # At most a look a second; sooner than the round's end where a player watched
                # came on or went here ('bob is on.' had come up to ten seconds late).
                await asyncio.sleep(1.0)
                with contextlib.suppress(TimeoutError):  # asyncio.timeout: a cancel is never lost
                    async with asyncio.timeout(max(0.0, self.config.presence_ttl / 3 - 1.0)):
                        await self._look_now.wait()
                self._look_now.clear()
        except RuntimeError:
            pass  # the gateway is closed
        finally:
            self._looking, self._online = None, None

    async def games_in_progress(self) -> list[GameSummary]:
        """The games in progress (V)iew's list, up to 100), read once for all the lists a change
        wakes: every change wakes every such list, and each had read them all afresh."""
        if self._listing is None or self._listing[0] != self._changes:
            read = asyncio.ensure_future(self.service.games_in_progress(limit=100))
            read.add_done_callback(lambda done: done.cancelled() or done.exception())  # taken, if no list waits
            self._listing = (self._changes, read)
        listing = self._listing[1]
        try:
            return list(await asyncio.shield(listing))
        except Exception:
            if self._listing is not None and self._listing[1] is listing:
                self._listing = None  # not kept: the next list reads again
            raise

    # ---- the computer opponent

    def bot_levels(self) -> list[tuple[str, str]]:
        """(label, bot handle) for each level on offer."""
        if self.bot is None:
            return []
        return list(self.bot.levels())

    @property
    def bot_note(self) -> str:
        """What a player is told when some computer levels are missing (the reason is the sysop's)."""
        if self.bot is None:
            return "The computer opponent is not available on this system."
        if getattr(self.bot, "note", ""):
            return "The strongest computer levels are not installed on this system."
        return ""


def _drop(table: dict[int, dict[Wake, None]], key: int, wake: Wake) -> None:
    wakes = table.get(key)
    if wakes is not None:
        wakes.pop(wake, None)
        if not wakes:
            del table[key]
