"""One caller's session: login, the main menu and its screens.

It runs the same over every transport (telnet, door stdio, inherited socket):
the transport hands in a Console, which turns bytes into keys and a grid of
cells into the fewest bytes.  All state changes go through the service.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import TYPE_CHECKING

from bgdoor.rules.game import Color
from bgdoor.service import (
    GameSummary,
    GameView,
    LoginFailed,
    PlayerInfo,
    ServiceError,
)
from bgdoor.term.wrap import pages, wrap
from bgdoor.ui.console import Console, Hangup, Key
from bgdoor.ui.texts import load_text

if TYPE_CHECKING:
    from bgdoor.config import Config
    from bgdoor.ui.runtime import Runtime

log = logging.getLogger("bgdoor.session")

BANNER = "B G D O O R   B A C K G A M M O N"


class Session:
    def __init__(self, console: Console, runtime: Runtime, *, peer: str = "-", door_alias: str | None = None) -> None:
        self.con = console
        self.rt = runtime
        self.svc = runtime.service.caller(peer)
        self.config: Config = runtime.config
        self.peer = peer
        self.door_alias = door_alias
        self.player: PlayerInfo | None = None

    # ------------------------------------------------------------ entry

    async def run(self) -> None:
        try:
            if self.door_alias is not None:
                # Handles are at most 16 characters; a longer BBS alias is cut, not refused.
                self.player = await self.svc.enter_from_door(self.door_alias.strip()[:16].strip())
            else:
                # A caller who says nothing (or a scanner) is not kept for the whole idle timeout.
                idle = self.con.idle_timeout
                self.con.idle_timeout = min(idle, self.config.login_timeout)
                try:
                    self.player = await self.login()
                finally:
                    self.con.idle_timeout = idle
            if self.player is None:
                return
            log.info("login %s from %s", self.player.handle, self.peer)
            self.con.apply_preferences(self.player.preferences)
            await self.main_menu()
            await self.goodbye()
        except Hangup:
            log.info("hangup %s", self.who)
        except ServiceError as exc:
            # Entering from a door can fail (a handle owned by a telnet player): say so and leave.
            await self.notice(str(exc))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("session error %s", self.who)
            await self.notice("Sorry, something went wrong and this session must end. Nothing you committed is lost.")

    @property
    def who(self) -> str:
        return f"{self.player.handle if self.player else '-'}@{self.peer}"

    async def notice(self, text: str) -> None:
        try:
            self.con.clear()
            self.con.put(12, 2, text[:78], "error")
            await self.con.show()
            await self.con.key(timeout=5)
        except Hangup:
            pass

    async def goodbye(self) -> None:
        self.con.clear()
        self.con.put(11, 2, "Thanks for playing bgdoor backgammon.", "title")
        self.con.put(12, 2, "Your games wait for you; come back soon.")
        await self.con.show()

    # ------------------------------------------------------------ login

    async def login(self) -> PlayerInfo | None:
        attempts = 0
        delay = self.config.login_delay
        while True:
            self.title_screen()
            self.con.put(10, 4, "Enter your handle, or a new one to create a player.")
            self.con.put(12, 4, "Handle: ", "prompt")
            await self.con.show()
            handle = await self.con.line(12, 12, 16)
            if handle is None or not handle.strip():
                continue
            handle = handle.strip()
            if not await self.svc.handle_exists(handle):
                self.con.put(14, 4, f"There is no player called {handle}. Create it? (Y/N) ", "prompt")
                await self.con.show()
                if not await self.yes_no(default=False):
                    continue
                first = await self.ask_password(16, "Choose a password: ")
                second = await self.ask_password(17, "Type it again:     ")
                if first != second:
                    await self.flash(19, "The passwords differ. Try again.")
                    continue
                if len(first or "") < 4:
                    await self.flash(19, "A password needs at least 4 characters.")
                    continue
                try:
                    return await self.svc.register(handle, first)
                except ServiceError as exc:
                    await self.flash(19, str(exc))
                    continue
            password = await self.ask_password(14, "Password: ")
            try:
                return await self.svc.login(handle, password or "")
            except LoginFailed as exc:
                attempts += 1
                log.info("failed login for %r from %s", handle, self.peer)
                if attempts >= self.config.login_attempts:
                    await self.flash(16, "Too many wrong passwords. Goodbye.")
                    return None
                # A growing delay makes guessing slow without locking the real player out.
                await self.flash(16, str(exc))
                await asyncio.sleep(delay)
                delay *= 2

    async def ask_password(self, row: int, prompt: str) -> str | None:
        self.con.put(row, 4, prompt, "prompt")
        await self.con.show()
        return await self.con.line(row, 4 + len(prompt), 24, secret=True)

    def title_screen(self) -> None:
        self.con.clear()
        self.con.box(2, 10, 6, 70, "frame")
        self.con.put(4, 40 - len(BANNER) // 2, BANNER, "title")
        self.con.put(5, 28, "a door game for bulletin boards", "dim")

    async def flash(self, row: int, text: str, style: str = "error") -> None:
        self.con.put(row, 4, text[:76], style)
        await self.con.show()
        await self.con.key(timeout=3)

    async def yes_no(self, default: bool) -> bool:
        while True:
            key = await self.con.key()
            if key.name == "enter":
                return default
            if key.char.upper() == "Y":
                return True
            if key.char.upper() in ("N",) or key.name == "esc":
                return False

    # ------------------------------------------------------------ main menu

    async def main_menu(self) -> None:
        assert self.player is not None
        while True:
            waiting = await self.svc.my_turn_games(self.player.id)
            self.title_screen()
            n = len(waiting)
            msg = f"{n} game{'s' if n != 1 else ''} waiting for your move." if n else "No game is waiting for your move."
            self.con.put(8, 12, f"Welcome, {self.player.handle}.  {msg}")
            sound = "ON" if self.con.sound else "OFF"
            items = [
                ("V", "View games in progress, or join one that needs a player"),
                ("P", "Play a game where it is your turn"),
                ("B", "Begin a new game"),
                ("S", f"Sound effects on or off (now {sound})"),
                ("I", "Instructions"),
                ("R", "Rank the top players"),
                ("O", "Options: colours and character set"),
                ("Q", "Quit"),
            ]
            for i, (letter, text) in enumerate(items):
                # "V)iew ...": the word's own first letter is the key.
                self.con.put(10 + i, 16, letter, "hot")
                self.con.put(10 + i, 17, ")" + text[1:])
            self.con.put(20, 16, "Your choice: ", "prompt")
            await self.con.show()
            key = await self.con.key(idle=True)
            choice = key.char.upper()
            if choice == "V":
                await self.view_games()
            elif choice == "P":
                await self.play_games()
            elif choice == "B":
                await self.begin_game()
            elif choice == "S":
                await self.set_prefs(sound=not self.con.sound)
            elif choice == "I":
                await self.pager(load_text("instructions", self.config.texts))
            elif choice == "R":
                await self.rankings()
            elif choice == "O":
                await self.options()
            elif choice in ("Q", "G") or key.name == "esc":
                return

    async def set_prefs(self, **changes: object) -> None:
        assert self.player is not None
        prefs = replace(self.player.preferences, **changes)  # type: ignore[arg-type]
        self.player = await self.svc.set_preferences(self.player.id, prefs)
        self.con.apply_preferences(self.player.preferences)

    async def options(self) -> None:
        from bgdoor.ui.board import THEMES  # noqa: PLC0415 - the board module owns the themes

        while True:
            self.con.clear()
            self.con.put(2, 4, "Options", "title")
            self.con.put(4, 4, f"Colour theme: {self.con.theme}   (T changes it)")
            self.con.put(5, 4, f"Character set: {self.con.charset}   (C changes it)")
            turned = "your home board bottom right" if self.con.orientation == "own" else "as the table stands (Black's home bottom left)"
            self.con.put(6, 4, f"Board: {turned}   (B changes it)")
            self.con.put(8, 4, "Sample: ")
            self.con.put(8, 12, self.con.sample())
            self.con.put(10, 4, "Q or Enter goes back.", "dim")
            await self.con.show()
            key = await self.con.key(idle=True)
            c = key.char.upper()
            if c == "T":
                names = list(THEMES)
                nxt = names[(names.index(self.con.theme) + 1) % len(names)] if self.con.theme in names else names[0]
                await self.set_prefs(theme=nxt)
            elif c == "C":
                order = ["cp437", "utf8", "ascii"]
                nxt = order[(order.index(self.con.charset) + 1) % 3] if self.con.charset in order else "cp437"
                await self.set_prefs(charset=nxt)
                self.con.redraw()
            elif c == "B":
                await self.set_prefs(orientation="table" if self.con.orientation == "own" else "own")
            elif c == "Q" or key.name in ("enter", "esc"):
                return

    # ------------------------------------------------------------ lists

    def game_line(self, g: GameSummary) -> str:
        white = g.white or "(open)"
        black = g.black or "(open)"
        turn = g.turn or ("needs a player" if g.status == "open" else "-")
        when = g.updated.strftime("%m-%d %H:%M")
        score = f"{g.score[0]}-{g.score[1]}/{g.length}"
        return f"#{g.id:<5} {white[:14]:<14} {black[:14]:<14} {score:<8} {turn[:14]:<14} {when}"

    async def pick(self, title: str, games: list[GameSummary], empty: str) -> GameSummary | None:
        """A numbered list; returns the chosen game, or None to go back."""
        page = 0
        per = 14
        while True:
            self.con.clear()
            self.con.put(2, 3, title, "title")
            if not games:
                self.con.put(5, 5, empty)
                self.con.put(22, 3, "Press any key.", "dim")
                await self.con.show()
                await self.con.key(idle=True)
                return None
            self.con.put(4, 3, "    Game   White          Black          Score    To act         Last move", "dim")
            shown = games[page * per : (page + 1) * per]
            for i, g in enumerate(shown):
                self.con.put(5 + i, 3, f"{i + 1:>2}) " + self.game_line(g)[:72])
            more = " N)ext page" if len(games) > (page + 1) * per else ""
            self.con.put(21, 3, f"Type a number and Enter to pick a game.{more}  Q goes back.", "dim")
            self.con.put(22, 3, "Game: ", "prompt")
            await self.con.show()
            text = await self.con.line(22, 9, 3, idle=True)
            if text is None or text.strip().upper() in ("", "Q"):
                return None
            if text.strip().upper() == "N" and more:
                page += 1
                continue
            if text.strip().isdigit() and 1 <= int(text) <= len(shown):
                return shown[int(text) - 1]

    async def view_games(self) -> None:
        assert self.player is not None
        games = await self.svc.games_in_progress(limit=100)
        g = await self.pick("Games in progress", games, "No games are in progress. B)egin one!")
        if g is None:
            return
        if g.status == "open" and self.player.handle not in (g.white, g.black):
            self.con.put(23, 3, f"Game #{g.id} needs a player. Join it? (Y/N) ", "prompt")
            await self.con.show()
            if await self.yes_no(default=True):
                view = await self.svc.join_game(self.player.id, g.id)
                await self.game_screen(view.id)
                return
        await self.game_screen(g.id)

    async def play_games(self) -> None:
        assert self.player is not None
        games = await self.svc.my_turn_games(self.player.id)
        if len(games) == 1:
            await self.game_screen(games[0].id)
            return
        g = await self.pick("Games where it is your turn", games, "No game is waiting for your move.")
        if g is not None:
            await self.game_screen(g.id)

    async def rankings(self) -> None:
        rows = await self.svc.rankings(limit=18)
        while True:
            self.con.clear()
            self.con.put(2, 3, "The top players", "title")
            self.con.put(4, 3, "Rank  Player            Rating   Won  Lost  Gammons  Exp.   Last played", "dim")
            for i, r in enumerate(rows):
                last = r.last_played.strftime("%Y-%m-%d") if r.last_played else "-"
                name = r.handle + ("*" if r.is_bot else "")
                self.con.put(5 + i, 3, f"{r.rank:>3}.  {name[:17]:<17} {r.rating:>7.1f} {r.wins:>5} {r.losses:>5} {r.gammons:>8} {r.experience:>5}   {last}")
            if not rows:
                self.con.put(6, 6, "Nobody has finished a match yet.")
                self.con.put(24, 3, "Press any key.", "dim")
                await self.con.show()
                await self.con.key(idle=True)
                return
            self.con.put(23, 3, "* a computer player.  Type a rank and Enter for that player's page; Enter goes back.", "dim")
            self.con.put(24, 3, "Rank: ", "prompt")
            await self.con.show()
            text = await self.con.line(24, 9, 3, idle=True)
            if not text or not text.strip().isdigit():
                return
            chosen = next((r for r in rows if r.rank == int(text)), None)
            if chosen is not None:
                await self.player_page(chosen.handle)

    async def player_page(self, handle: str) -> None:
        from bgdoor.records.chart import rating_chart  # noqa: PLC0415

        page = await self.svc.player_page(handle)
        p = page.player
        self.con.clear()
        self.con.put(2, 3, f"{p.handle}" + (" (computer)" if p.is_bot else ""), "title")
        since = p.created.strftime("%Y-%m-%d")
        seen = p.last_seen.strftime("%Y-%m-%d") if p.last_seen else "-"
        self.con.put(4, 3, f"Rating {p.rating:.1f}   Experience {p.experience}   Playing since {since}, last seen {seen}")
        self.con.put(5, 3, f"Matches {page.games}: won {page.wins}, lost {page.losses}.  Games won by gammon {page.gammons}, by backgammon {page.backgammons}.")
        self.con.put(7, 3, "Rating history", "hot")
        for i, line in enumerate(rating_chart(page.rating_history, 70, 12, self.con.charset)):
            self.con.put(8 + i, 5, line)
        self.con.put(24, 3, "Press any key.", "dim")
        await self.con.show()
        await self.con.key(idle=True)

    async def pager(self, text: str) -> None:
        """Text wrapped to the caller's width, a page at a time."""
        bottom = min(24, self.con.height)
        book = pages(wrap(text, self.con.width - 1), bottom - 2)
        page = 0
        while True:
            self.con.clear()
            for i, line in enumerate(book[page]):
                self.con.put(1 + i, 1, line)
            last = page == len(book) - 1
            more = "Enter: back to the menu" if last else "Enter/Space: next page"
            self.con.put_wrapped(bottom, 1, f"Page {page + 1} of {len(book)}.  {more}  B: back  Q: quit", "dim", rows=1)
            await self.con.show()
            key = await self.con.key(idle=True)
            c = key.char.upper()
            if c == "Q" or key.name == "esc":
                return
            if c == "B" or key.name in ("up", "pgup"):
                page = max(0, page - 1)
            elif last:
                return
            else:
                page += 1

    # ------------------------------------------------------------ begin

    async def begin_game(self) -> None:
        assert self.player is not None
        self.con.clear()
        self.con.put(2, 3, "Begin a new game", "title")
        self.con.put(3, 3, "Every question has a default in [brackets]; Enter accepts it. Esc goes back.", "dim")
        default = self.config.default_length
        length = default
        while True:
            self.con.put(5, 3, f"Match length, 1 to 25 points [{default}]: ", "prompt")
            await self.con.show()
            text = await self.con.line(5, 41 + len(str(default)), 2)
            if text is None:
                return
            if not text.strip():
                break
            if text.strip().isdigit() and 1 <= int(text) <= 25:
                length = int(text)
                break
            await self.flash(22, "The length is a number from 1 to 25.")
            self.con.put(22, 4, " " * 76)
        self.con.put(7, 3, "Play as W)hite, B)lack or R)andom [R]: ", "prompt")
        await self.con.show()
        color: Color | None = None
        while True:
            key = await self.con.key()
            c = key.char.upper()
            if key.name == "esc":
                return
            if c == "W":
                color = Color.WHITE
            elif c == "B":
                color = Color.BLACK
            elif not (c == "R" or key.name == "enter"):
                continue
            break
        self.con.put(7, 43, {Color.WHITE: "White", Color.BLACK: "Black", None: "Random"}[color])
        levels = self.rt.bot_levels()
        bot_text = "C)omputer, " if levels else ""
        self.con.put(9, 3, f"Opponent: O)pen seat, {bot_text}or N)amed player [O]: ", "prompt")
        if self.rt.bot_note:
            # Say why the strongest levels are missing (GNU Backgammon's engine is not installed).
            self.con.put(10, 5, self.rt.bot_note[:74], "dim")
        await self.con.show()
        opponent: str | None = None
        while True:
            key = await self.con.key()
            c = key.char.upper()
            if key.name == "esc":
                return
            if c == "O" or key.name == "enter":
                break
            if c == "C" and levels:
                opponent = await self.pick_level(levels)
                if opponent is None:
                    return
                break
            if c == "N":
                self.con.put(11, 3, "Opponent's handle: ", "prompt")
                await self.con.show()
                name = await self.con.line(11, 22, 16)
                if not name or not name.strip():
                    return
                opponent = name.strip()
                break
        try:
            view = await self.svc.begin_game(self.player.id, length, color, opponent)
        except ServiceError as exc:
            await self.flash(22, str(exc))
            return
        await self.game_screen(view.id)

    async def pick_level(self, levels: list[tuple[str, str]]) -> str | None:
        """levels: (label, bot player handle)."""
        for i, (label, _) in enumerate(levels):
            self.con.put(12 + i, 6, f"{i + 1}) {label}")
        self.con.put(12 + len(levels), 6, "Level [1]: ", "prompt")
        await self.con.show()
        while True:
            key = await self.con.key()
            if key.name == "esc":
                return None
            if key.name == "enter":
                return levels[0][1]
            if key.char.isdigit() and 1 <= int(key.char) <= len(levels):
                return levels[int(key.char) - 1][1]

    # ------------------------------------------------------------ game

    async def game_screen(self, game_id: int) -> None:
        from bgdoor.ui.game import GameScreen  # noqa: PLC0415 - keeps the menu importable on its own

        await GameScreen(self, game_id).run()

    def view_color(self, view: GameView) -> Color:
        return view.viewer_color or Color.WHITE
