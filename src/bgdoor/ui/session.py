"""One caller's session: login, the main menu and its screens.

It runs the same over every transport (telnet, door stdio, inherited socket):
the transport hands in a Console, which turns bytes into keys and a grid of
cells into the fewest bytes.  All state changes go through the service.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

from bgdoor.records.chart import rating_chart
from bgdoor.rules.game import LONGEST_MATCH, Color
from bgdoor.service import (
    HANDLE_LEAST,
    HANDLE_LIMIT,
    NAME_LIMIT,
    AccountClosed,
    GameSummary,
    GameView,
    LoginFailed,
    NotFound,
    OnlineRow,
    PlayerInfo,
    PlayerPage,
    Preferences,
    ServiceError,
    handle_problem,
    tidy_handle,
)
from bgdoor.term.console import DAY, time_words
from bgdoor.term.wrap import (
    first_fitting,
    first_sentence,
    fit,
    fit_name,
    pages,
    sentence,
    shared,
    shorten,
    shorten_whole,
    wrap,
)
from bgdoor.ui.board import MESSAGE_ROW, THEME_CHOICES, THEMES, board_rows, help_rows
from bgdoor.ui.console import WAKE, Console, Hangup, Key, Woken
from bgdoor.ui.game import GameScreen, games_wait
from bgdoor.ui.news import a_match, gather, latest_first, menu_headlines, news_page, notices_text, paging_keys
from bgdoor.ui.review import review_match
from bgdoor.ui.texts import load_text

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from bgdoor.config import Config
    from bgdoor.term.screen import Cell
    from bgdoor.ui.runtime import Runtime

log = logging.getLogger("bgdoor.session")
T = TypeVar("T")

LOGIN_TIME_UP = "Time to log in is up. Goodbye."
BEGIN_HEADER = "Every question has a default in [brackets]; Enter accepts it. Esc goes back to the menu."
ONE_PAGE = "This list has only one page."  # N at a list of one page
FIRST_PAGE = "This is the first page: N turns to the next."  # B at a list's first page
MENU_MORE = "... (N: all)"  # the end of the menu's news when more is kept for the N)ews page
NARROW_LIST = 58  # columns a game list's one-line rows need
RESULT_WIDTH = 4  # a finished match's result for the player: 'won', 'lost'
PASSWORD_LIMIT = 24  # characters the password field takes (the service allows more, for other clients)
# The menu's time left is said this much early: redrawn for 'less than a minute' at the moment the
# console warns of it, the menu wiped the warning.
MENU_TIME_LEAD = 2.0

BANNER = "B G D O O R   B A C K G A M M O N"
# What W)ho says a caller does on the page a menu key opens (see OnlineRow.doing); a game's
# board says it itself, and M)atches says 'reviewing' over a review.
PAGE_ACTIVITY = {"V": "games", "P": "games", "B": "beginning", "I": "instructions", "R": "ranks", "M": "matches",
                 "N": "news", "O": "options", "W": "who"}


def menu_time_left(deadline: float | None) -> float | None:
    """The seconds left on a call as the menu says them (MENU_TIME_LEAD early); None: no limit."""
    return None if deadline is None else deadline - time.monotonic() - MENU_TIME_LEAD


def join_question(game_id: int) -> str:
    return f"Game #{game_id} needs a player. Join it? (Y/N) [Y]"


def said_of(handle: str, why: str) -> str:
    """A reason about `handle` as a sentence on the screen; one that begins with the handle
    keeps it as it is ('bob is a computer player and cannot log in.', not 'Bob')."""
    said = sentence(why)
    begins = why[: len(handle)].casefold() == handle.casefold() and why[len(handle) : len(handle) + 1] == " "
    return why[:1] + said[1:] if begins else said


def handle_refused(handle: str, why: str) -> str:
    """Why a handle cannot be a new player's, as the login says every such reason: a sentence,
    then what to do ('That handle is too short: ... Try another.')."""
    return f"{said_of(handle, why)} Try another."


def list_score(g: GameSummary, spelled: bool = False) -> str:
    """'2-1/5'; a match won past its length ('3-0/1' read as a fraction) says the length apart:
    '0-5 (to 3)' (the points alone, '0-5', read as an unlimited session's); so does every score
    of a list that has one such (`spelled`: '0-4 (to 3)' over '1-0/1' read as two notations)."""
    score = f"{g.score[0]}-{g.score[1]}"
    return f"{score} (to {g.length})" if spelled or max(g.score) > g.length else f"{score}/{g.length}"


def news_rows(lines: list[str], results: int, width: int, more: bool = False) -> int:
    """The rows the menu's news `lines` take cut after their first sentences, the first
    `results` of them to one row (see Session.news_briefs); `more`: with '(N: all)' after the
    last (at 80x24 an offer to answer, its row full, had been cut to '(4 points, the... (N: all)'
    with the banner kept over it)."""
    rows = [1 if i < results else len(wrap(first_sentence(text), width)) for i, text in enumerate(lines)]
    if more and lines and len(lines) > results:
        rows[-1] = len(wrap(first_sentence(lines[-1]) + MENU_MORE.removeprefix("..."), width))
    return sum(rows)


def spelled_scores(games: list[GameSummary]) -> bool:
    """Whether a list's scores say their lengths apart (see list_score)."""
    return any(max(g.score) > g.length for g in games)


def centred(text: str, width: int) -> str:
    """`text` with its first line, a title set in by spaces to centre it on 80 columns, centred in
    `width` where it fits without them: at 50 columns the instructions' title had broken over two
    lines.  (Only the title: other lines set in are lists' hanging indents.)"""
    first, _, rest = text.partition("\n")
    title = first.strip()
    if len(first) <= width or not first.startswith(" ") or len(title) > width:
        return text
    return title.center(width).rstrip() + "\n" + rest


def in_place(shown: list[GameSummary], now: list[GameSummary]) -> list[GameSummary]:
    """A list's games as they are `now`: those `shown` keep their order (a move in one does not
    move the line numbers being read), and the others come after them."""
    fresh = {g.id: g for g in now}
    kept = [fresh.pop(g.id) for g in shown if g.id in fresh]
    return kept + list(fresh.values())


def who_lines(rows: list[OnlineRow]) -> list[tuple[OnlineRow, str, int]]:
    """W)ho's lines: each player, what they are doing, and how many callers the line stands for.
    A player in on several lines at once (two door nodes) is one line that says so: 'alice  here
    playing game #3' stood twice, and 'alice  here  at the menu' beside it, nothing telling one
    player's sessions from two players."""
    lines: dict[tuple[str, str], list[OnlineRow]] = {}
    for r in rows:
        lines.setdefault((r.name, r.board), []).append(r)
    said = []
    for same in lines.values():
        doing = "; ".join(dict.fromkeys(r.doing() for r in same))
        said.append((same[0], doing if len(same) == 1 else f"{doing} ({len(same)} sessions)", len(same)))
    return said


def turns_come(waiting: list[GameSummary], before: dict[int, bool]) -> str:
    """The sound for the games `waiting` for the player that came since `before` (each game's id:
    whether it had an offer to answer): 'double' for an offer, 'your_turn' for a turn, else ''."""
    if any(g.offer and not before.get(g.id, False) for g in waiting):
        return "double"
    return "your_turn" if any(g.id not in before for g in waiting) else ""


def worth_showing(cut: str, text: str) -> bool:
    """Whether `cut` (a menu news item cut to its rows, '... (N: all)' after it) says enough of
    `text` to show: cut after a sentence, or keeping most of it.  '#6: JackTheGammonKid... (N:
    all)' and '#8: Opening roll, after a tie at 4: JackTheGammonKid 5...' (who rolled what cut
    off) had said less than leaving the item to N."""
    kept = cut.removesuffix(MENU_MORE)
    return text[len(kept):len(kept) + 1] in (".", "") or len(kept) > len(text) * 2 // 3


class Session:
    def __init__(
        self,
        console: Console,
        runtime: Runtime,
        *,
        peer: str = "-",
        door_alias: str | None = None,
        player: PlayerInfo | None = None,
        board: str = "",
    ) -> None:
        """player: already known (a member BBS's RLogin caller); board: their BBS's tag."""
        self.con = console
        self.rt = runtime
        self.svc = runtime.service.caller(peer, notice=self.saving)
        self.config: Config = runtime.config
        self.peer = peer
        self.door_alias = door_alias
        self.player: PlayerInfo | None = player
        self._under: list[tuple[int, list[Cell]]] = []  # the bottom lines under a "Saving..." notice
        self.ended = ""  # why the session ended, for the log
        # What the caller chose to lose of the board to play on their terminal ("narrow": its right
        # side, "points": some of its points too, "short": its bottom lines); a cut not chosen yet
        # is asked about when it comes.
        self.cuts_ok: set[str] = set()
        self.board = board
        self.presence_key = runtime.presence.new_key()
        self.menu_notice = ""  # said once beside the menu's prompt (what a screen left doing)
        # Why list_answer refused the last key, until a key that works: a list laid out again for
        # a change elsewhere says it again (V)iew's, following a live game, had wiped it at once).
        self.list_hint = ""
        self.yes_no_refused = False  # the last key at a Y/N question was no answer (see yes_no_key)
        self.present = False

    # ------------------------------------------------------------ entry

    async def run(self) -> None:
        try:
            await self._run()
        finally:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                # A process shutting down: no more writes; the row expires by itself.
                self.rt.presence.forget(self.presence_key)
            elif self.present:
                self.rt.presence.drop(self.presence_key)

    def presence(self, activity: str, game_id: int | None = None) -> None:
        """Tell every process's W)ho what this caller is doing."""
        if self.player is None:
            return
        self.present = True
        self.rt.presence.set(self.presence_key, self.player.id, self.board, activity, game_id)

    async def _run(self) -> None:
        try:
            if self.player is not None:
                pass  # the transport knows who is calling
            elif self.door_alias is not None:
                # No time left on the call: back to the BBS before the caller is entered (a player
                # had been made, and logged as logged in, of a caller who never saw the menu).
                await self.con.end_if_time_is_up()
                # The alias exactly: the service finds the player by it and makes the handle shown.
                self.player = await self.svc.enter_from_door(self.door_alias)
            else:
                # A caller who says nothing (or a scanner) is not kept for the whole idle timeout.
                idle = self.con.idle_timeout
                self.con.idle_timeout = min(idle, self.config.login_timeout)
                # The same words as the server's login clock, whichever of the two runs out first.
                self.con.idle_notice = LOGIN_TIME_UP
                try:
                    self.player = await self.login()
                finally:
                    self.con.idle_timeout = idle
                    self.con.idle_notice = None
            if self.player is None:
                self.ended = self.ended or "not logged in"
                return
            log.info("login %s from %s", self.player.handle, self.peer)
            # Said in a goodbye the call's clock makes only to a player with games; a game begun
            # or opened says it from then on (GameScreen), and each look at the menu again (one
            # withdrawn or removed since had left it said to a player with none).
            await games_wait(self.con, self.svc, self.player.id)
            # W)ho counts the caller from here, on a notice before the menu too (as arriving: 'at
            # the menu' had been said of a caller still reading why their handle changed).
            self.presence("arriving" if self.player.handle_note else "menu")
            if self.player.handle_note:
                await self.tell(self.player.handle_note)
            self.con.apply_preferences(self.player.preferences)
            await self.main_menu()
            self.ended = "quit"
            await self.goodbye()
        except Hangup as exc:
            reason = str(exc)
            self.ended = {"eof": "hang-up", "idle": "idle", "time": "time up", "closed": "closed by the BBS"}.get(
                reason, reason or "hang-up")
            if self.door_alias is not None and reason in ("idle", "time"):
                await self.con.pause(self.config.door_goodbye_wait)  # the notice, before the BBS's screen
        except AccountClosed:
            # Deleted by the sysop while on: the session had gone on as "(deleted)", beginning
            # games nobody could ever finish.
            self.ended = "account closed"
            back = " Back to the BBS." if self.door_alias is not None else ""
            await self.notice(f"The sysop has closed your account, so this call ends.{back}")
        except ServiceError as exc:
            # Entering from a door can fail (a handle owned by a telnet player): say so and leave.
            self.ended = f"refused: {exc}"
            await self.notice(str(exc))
        except asyncio.CancelledError:
            self.ended = "server shutting down"
            raise
        except Exception:
            self.ended = "error"
            log.exception("session error %s", self.who)
            await self.notice("Sorry, something went wrong and this session must end. Nothing you committed is lost.")
        finally:
            log.info("session end %s: %s", self.who, self.ended or "hang-up")

    async def saving(self, text: str | None) -> None:
        """The gateway's word that a write is slow ("Saving..."), over the bottom line; None puts it back."""
        row = min(24, self.con.height)
        cells = self.con.screen.canvas.cells
        for r, line in self._under:
            cells[r - 1][:] = line
        self._under = []
        if text is not None:
            # Wrapped over the bottom rows it needs: on one row, the login hold's reason was cut
            # at 40 columns ('...after wrong passwo').
            lines = wrap(text, self.con.width - 1)[:3]
            top = row - len(lines) + 1
            self._under = [(top + i, list(cells[top + i - 1])) for i in range(len(lines))]
            for i, said in enumerate(lines):
                self.con.put(top + i, 1, said.ljust(self.con.width - 1), "error")
        await self.con.show()

    @property
    def who(self) -> str:
        # Before a login the door's alias: a drop file giving no time had logged '-@node 1'.
        return f"{self.player.handle if self.player else self.door_alias or '-'}@{self.peer}"

    async def notice(self, text: str) -> None:
        try:
            self.con.clear()
            self.con.put_wrapped(10, 2, text, "error", right=self.con.width - 1)
            await self.con.show()
            await self.con.key(timeout=5)
        except Hangup:
            pass

    async def goodbye(self) -> None:
        # W)ho had said 'at the menu' of a door caller on the goodbye screen.
        self.presence("leaving")
        back = " Returning you to the BBS..." if self.door_alias is not None else ""
        try:
            games = self.player is not None and bool(await self.svc.my_games(self.player.id))
        except ServiceError:
            games = True  # as it was said before the games could be counted
        # Said only to a player with games under way: it had been said to one with none.
        rest = ("Your games wait for you; come back soon." if games else "Come back soon.") + back
        self.con.clear()
        thanks = "Thanks for playing bgdoor backgammon."
        # Mid-screen, or as high as a short screen needs for all of it.
        needs = len(wrap(rest, self.con.width - 2)) + len(wrap(thanks, self.con.width - 2))
        row = max(1, min(11, self.con.height - needs))
        row += self.con.put_wrapped(row, 2, thanks, "title", right=self.con.width - 1)
        self.con.put_wrapped(row, 2, rest, right=self.con.width - 1)
        await self.con.show()
        if self.door_alias is not None and self.config.door_goodbye_wait > 0:
            # The BBS's next screen would wipe the goodbye at once: leave it up for a moment.
            try:
                await self.con.key(timeout=self.config.door_goodbye_wait)
            except Hangup:
                pass

    # ------------------------------------------------------------ login

    def login_intro(self) -> list[str]:
        """The login's first lines: the handle's limit said where two lines have room for it, or
        three on a screen tall enough for them and every question under them (at 40 columns it was
        left out, and typing stopped at the limit with only a bell), and the sentence whole on
        three where it needs them (it lost 'player.' at 30 columns)."""
        room = self.con.width - 4
        said = (f"Enter your handle, or a new one ({HANDLE_LEAST} to {HANDLE_LIMIT} characters) to create a player.",
                "Enter your handle, or a new one to create a player.")
        most = 3 if self.con.height >= 12 else 2
        return next((wrap(text, room) for text in said if len(wrap(text, room)) <= most), wrap(said[-1], room)[:3])

    def login_handle_row(self) -> int:
        """The handle's row, under the login's first lines; what follows goes from two under it."""
        return self.login_top() + max(2, len(self.login_intro()))

    def login_top(self) -> int:
        """The row of the login's first line: under the banner, or at the top of a screen too
        short for the banner and every question under it (fewer than 22 rows)."""
        return 10 if self.con.height >= 22 else 2

    async def login(self) -> PlayerInfo | None:
        attempts = 0
        delay = self.config.login_delay
        # Why the last handle or password was refused: it stays under the prompt while the next
        # handle is typed (shown for a moment only, a slow reader never saw why).
        notice = typed = ""
        notice_style = "error"

        def handle_screen(handle: str = "") -> int:
            """The screen up to the handle; the row under it for what comes next."""
            top = self.login_top()
            if top > 2:
                self.title_screen()
            else:
                self.con.clear()
            for i, line in enumerate(self.login_intro()):
                self.con.put(top + i, 4, line)
            row = self.login_handle_row()
            self.con.put(row, 4, "Handle: ", "prompt")
            self.con.put(row, 12, handle, "input")
            return row + 2

        while True:
            below = handle_screen()
            told = self.con.put_wrapped(below, 4, notice, notice_style, right=self.con.width - 1) if notice else 0
            notice_style = "error"

            def full(refused: bool, below: int = below) -> None:
                """A character past the limit: why it was not taken, where a refusal goes (the
                bell alone said nothing); a backspace takes it back."""
                nonlocal told
                for i in range(told):
                    self.con.put(below + i, 4, " " * (self.con.width - 4))
                told = 0
                if refused:
                    told = self.con.put_wrapped(below, 4, f"A handle has at most {HANDLE_LIMIT} characters.", "error",
                                                right=self.con.width - 1)

            try:
                handle = await self.con.line(below - 2, 12, HANDLE_LIMIT, initial=typed, wake=True, full=full)
            except Woken as woken:
                typed = woken.text  # the window changed size: the screen again at the new width
                continue
            typed = ""
            for i in range(told):
                self.con.put(below + i, 4, " " * (self.con.width - 4))
            notice = ""
            if handle is None:
                # Esc had done nothing and said nothing, as had an empty Enter.
                notice = "Esc: nothing comes before this. Type a handle and Enter, or hang up to leave."
                continue
            if not handle.strip():
                notice = "Type a handle first, then Enter."
                continue
            handle = handle.strip()
            problem = handle_problem(handle)
            if problem:
                # Said now, not after two passwords have been typed.
                notice = handle_refused(handle, problem)
                continue
            if not await self.svc.handle_exists(handle):
                # A new handle is kept with its runs of spaces made one: `a  b` is `a b`.  (As
                # typed it found a player from before that, who keeps the run and logs in by it.)
                handle = tidy_handle(handle)
                # Taken without regard to case, like another player's by look, or not drawable
                # on every terminal: said before anything more is asked.
                problem = await self.svc.new_handle_problem(handle)
                if problem:
                    notice = handle_refused(handle, problem)
                    continue
                # 'called x_y-z.' ends the sentence itself, as 'called x_y-z..' did twice.
                # Enter's answer shown, as the B)egin form's defaults are.
                question = f"{sentence(f'There is no player called {handle}')} Create it? (Y/N) [N]"
                # Keys typed on before the question showed answer nothing: a password typed
                # after a mistyped handle was taken as the answer, and its rest as the next handle.
                self.con.discard_typed()

                def ask(handle: str = handle, question: str = question) -> None:
                    """The question under the handle, laid out for the window as it is now."""
                    self.con.put_wrapped(handle_screen(handle), 4, question, "prompt", right=self.con.width - 1)

                ask()
                await self.con.show()
                if not await self.yes_no(default=False, again=ask):
                    # The answer said, as Y's is: with Enter meaning No, nothing had shown which was taken.
                    notice, notice_style = f"No: {handle} was not created. Type a handle, then Enter.", "normal"
                    continue
                chosen = await self.choose_password(handle, question, handle_screen)
                if chosen is None:
                    # Esc: back to the handle, said as a No to 'Create it?' is (it had come back
                    # to an empty 'Handle:' without a word).
                    notice, notice_style = f"No: {handle} was not created. Type a handle, then Enter.", "normal"
                    continue
                try:
                    return await self.svc.register(handle, chosen)
                except ServiceError as exc:
                    # Taken meanwhile ('...; choose another'), or a password the service refuses.
                    notice = said_of(handle, str(exc))
                    continue

            # A handle the guard holds back just now (a try, as a wrong password is), a computer
            # player or a door player: said before a password is typed in vain.
            refused = self.svc.login_refusal(handle)
            if refused:
                attempts += 1
                log.info("login refused from %s for %r: %s", self.peer, handle, refused)
                if attempts >= self.config.login_attempts:
                    self.ended = "too many wrong passwords"
                    await self.flash(self.login_handle_row() + 2, "Too many wrong passwords. Goodbye.")
                    return None
                notice = refused
                # The password typed on after the handle would be read, and shown, as the next
                # handle ('There is no player called MySecret9'), wiping the refusal at once.
                self.con.discard_typed()
                continue
            problem = await self.svc.login_problem(handle)
            if problem:
                notice = said_of(handle, problem)
                self.con.discard_typed()  # a password typed on must not become the next handle
                continue

            def back(handle: str = handle) -> int:
                return handle_screen(handle)

            password = await self.ask_password(below, "Password: ", back)
            while password == "":
                # Enter alone: no try at all, so none counted (four had locked the player out of
                # their own handle, 'Wrong handle or password.' each time).
                self.say_under_login("Type your password, then Enter; Esc goes back to the handle.")
                password = await self.ask_password(below, "Password: ", back)
            self.say_under_login("")
            if password is None:
                # Esc: back to the handle.  Counted as a wrong password, three of them locked
                # the real player out of the handle for minutes.
                notice = ""
                continue
            try:
                return await self.svc.login(handle, password)
            except LoginFailed as exc:
                attempts += 1
                log.info("failed login for %r from %s", handle, self.peer)
                if attempts >= self.config.login_attempts:
                    self.ended = "too many wrong passwords"
                    await self.flash(self.login_handle_row() + 4, "Too many wrong passwords. Goodbye.")
                    return None
                # A growing delay makes guessing slow without locking the real player out.
                why = str(exc)
                notice = said_of(handle, why)  # 'Wrong handle or password.'
                self.say_under_login(notice)
                await self.con.show()
                await asyncio.sleep(delay)
                delay *= 2

    async def choose_password(self, handle: str, question: str, handle_screen: Callable[[str], int]) -> str | None:
        """A new player's password, typed twice; None for Esc.  Too short, or the two differing,
        is said under the prompts and the password asked again (not the handle)."""

        def first_row() -> int:
            """The first password's row, under the question and its answer as the window's width
            wraps them."""
            gap = 1 if self.con.height >= 14 else 0  # a very short screen has no row to spare
            return self.login_handle_row() + 2 + self.answered_at(question, "Yes")[0] + 1 + gap

        def asked() -> int:
            """The screen up to the passwords again (the window changed size); their first row."""
            self.put_answered(handle_screen(handle), question, "Yes")
            return first_row()

        down, col = self.answered_at(question, "Yes")
        self.con.put(self.login_handle_row() + 2 + down, col, "Yes", "normal")  # as put_answered

        def say(text: str) -> int:
            """Why the password is asked again, under the prompts (or as low as the screen has
            room for it); the rows it took."""
            lines = len(wrap(text, self.con.width - 4))
            row = max(first_row() + 1, min(first_row() + 3, self.con.height - lines + 1))
            return row + self.con.put_wrapped(row, 4, text, "error", right=self.con.width - 1) - 1

        said = 0  # the last row a reason took

        def unsay() -> None:
            nonlocal said
            for r in range(first_row() + 1, said + 1):
                self.con.put(r, 4, " " * (self.con.width - 3))
            said = 0

        while True:
            first = await self.ask_password(first_row(), "Choose a password: ", asked, stale=unsay)
            unsay()
            if first is None:
                return None
            if len(first) < 4:
                self.con.put(first_row(), 4, " " * (self.con.width - 3))
                said = say("A password needs at least 4 characters. Choose another.")
                continue

            def asked_again(chosen: str = first) -> int:
                row = asked()
                self.con.put(row, 4, "Choose a password: ", "prompt")
                self.con.put(row, 4 + len("Choose a password: "), "*" * len(chosen), "input")
                return row + 1

            second = await self.ask_password(first_row() + 1, "Type it again:     ", asked_again)
            if second is None:
                return None
            if first == second:
                return first
            for row in (first_row(), first_row() + 1):
                self.con.put(row, 4, " " * (self.con.width - 3))
            said = say("The passwords differ. Choose a password again.")

    def answered_at(self, question: str, answer: str) -> tuple[int, int]:
        """Where `answer` goes after `question` wrapped at column 4, as rows under its first and
        a column: after its last line, or at the start of the next when it does not fit there."""
        lines = wrap(question, self.con.width - 4)
        col = 4 + len(lines[-1]) + 1
        if col + len(answer) - 1 > self.con.width - 1:
            return len(lines), 4
        return len(lines) - 1, col

    def put_answered(self, row: int, question: str, answer: str) -> None:
        """A one-key question from `row` with the word its key answered after it, as the B)egin
        form shows its answers."""
        self.con.put_wrapped(row, 4, question, "prompt", right=self.con.width - 1)
        down, col = self.answered_at(question, answer)
        self.con.put(row + down, col, answer, "normal")

    def say_under_login(self, text: str) -> None:
        """`text` on the rows under the login's password, what stood there before gone ('' clears)."""
        row = self.login_handle_row() + 4
        for r in range(row, min(row + 2, self.con.height) + 1):
            self.con.put(r, 4, " " * (self.con.width - 4))
        if text:
            self.con.put_wrapped(row, 4, text, "error", right=self.con.width - 1, rows=2)

    async def ask_password(self, row: int, prompt: str, again: Callable[[], int],
                           stale: Callable[[], None] | None = None) -> str | None:
        """A password typed at `row`; `again` draws the screen above it anew when the window
        changes size, and gives the prompt's row then (what was typed stays typed).  `stale` takes
        away why the last password was refused, once the field says it is full: 'A password needs
        at least 4 characters' had stood under 'A password has at most 24 characters'."""
        typed = ""
        said = min(row + 1, self.con.height)  # where a full field is said: the row under (empty till then)
        told = False

        def full(refused: bool) -> None:
            # Past the 24th character only the bell had rung.  One row: a refusal below (a wrapped
            # 'Choose another.') is left whole.
            nonlocal told
            if told or refused:
                self.con.put(said, 4, " " * (self.con.width - 4))
            told = refused
            if refused and stale is not None:
                stale()
            if refused:
                words = (f"A password has at most {PASSWORD_LIMIT} characters.",
                         f"At most {PASSWORD_LIMIT} characters.")
                self.con.put(said, 4, first_fitting(words, self.con.width - 5, words[-1]), "error")

        while True:
            self.con.put(row, 4, prompt, "prompt")
            try:
                password = await self.con.line(row, 4 + len(prompt), PASSWORD_LIMIT, secret=True, initial=typed,
                                               wake=True, full=full)
            except Woken as woken:
                typed, row = woken.text, again()
                said, told = min(row + 1, self.con.height), False
                continue
            full(False)
            return password

    def title_screen(self) -> None:
        self.con.clear()
        w = self.con.width
        half = min(30, (w - 2) // 2)
        mid = w // 2
        self.con.box(2, mid - half, 6, mid + half, "frame")
        # Inside the box, or in fewer letters where it is narrower than they are.
        inside = 2 * half - 1
        banner = first_fitting((BANNER, "BGDOOR BACKGAMMON", "BGDOOR"), inside, "")
        self.con.put(4, mid - len(banner) // 2, banner, "title")
        sub = first_fitting(("a door game for bulletin boards", "a BBS door game"), inside, "")
        self.con.put(5, mid - len(sub) // 2, sub, "dim")

    async def flash(self, row: int, text: str, style: str = "error") -> None:
        # No lower than a short screen has room for.
        row = max(1, min(row, self.con.height - len(wrap(text, self.con.width - 4)) + 1))
        rows = self.con.put_wrapped(row, 4, text, style, right=self.con.width - 1)
        await self.con.show()
        await self.con.pause(3)  # a key typed meanwhile goes to what comes next
        for i in range(rows):
            self.con.put(row + i, 4, " " * (self.con.width - 4))

    async def tell(self, text: str) -> None:
        """A message the caller must see once (a handle they did not choose): shown until a key (a
        minute at most), laid out again when the window's size comes or changes (an RLogin
        caller's, learned after it was drawn for 80 columns on a 40-column screen)."""
        until = time.monotonic() + 60
        while True:
            # Whole, in the rows under the banner, or without the banner where they are too few:
            # at 40 columns six rows had cut 'so you are' from the handle it went on to name.
            top = 9
            if top + len(wrap(text, self.con.width - 4)) + 2 > self.con.height:
                self.con.clear()
                top = 1
            else:
                self.title_screen()
            rows = self.con.put_wrapped(top, 4, text, right=self.con.width - 1, rows=max(1, self.con.height - top - 2))
            self.con.put_wrapped(top + 1 + rows, 4, "Press any key to go on.", "prompt", right=self.con.width - 1)
            await self.con.show()
            if await self.con.key_or_resize(max(0.0, until - time.monotonic())) is not WAKE:
                return

    async def yes_no(self, default: bool, again: Callable[[], None]) -> bool:
        """The answer to a Y/N question; `again` draws it anew when the window changes size (it had
        stayed laid out for the old width, cut, and what came next landed on the wrong rows)."""
        while True:
            key = await self.con.key_or_resize()
            if key is WAKE:
                again()
                if self.yes_no_refused:
                    self.hint(None, "Y or N.")
                await self.con.show()
                continue
            answer = await self.yes_no_key(key, default)
            if answer is not None:
                return answer

    async def yes_no_key(self, key: Key, default: bool, asked: str = "") -> bool | None:
        """The answer `key` gives to a Y/N question; None, said why, for any other key.  `asked`:
        the question, said again with why (for one drawn where the reason goes)."""
        answer: bool | None = None
        again = f" {asked}" if asked else ""
        rows = 3 if asked else 2
        if key.name == "enter" and self.yes_no_refused:
            # Right after a refused key: 'x' and Enter had answered as Enter does, unseen.
            self.yes_no_refused = False
            self.hint(None, f"Enter again for {'Yes' if default else 'No'}; or Y or N.{again}", rows=rows)
            await self.con.show()
            return None
        if key.name == "enter":
            answer = default
        elif key.char.upper() == "Y":
            answer = True
        elif key.char.upper() in ("N",) or key.name == "esc":
            answer = False
        self.yes_no_refused = answer is None
        self.hint(None if answer is not None else key, "" if answer is not None else f"Y or N.{again}", rows=rows)
        if answer is None:
            await self.con.show()
        return answer

    # ------------------------------------------------------------ main menu

    def quit_item(self) -> tuple[str, str, str, str]:
        """The menu's Q: a door caller is told the time left on the call, as the menu is drawn
        (the warning two minutes before the end went at the next key, and nothing said it again)."""
        seconds = menu_time_left(self.con.deadline)
        if seconds is None:
            return ("Q", "Quit", "Quit", "Quit")
        left = f"{time_words(seconds)} left"
        back = "back to the BBS" if self.con.door else "goodbye"
        return ("Q", f"Quit, {back} ({left} on this call)", f"Quit ({left})", "Quit")

    def quit_item_changes(self) -> float | None:
        """Seconds until quit_item's time left reads otherwise ('2 minutes' from 90 s left, see
        time_words); None when it will not (no time limit, or under a minute already)."""
        left = menu_time_left(self.con.deadline)
        if left is None or left < 60:
            return None
        if left >= DAY:
            return left - DAY + 0.05  # 'more than a day' until then
        minutes = round(left / 60)
        return max(0.0, left - ((minutes - 0.5) * 60 if minutes >= 2 else 60.0)) + 0.05

    async def main_menu(self) -> None:
        assert self.player is not None
        refused = ""  # why the last key did nothing
        style = "error"
        drawn: tuple[int, list[str]] | None = None  # the count and the news the menu showed
        # The games waiting for the player (with an offer to answer or not) and the results told
        # when the menu was drawn: what comes since rings (S)ound on).
        rang: tuple[dict[int, bool], set[tuple[int, int]]] | None = None
        woken = False  # drawn again for a change elsewhere, not for a key
        once = False  # what is said beside the prompt is what a screen left doing, not why a key did nothing
        # What is said there is a notice of another's doing (a withdrawal, the sysop's): it stays
        # until a key, news or not.  Said once and then cleared, news coming seconds later ('bob
        # joined your game.') had wiped 'alice withdrew from game #3 ...' before it was read.
        lasting = False
        while True:
            if self.menu_notice:
                refused, self.menu_notice, style, once = self.menu_notice, "", "hot", True
            self.presence("menu")
            seen = self.rt.changes
            waiting = await self.svc.my_turn_games(self.player.id)
            news, more = await gather(self.svc, self.player.id)
            counted = (len(waiting), latest_first(news))
            notices = await self.svc.notices(self.player.id)
            if notices and all(n.kind == "handle" for n in notices):
                # The first visit's note, told before the menu: reached, it has been read.
                await self.svc.clear_notices(self.player.id, notices[-1].id)
            notices = [n for n in notices if n.kind != "handle"]
            # News, not a count alone: 'Game #5 is withdrawn.' had gone when a turn came or went,
            # nothing said in its place.
            news_came = bool(set(counted[1]) - set(drawn[1] if drawn is not None else []))
            if woken and once and not lasting and news_came and not notices:
                # News came: a notice of what a screen left doing ('Game #5 is withdrawn.') is
                # said once, and had stood beside the prompt minutes later, among news of other
                # games.  Why a key did nothing stays until the next key.  A notice that comes
                # with the news goes after it (two games removed at once had told only the second).
                refused, once = "", False
            # With S)ound on, a result, an offer or a turn that comes while the menu waits rings
            # as it does on a board (nothing rang at the menu, where a player waiting for a turn
            # sits); an offer to resign made on the player's own turn too.
            result_news = {(log.game.id, n.seq): n.text for _, log, lines in news for n in lines if n.result}
            if woken and rang is not None:
                new_results = [text for key, text in result_news.items() if key not in rang[1]]
                if new_results:
                    self.con.bell("win" if any(t.startswith("You win") for t in new_results) else "lose")
                elif came := turns_come(waiting, rang[0]):
                    self.con.bell(came)
            rang = ({g.id: g.offer for g in waiting}, set(result_news))
            woken, drawn = False, counted
            # Greeted by the handle as it is now: a sysop's rename told in the player's other
            # session (another node) had left this one greeting them by the old one.
            self.player = await self.svc.player(self.player.id)
            await games_wait(self.con, self.svc, self.player.id)
            if notices:
                # A game gone without a record to read (withdrawn, removed): said once, here. It
                # says who and why where the board could only say the game was no longer there.
                notes = notices_text(notices, self.player)
                gone = {f"Game #{n.game_id} is no longer there" for n in notices}
                kept = "" if any(refused.startswith(g) for g in gone) else refused
                refused, style, once, lasting = f"{kept} {notes}".strip(), "hot", True, True
                await self.svc.clear_notices(self.player.id, notices[-1].id)
            sound = "ON" if self.con.sound else "OFF"
            # Each item as said on 80 columns, in at most 36 for a 40-column terminal, and in at
            # most 16 for two columns of them on a short one.
            items = [
                ("V", "View games in progress, or join one that needs a player", "View games, or join one",
                 "View games"),
                ("P", "Play a game where it is your turn", "Play where it is your turn", "Play"),
                ("B", "Begin a new game", "Begin a new game", "Begin a game"),
                ("S", f"Sound effects on or off (now {sound})", f"Sound on or off (now {sound})", f"Sound ({sound})"),
                ("I", "Instructions", "Instructions", "Instructions"),
                ("R", "Rank the top players", "Rank the top players", "Rank players"),
                ("W", "Who's online, on every node and board", "Who's online", "Who's online"),
                ("M", "Matches you finished: review them", "Matches finished: review", "Matches"),
                ("N", "News from your games since you last looked", "News from your games", "News"),
                ("O", "Options: colour theme, character set, board and notes", "Options", "Options"),
                self.quit_item(),
            ]
            # Under 22 rows the banner gives way; under 14, the items go in two columns.  So it does
            # to a message longer than the rows under the menu (several notices at 40 columns had
            # been cut after three lines).
            left = 16 if self.con.width >= 74 else 2  # the longest item is 56 columns

            def under(left: int, said: str = refused, style: str = style) -> int:
                """The rows `said` takes under the prompt: none where it goes beside it (a refusal
                of a key typed there; a notice goes under it, or it read as a typed answer)."""
                if not said or (style == "error" and len(wrap(said, self.con.width - (left + 14))) == 1):
                    return 0
                return len(wrap(said, self.con.width - left))

            lines, order, leading, results = menu_headlines(news)
            # Rows under the banner's menu for the news, after its heading; the results and offers
            # to answer, each cut after its first sentence, are worth more than the banner (at
            # 80x24 a lost match's result over two rows had left out the double waiting under it).
            news_room = self.con.height - 1 - (7 + 2 + len(items) + 1) - under(left)
            further = len(lines) > leading or more  # '(N: all)' goes after the last of them
            needed = news_rows(lines[:leading], 0, self.con.width - 6, further)
            tall = self.con.height >= 22 and under(left) <= self.con.height - (7 + 2 + len(items) + 1) \
                and needed <= news_room
            if tall:
                self.title_screen()
            else:
                self.con.clear()
            greet_row = 7 if tall else 1
            n = len(waiting)
            games = f"{n} game{'s' if n != 1 else ''}"
            line_room = self.con.width - min(12, left)
            # The count in words that fit one line (a cut one lost its last word at 30 columns).
            # An offer to answer said so: once its news was read (the game opened, left unanswered)
            # the menu had said nothing of it but the count.
            asks = sum(1 for g in waiting if g.offer)
            if not n:
                said = ("No game is waiting for your move.", "No game waits for you.", "Your turn: none.")
            elif not asks:
                said = (f"{games} waiting for your move.", f"{games} wait for you.", f"Your turn: {games}.")
            elif asks == n:
                said = (f"{games} waiting for your answer.", f"{games} wait for your answer.", f"Your turn: {games}.")
            else:
                # The moves apart from the answers: '4 games waiting for your move, 2 for your
                # answer' with four games in all had read as six.
                moves = f"{n - asks} game{'s' if n - asks != 1 else ''}"
                said = (f"{moves} waiting for your move, {asks} for your answer.",
                        f"{moves} to move, {asks} to answer.", f"Your turn: {games}.")
            msg = first_fitting(said, line_room, said[-1])
            hello = sentence(f"Welcome, {self.player.handle}")  # 'bob!' is not greeted 'bob!.'
            welcome = f"{hello}  {msg}"
            if len(wrap(welcome, line_room)) > 1:
                # A long handle on a narrow screen: the greeting goes on a line of its own, so
                # that the count is not cut off.
                self.con.put_wrapped(greet_row, min(12, left), hello,
                                     right=self.con.width - 1, rows=1)
                welcome = msg
            self.con.put_wrapped(greet_row + 1, min(12, left), welcome, right=self.con.width - 1, rows=1)
            item_top = greet_row + 2
            # Two columns where one leaves too few rows under the prompt for a message, too (at
            # 40x18, with no banner left to give way, notices were cut after three lines).
            # So too where the results and offers to answer need the rows, each result cut to one
            # (at 80x20 a double waiting had been left out under two results).
            single_room = self.con.height - 1 - (item_top + len(items) + 1) - under(left)
            columns = 1 if under(left) <= self.con.height - (item_top + len(items) + 1) \
                and news_rows(lines[:leading], results, self.con.width - 6, further) <= single_room else 2
            per = -(-len(items) // columns)
            if columns == 2 and left > 2:
                left = 2
            # "V)iew ..." takes one more than the item, and the last column stays free.
            room = (self.con.width - left) // columns - (1 if columns > 1 else 0)
            for i, (letter, long, short, tiny) in enumerate(items):
                text = first_fitting((long, short), room - 1, tiny)
                row, col = item_top + i % per, left + (i // per) * (room + 1)
                # "V)iew ...": the word's own first letter is the key.
                self.con.put(row, col, letter, "hot")
                self.con.put(row, col + 1, (")" + text[1:])[: room - 1])
            prompt_row = item_top + per
            self.con.put(prompt_row, left, "Your choice: ", "prompt")
            news_top = prompt_row + 1
            told = (refused, style)  # drawn again, as it was, when a change elsewhere redraws the menu
            if refused:
                right = self.con.width - 1
                if not under(left):
                    self.con.put(prompt_row, left + 14, refused, style)
                else:
                    # Too long for the prompt's line (a storage refusal, a narrow screen): whole,
                    # under it, and the news below that (in the rows left: see tall).
                    rows = max(3, min(len(wrap(refused, right - left + 1)), self.con.height - news_top))
                    news_top += self.con.put_wrapped(news_top, left, refused, style, right=right, rows=rows)
                refused = ""
            self.menu_news(lines, order, news_top, more, leading, results)
            # The terminal's cursor waits after the prompt, as a BBS menu's does (it was left wherever
            # the last screen or the news under the menu ended).
            self.con.text_cursor((prompt_row, left + len("Your choice: ")))
            await self.con.show()
            # A change to one of the player's games (in any process) redraws the count above; so
            # does the time left on a door call changing its words (Q)uit's '2 minutes' stood
            # beside the warning 'less than a minute left').
            # Its news read on a board in another process too (the player's other node).
            self.rt.watch_player(self.player.id, self.con.wake, reads=True)
            if self.rt.changes != seen:
                # A change came while the menu read and drew, before it watched: looked at again (a
                # play made then had stood unsaid under the menu until a key).
                self.con.wake()
            retell = self.quit_item_changes()
            timer = asyncio.get_running_loop().call_later(retell, self.con.wake) if retell is not None else None
            try:
                key = await self.con.key(idle=True, wake=True)
            finally:
                self.rt.unwatch_player(self.player.id, self.con.wake, reads=True)
                self.con.text_cursor(None)
                if timer is not None:
                    timer.cancel()
            if key.name == "wake":
                # Kept, unless news came: 'Game #1 is withdrawn.' went at once, as the withdrawal
                # itself redraws the menu.
                refused, style = told
                woken = True
                continue
            style, once, lasting = "error", False, False
            choice = key.char.upper()
            if choice in ("Q", "G"):
                return
            if key.name == "esc":
                # Esc is 'back' on every other screen: one press too many must not end the call.
                refused = "Q quits."
                continue
            try:
                opened = await self.menu_choice(choice)
            except AccountClosed:
                raise
            except ServiceError as exc:
                # A game gone (withdrawn, deleted) or the database busy while a screen was open:
                # said here on the menu; it used to end the call.
                self.menu_notice = sentence(str(exc))
                continue
            if not opened and key.name != "redraw":
                shown = choice if choice.strip() else "That key"
                refused = f"{shown} is not on the menu."  # short: it shares its line with the prompt
                self.con.bell("error")

    async def menu_choice(self, choice: str) -> bool:
        """Open what a main menu letter names; False for a key that is not on the menu."""
        assert self.player is not None
        if choice in PAGE_ACTIVITY:
            # W)ho had said 'at the menu' of a caller reading the instructions or the ranks.
            self.presence(PAGE_ACTIVITY[choice])
        if choice == "M":
            await self.finished_list()
        elif choice == "N":
            # Every game's news: the menu's covers the latest 12, and the rest had shown only on a
            # later visit, with nothing to say it waited.
            await news_page(self.con, self.svc, self.player.id, (await gather(self.svc, self.player.id, games=None))[0])
        elif choice == "V":
            await self.view_games()
        elif choice == "P":
            await self.play_games()
        elif choice == "B":
            await self.begin_game()
        elif choice == "S":
            await self.set_prefs(replace(self.player.preferences, sound=not self.con.sound))
        elif choice == "I":
            await self.pager(load_text("instructions", self.config.texts))
        elif choice == "R":
            await self.rankings()
        elif choice == "W":
            await self.who_online()
        elif choice == "O":
            await self.options()
        else:
            return False
        return True

    async def finished_list(self) -> None:
        """The player's finished matches; pick one to review."""
        assert self.player is not None
        try:
            games = await self.svc.finished_games(self.player.id)
        except ServiceError as exc:
            await self.flash(22, sentence(str(exc)))
            return
        player = self.player.id

        async def fresh(shown: list[GameSummary]) -> list[GameSummary]:
            """The finished matches now, in place (see in_place): one finished in the player's
            other session while the list was up was refused by its number."""
            return in_place(shown, await self.svc.finished_games(player))

        while True:
            title = "Your finished matches (pick one to review)"
            g = await self.pick(title, games, "You have not finished a match yet.", fresh=fresh, mine=True,
                                results=True)
            if g is None:
                return
            if await self.room_for_board():  # the review is the board's screen: as big as the game's
                self.presence("reviewing", g.id)  # not 'at the menu'
                await review_match(self.con, self.svc, self.player.id, g.id)
                self.presence("matches")

    def menu_news(self, lines: list[str], order: str, top: int, more: bool = False, leading: int = 0,
                  results: int = 0) -> None:
        """The news under the menu (`lines` in the `order` the heading says, see menu_headlines;
        the first `leading` of them results and offers to answer, the first `results` results),
        as much as fits; N shows all of it (`more`: and news of older games besides, read by N
        only: the count says '19+').

        Whatever does not fit is said on the last line: an item cut between words ends with
        "... (N: all)", and with items left out the last one shown ends with "(N: all)"."""
        bottom = self.con.height - 1
        if not lines or top > bottom:
            return
        count = f"{len(lines)}{'+' if more else ''}"
        if top == bottom:
            # Room for the heading alone: it says where the news is, not "the latest first:" over nothing.
            self.con.put(top, 4, f"News ({count}): N shows it."[: self.con.width - 4], "hot")
            return
        self.con.put(top, 4, f"News ({count}), {order}:" if len(lines) > 1 or more else "News:", "hot")
        width, room = self.con.width - 6, bottom - top
        shown = self.news_shown(lines, width, room, leading, results)
        row = top + 1
        for text in shown:
            for part in wrap(text, width):
                self.con.put(row, 6, part)
                row += 1

    @staticmethod
    def news_shown(lines: list[str], width: int, room: int, leading: int = 0, results: int = 0) -> list[str]:
        """The menu's news items as `room` rows of `width` show them (see menu_news)."""
        shown: list[str] = []  # the items shown whole
        used = 0
        for text in lines:
            n = len(wrap(text, width))
            if used + n > room:
                break
            shown.append(text)
            used += n
        if len(shown) < len(lines):
            left = room - used
            cut = shorten_whole(lines[len(shown)], width, left, MENU_MORE) if left else ""
            if cut and cut != MENU_MORE and worth_showing(cut, lines[len(shown)]):
                shown.append(cut)  # the next item, as much of it as fits
            else:
                # '(N: all)' after the last item shown, which gives way to it where it must: not
                # cut to a fragment ('#4: ida accepts the... (N: all)'), but left to N.
                while shown:
                    last = lines[len(shown) - 1]
                    rows = room - sum(len(wrap(text, width)) for text in shown[:-1])
                    said = shorten_whole(last, width, rows, MENU_MORE, MENU_MORE.removeprefix("..."))
                    if worth_showing(said, last) or len(shown) == 1:
                        shown[-1] = said
                        break
                    shown.pop()
        if len(shown) < min(leading, room):
            # Each cut after its first sentence, where that shows more of the results and offers:
            # at 80x24 a result over two lines had left no room for the doubles to answer that
            # the heading put next.
            to_one = results if news_rows(lines[:leading], 0, width) > room else 0
            briefs = Session.news_briefs(lines, width, room, to_one, leading)
            shown = briefs if min(len(briefs), leading) > len(shown) else shown
        return shown

    @staticmethod
    def news_briefs(lines: list[str], width: int, room: int, results: int = 0, leading: int = 0) -> list[str]:
        """As many of the menu's news items as `room` rows hold, each cut after its first
        sentence, in the rows that sentence takes, the first `results` to one row (for the
        offers to answer after them, the first `leading` items with them) where need be; the
        last says where the rest is."""

        def brief(text: str, more: str, tail: str) -> str:
            # The rows its first sentence takes: one sentence alone, with what goes after it (a
            # match's result given one row had been cut at 'and the... (N: all)').
            first = first_sentence(text)
            rows = len(wrap(first + more if first != text else text + tail, width))
            return shorten_whole(text, width, rows, more, tail)

        items = [shorten_whole(text, width, 1, "...", "") if i < results else brief(text, "...", "")
                 for i, text in enumerate(lines)]
        # Rows the results and offers leave go to the results' own first sentences before any
        # other news: at 40x24 '#6: ida wins a single game by...' (the match, lost) had stood
        # over 'jack drops the double.' whole.
        first = min(max(leading, results), len(lines))

        def rows_used(chosen: list[str]) -> int:
            """The rows of the first items, '(N: all)' after the last where more follows (at
            50x20 a row kept for it had cut a result's score, '(N: all)' fitting beside an offer)."""
            last = chosen[first - 1] + (MENU_MORE.removeprefix("...") if len(lines) > first else "")
            return sum(len(wrap(item, width)) for item in chosen[:first - 1]) + len(wrap(last, width))

        for i in range(min(results, len(lines))):
            trial = [*items[:i], brief(lines[i], "...", ""), *items[i + 1:]]
            if first and rows_used(trial) <= room:
                items = trial
        shown: list[str] = []
        used = 0
        for item in items:
            if used + len(wrap(item, width)) > room:
                break
            shown.append(item)
            used += len(wrap(item, width))
        tail = MENU_MORE.removeprefix("...")
        while shown and shown != lines:
            text = lines[len(shown) - 1]
            left = room - used + len(wrap(shown[-1], width))  # the rows the last item may take
            last = brief(text, MENU_MORE, tail)
            if len(wrap(last, width)) > left:
                # Cut to the rows there are: an offer to resign that decides the match, one row
                # long, had been dropped for want of a row for '(N: all)' after it.
                last = shorten_whole(text, width, left, MENU_MORE, tail)
            if len(wrap(last, width)) <= left and worth_showing(last, text):
                shown[-1] = last
                break
            used -= len(wrap(shown.pop(), width))
        return shown

    async def set_prefs(self, prefs: Preferences) -> None:
        assert self.player is not None
        self.player = await self.svc.set_preferences(self.player.id, prefs)
        self.con.apply_preferences(self.player.preferences)

    async def options(self) -> None:
        refused = ""  # why the last key changed nothing
        assert self.player is not None
        # As stored: changed in the player's other session, the page had shown this one's and its
        # keys stepped from them, writing them back over the other's.
        self.player = await self.svc.player(self.player.id)
        self.con.apply_preferences(self.player.preferences)
        while True:
            assert self.player is not None
            self.con.clear()
            self.con.put(2, 4, "Options", "title")
            right = self.con.width - 1
            chosen = self.player.preferences.charset
            charset = f"{self.con.charset}" if chosen else f"automatic (now {self.con.charset})"
            turned = (
                "your home board bottom right"
                if self.con.orientation == "own"
                else "as the table stands (White's home bottom right: playing Black, yours is bottom left)"
            )
            row = 4
            notes = "shown" if self.player.preferences.notes else "not shown"
            # In ASCII the theme's colours show nowhere: said, not left for T to seem broken.
            shows = "T changes it; ASCII shows no colour" if self.con.charset == "ascii" else "T changes it"
            for text in (
                f"Colour theme: {self.con.theme}   ({shows})",
                f"Character set: {charset}   (C changes it)",
                f"Board: {turned}   (B changes it)",
                f"Notes from opponents: {notes}   (N changes it)",
            ):
                row += self.con.put_wrapped(row, 4, text, right=right)
            row += 1
            self.con.put(row, 4, "Sample: ")
            self.con.put_sample(row, 12)
            row += 2
            # A door's caller: the BBS's drop file says it, not the terminal.
            automatic = "your BBS says your terminal uses" if self.con.door else "your terminal asks for"
            self.con.put_wrapped(
                row,
                4,
                f"Automatic means the character set {automatic}; choose another if the sample looks wrong.",
                "dim",
                right=right,
            )
            self.con.put(min(self.con.height, 22), 4, "Q or Enter goes back.", "dim")
            if refused:
                self.con.put_wrapped(min(self.con.height, 22) - 2, 4, refused, "error", right=right, rows=2)
                refused = ""
            await self.con.show()
            key = await self.con.key_or_resize()
            if key is WAKE:
                continue  # resized: drawn again, at the new width
            c = key.char.upper()
            if c == "T":
                names = THEME_CHOICES
                now = THEMES[self.con.theme].name if self.con.theme in THEMES else names[-1]  # an alias: its theme
                nxt = names[(names.index(now) + 1) % len(names)]
                await self.set_prefs(replace(self.player.preferences, theme=nxt))
            elif c == "C":
                # automatic -> CP437 -> UTF-8 -> ASCII -> automatic
                order: list[str | None] = [None, "cp437", "utf8", "ascii"]
                following = order[(order.index(chosen) + 1) % len(order)] if chosen in order else None
                await self.set_prefs(replace(self.player.preferences, charset=following))
                self.con.redraw()
            elif c == "B":
                orientation = "table" if self.con.orientation == "own" else "own"
                await self.set_prefs(replace(self.player.preferences, orientation=orientation))
            elif c == "N":
                await self.set_prefs(replace(self.player.preferences, notes=not self.player.preferences.notes))
            elif c == "Q" or key.name in ("enter", "esc"):
                return
            else:
                shown = c if c.strip() else "That key"
                refused = f"{shown} changes nothing here: T, C, B or N does."

    # ------------------------------------------------------------ lists

    def game_lines_narrow(self, g: GameSummary, room: int = 80, score_width: int = 0,
                          result: str | None = None, spelled: bool = False) -> tuple[str, str]:
        """A game as two short lines: its number and score (and with `score_width`, the score's
        column, the last change after it), then who plays ('*' on whose turn), in `room` columns
        (two member boards' players, handle@TAG, are cut keeping their tags).  `result`: the
        viewer's, after the score (see result_word)."""
        marks = [g.mark(name) for name in (g.white, g.black)]
        names = [g.white or "(open seat)", g.black or "(open seat)"]
        widths = shared(len(names[0]), len(names[1]), room - 3 - len("".join(marks)))
        white, black = (mark + fit_name(name, w) for mark, name, w in zip(marks, names, widths, strict=True))
        won = "" if result is None else f" {result:<{RESULT_WIDTH}}"
        first = f"#{g.id:<5} {list_score(g, spelled)}{won}"
        if score_width:
            first = f"#{g.id:<5} {list_score(g, spelled):<{score_width}}{won} {g.updated.strftime('%m-%d %H:%M')}"
        return first.rstrip(), f"{white} v {black}"

    @staticmethod
    def game_line(g: GameSummary, score_width: int = 8, widths: tuple[int, int] = (16, 16),
                  result: str | None = None, spelled: bool = False) -> str:
        """One game in a list: the player to act marked with '*' ('?' to answer an offer), and the last change; the
        players' names in columns of `widths` (a longer one cut, keeping a member board's tag).
        `result`: the viewer's, after the score (see result_word)."""

        def seat(name: str | None, width: int) -> str:
            return f"{g.mark(name) or ' '}{fit_name(name or '(open seat)', width):<{width}}"

        won = "" if result is None else f" {result:<{RESULT_WIDTH}}"
        score = list_score(g, spelled)
        return (f"#{g.id:<5} {seat(g.white, widths[0])} {seat(g.black, widths[1])} {score:<{score_width}}"
                f"{won} {g.updated.strftime('%m-%d %H:%M')}")

    def result_word(self, g: GameSummary) -> str:
        """How a finished match went for the player: 'won' or 'lost' (only the score had said,
        read as White's and Black's)."""
        assert self.player is not None
        return "" if g.winner_id is None else "won" if g.winner_id == self.player.id else "lost"

    async def list_answer(self, row: int, col: int, letters: str = "N", hint_row: int | None = None,
                          answers: str = "a number and Enter, or Q", typed: str = "",
                          follow: bool = False, paged: bool = False) -> str | None:
        """What a list's prompt was answered: digits (or '#' and digits) and Enter, or one of
        `letters` at once; None for Q or Esc, which need no Enter.  A key that is none of these
        says so on `hint_row`.  The window resized: Woken, with what was typed, for the list to
        be laid out again; `follow`: any wake too (a list that follows the change feed), but
        not while a number is typed, which names a line of the list as it stands; `paged`: Up and
        PgUp answer B, a page back, and Down and PgDn N, a page on."""
        text = typed
        hinted = bool(self.list_hint)  # a refusal (or the field's full) said on hint_row
        try:
            while True:
                self.con.put(row, col, text.ljust(7), "input")
                self.con.text_cursor((row, col + min(len(text), 6)))
                await self.con.show()
                key = await (self.con.key(idle=True, wake=True) if follow and not text else self.con.key_or_resize())
                if key is WAKE:
                    raise Woken(text)
                self.list_hint = ""  # said again below if this key is refused too
                c = key.char.upper() if key.char else ""
                if paged and key.name in ("up", "pgup", "down", "pgdn") and not key.char:
                    # A page back or on, as on the other pages of pages (not 8, 9, 2 or 3 typed:
                    # digits here); Down and PgDn had been 'not an answer'.
                    c = "B" if key.name in ("up", "pgup") else "N"
                if c == "Q" or key.name == "esc":
                    return None  # with a number half typed too: refused, it was named as the way back
                if c and c in letters:
                    return c  # a number half typed goes: refused, the key was named as an answer
                if key.name == "enter":
                    return text
                typing = key.name == "backspace" or (len(text) < 7 and (c.isdigit() or (c == "#" and not text)))
                if typing and hinted and hint_row is not None:
                    # Taken down once a key is one that works: 'X is not an answer' had stood beside
                    # the '#1' typed after it.
                    self.con.put(hint_row, 3, " " * (self.con.width - 3))
                    hinted = False
                if key.name == "backspace":
                    text = text[:-1]
                elif len(text) < 7 and (c.isdigit() or (c == "#" and not text)):
                    text += c
                elif hint_row is not None and c.isdigit():
                    # Past the 7th: '9 is not an answer: type a rank' had blamed the digit.
                    self.con.put(hint_row, 3, " " * (self.con.width - 3))
                    self.con.put(hint_row, 3, fit("The number has room for 7 characters.", self.con.width - 4), "error")
                    self.con.bell("error")
                    hinted = True
                elif hint_row is not None:
                    shown = c if c.strip() else "That key"
                    # One row: said in fewer words where the screen is narrow, not cut.
                    said = (f"{shown} is not an answer: {answers}.", f"{shown}: type {answers}.",
                            f"{shown}: {answers}.", f"{shown} is not an answer.")
                    hint = first_fitting(said, self.con.width - 3, said[-1])
                    self.con.put(hint_row, 3, " " * (self.con.width - 3))
                    self.con.put_wrapped(hint_row, 3, hint, "error", right=self.con.width - 1, rows=1)
                    self.con.bell("error")  # as a key refused at the menu or on a board rings
                    hinted, self.list_hint = True, hint
        finally:
            self.con.text_cursor(None)

    async def pick(self, title: str, games: list[GameSummary], empty: str, note: str = "",
                   fresh: Callable[[list[GameSummary]], Awaitable[list[GameSummary]]] | None = None,
                   mine: bool = False, results: bool = False, at: int | None = None) -> GameSummary | None:
        """A numbered list; returns the chosen game, or None to go back.  `note`: said under it first.
        `fresh`: the list as it is now, from the one shown; with it the list follows every change
        to a game, and a game number typed that the list did not show is looked for in it.
        `results`: finished matches, each with the player's result (won or lost).  `at`: a game
        whose page the list opens at (back from 'Join it?', it had come back at page 1)."""
        page = 0
        anchor = at  # a game to keep in sight as the list is laid out again
        typed = ""
        # With S)ound on, a turn or an offer that comes while a list following the games is up
        # rings, as at the menu (the P)lay and V)iew lists had rung nothing).
        rung = {g.id: g.offer for g in await self.svc.my_turn_games(self.player.id)} \
            if fresh is not None and self.con.sound and self.player is not None else None

        async def answer(wait: Awaitable[T]) -> T:
            """`wait`, with the list woken by a change to any game while it waits, if it follows them."""
            return await (wait if fresh is None else self.following_games(wait, mine))

        def footer(first: int, more: str, listed: list[GameSummary]) -> str:
            # Each mark said only on a page that shows one.  A double or a resignation to answer
            # has its own: P)lay's list had shown it as a turn like any other.
            marks = {g.mark(g.turn) or g.mark(g.white) for g in listed} - {""}
            legend = "  ".join(text for mark, text in (("*", "* to act."), ("?", "? an offer to answer."))
                               if mark in marks)
            legend += "  " if legend else ""
            return f"{legend}Type a line number or a game number (#{first}) and Enter.{more}  Q or Enter goes back."

        while True:
            # Laid out each time: the window may have changed size.
            bottom = min(24, self.con.height)
            # Under 20 rows the list keeps no blank rows: the title on row 1, the prompt on the
            # last (with a short screen's arithmetic a page held no game, and the call ended).
            compact = self.con.height < 20
            title_rows = min(2, len(wrap(title, self.con.width - 3)))
            title_row, head_row = (1, 1 + title_rows) if compact else (2, 4)
            prompt_row, hint_row = (bottom, bottom - 1) if compact else (bottom - 3, bottom - 4)
            # The score column as wide as its widest ('4-0 (to 3)' pushed the dates out of line).
            spelled = spelled_scores(games)
            score_width = max(8, *(len(list_score(g, spelled)) for g in games)) if games else 8
            extra = RESULT_WIDTH + 1 if results else 0  # the result's column, after the score
            # Under 58 columns a game's line does not fit: two lines each, the players on the second;
            # so too under 72 where this list's names do not fit whole beside the last change (at
            # 60 it had gone from the list, with nothing to say so).
            need = (max(5, *(len(g.white or "(open seat)") for g in games)),
                    max(6, *(len(g.black or "(open seat)") for g in games))) if games else (5, 6)
            narrow = self.con.width < max(NARROW_LIST + extra, 50 + score_width + extra) or \
                (self.con.width < 72 and sum(need) > self.con.width - 16 - score_width - 12 - extra)
            top = head_row + (2 if narrow else 1)  # a narrow list's second heading, over the players
            # The footer whole: up to four lines on a narrow screen (at 40 columns 'Q goes back' and
            # the N)ext page key were cut off at two), taken from the list when it needs them.
            def footer_rows(more_room: str, least: int = 1 if compact else 2,
                            listed: list[GameSummary] = games) -> int:
                longest = footer(max((g.id for g in listed), default=0), more_room, listed)
                return max(least, min(4, len(wrap(longest, self.con.width - 3))))

            foot_rows = footer_rows("")
            per = max(1, (hint_row - foot_rows - top) // (2 if narrow else 1))
            if len(games) > per:
                # The last page's says where it is first: 'N: page 1 (3 of 3)' had read as if page 1
                # were 3 of 3 (and no longer, or at 40 columns, with both marks' legends, the
                # footer's four rows had cut it after 'Q or').
                foot_rows = footer_rows("  N)ext page (9 of 9), B: page back.")
                per = max(1, (hint_row - foot_rows - top) // (2 if narrow else 1))
            foot_top = hint_row - foot_rows
            held = next((i for i, g in enumerate(games) if g.id == anchor), None)
            if held is not None:
                page = held // per
            anchor = None
            page = min(page, max(0, (len(games) - 1) // per))
            self.con.clear()
            self.con.put_wrapped(title_row, 3, title, "title", right=self.con.width - 1, rows=title_rows)
            if not games:
                self.con.put_wrapped(head_row + 1, 5, empty, right=self.con.width - 1)
                self.con.put(max(head_row + 2, bottom - 2), 3, "Press any key to go back.", "dim")
                await self.con.show()
                if fresh is None:
                    await self.con.key(idle=True)
                    return None
                if await answer(self.con.key(idle=True, wake=True)) is not WAKE:
                    return None
                games = await fresh(games)  # a game begun meanwhile shows
                continue
            # The names under their headings; the mark of the player to act goes before a name.
            # The name columns widen for a member board's player (handle@TAG, up to 25) as far as
            # the line allows, and cut a name past that keeping its tag: the score and the date
            # had been pushed out from under their headings.
            longest = (max([16, *(len(g.white or "") for g in games)]), max([16, *(len(g.black or "") for g in games)]))
            # Under 72 columns (the names fit whole, else the list is narrow) the name columns are
            # as wide as they need; 'Black' one wider than it: 'Black Score' read as one heading.
            widths = shared(*longest, self.con.width - 16 - score_width - 12 - extra) if self.con.width >= 72 \
                else need
            you = f" {'You':<{RESULT_WIDTH}}" if results else ""
            wide_head = "    Game    " + "White".ljust(widths[0] + 2) + "Black".ljust(widths[1] + 1) + \
                "Score".ljust(score_width) + you
            # A narrow list's first lines have room for the last change (at 40 columns it had
            # gone, with nothing to show it).
            narrow_dated = 4 + 7 + score_width + extra + 12 <= self.con.width - 2
            if narrow:
                head = "    Game   " + ("Score".ljust(score_width) + you + " Last change" if narrow_dated
                                        else "Score".ljust(score_width) + you)
            else:
                head = wide_head + " Last change"
            self.con.put(head_row, 2, head, "dim")
            shown = games[page * per : (page + 1) * per]
            if narrow:
                # The players go under the game's number, as part of its entry, not under the line
                # numbers as an entry of their own; 37 columns at most (two handles of 16, two
                # marks), so the page's go further left if need be.
                room = self.con.width - 2
                indent = max(2, min(6, self.con.width - max(len(self.game_lines_narrow(g, room)[1]) for g in shown)))
                self.con.put(head_row + 1, indent, "White v Black", "dim")
            for i, g in enumerate(shown):
                result = self.result_word(g) if results else None
                if narrow:
                    line, players = self.game_lines_narrow(g, room, score_width if narrow_dated else 0, result,
                                                           spelled)
                    self.con.put(top + 2 * i, 2, f"{i + 1:>2}) " + line)
                    self.con.put(top + 1 + 2 * i, indent, players)
                else:
                    self.con.put(top + i, 2, f"{i + 1:>2}) " + self.game_line(g, score_width, widths, result, spelled))
            pages_n = (len(games) + per - 1) // per
            # From the last page N goes round to the first: said so, not "next".
            # B (or Up, PgUp) turns back, as on every other page of pages (it had been refused).
            back = ", B: page back" if page else ""
            more = "" if pages_n == 1 else (f"  N)ext page ({page + 1} of {pages_n}){back}." if page < pages_n - 1
                                            else f"  ({page + 1} of {pages_n}) N: page 1{back}.")
            self.con.put_wrapped(foot_top, 3, footer(shown[0].id, more, shown), "dim",
                                 right=self.con.width - 1, rows=foot_rows)
            if len(wrap(note, self.con.width - 3)) > 1 and not compact:
                # No room for two lines over the prompt (the list may reach down to it): under it.
                self.con.put_wrapped(bottom - 1, 3, note, "error", right=self.con.width - 1, rows=2)
            else:
                self.con.put(hint_row, 3, shorten(note, self.con.width - 3, 1, "..."), "error")
            told, note = note, ""
            self.con.put(prompt_row, 3, "Game: ", "prompt")
            try:
                # B named where there is a page back to turn to (it had been left out of the answers).
                answers = "a number and Enter, or Q" if pages_n == 1 else \
                    "a number and Enter, N, B, or Q" if page else "a number and Enter, N, or Q"
                text = await answer(self.list_answer(prompt_row, 9, "NB" if pages_n > 1 else "N", hint_row=hint_row,
                                                     answers=answers, typed=typed, follow=fresh is not None,
                                                     paged=pages_n > 1))
            except Woken as woken:
                # The note stands until a key; not one of the pages, which a new size changes
                # ('This list has only one page.' had stood over 'N)ext page (1 of 2)').
                typed, note = woken.text, (told if told not in (ONE_PAGE, FIRST_PAGE) else "") or self.list_hint
                # The first game shown stays in sight: a new size had kept the page's number, and
                # the games between went by unseen.
                anchor = shown[0].id
                if fresh is not None:
                    games = await fresh(games)  # drawn once, it had listed a game withdrawn minutes before
                    if rung is not None and self.player is not None:
                        waiting = await self.svc.my_turn_games(self.player.id)
                        if came := turns_come(waiting, rung):
                            self.con.bell(came)
                        rung = {g.id: g.offer for g in waiting}
                    if typed.isdigit() and 1 <= int(typed) <= len(shown):
                        # A line number half typed means the game on that line, wherever the new
                        # list puts it.
                        typed = f"#{shown[int(typed) - 1].id}"
                    left = [g.id for g in shown if all(h.id != g.id for h in games)]
                    if left:
                        # Said: the lines under it are numbered afresh, and a number read off the
                        # list a moment before ('1', game #7) had opened the game now on that line.
                        ids = " and ".join(f"#{i}" for i in left[:2]) + (" and more" if len(left) > 2 else "")
                        note = f"Game{'s' if len(left) > 1 else ''} {ids} left this list."
                continue
            typed = ""
            if text is None or not text:
                return None
            if text == "N":
                if pages_n > 1:
                    page = (page + 1) % pages_n
                else:
                    note = ONE_PAGE
                continue
            if text == "B":
                if page:
                    page -= 1
                else:
                    note = FIRST_PAGE
                continue
            if text == "#":
                note = "Type the game's number after the #, then Enter."  # 'Game # is not in this list.'
            elif text.startswith("#"):
                found = next((g for g in games if str(g.id) == text[1:]), None)
                if found is None and fresh is not None:
                    # Begun since the list was drawn: read again, not refused.
                    games = await fresh(games)
                    found = next((g for g in games if str(g.id) == text[1:]), None)
                if found is not None and await self.still_listed(found, fresh):
                    return self.picked(found, hint_row)
                note = f"Game {text} left this list." if found is not None else \
                    await self.not_listed(text[1:], results, mine)
                if found is not None and fresh is not None:
                    games = await fresh(games)
            elif text.isdigit() and 1 <= int(text) <= len(shown):
                found = shown[int(text) - 1]
                if await self.still_listed(found, fresh):
                    return self.picked(found, hint_row)
                note = f"Game #{found.id} left this list."
                if fresh is not None:
                    games = await fresh(games)
            else:
                note = f"No line {text} here; a game number starts with #."

    async def not_listed(self, number: str, results: bool, mine: bool = False) -> str:
        """Why game #`number` typed at a list is not in it, where another place has it: 'Game #12
        is not in this list.' had been said of a match finished and in the news, with no word of
        M)atches, and at P)lay of the player's own game on the opponent's turn."""
        said = f"Game #{number} is not in this list."
        if not number.isdigit() or self.player is None:
            return said
        try:
            v = await self.svc.game(int(number), self.player.id)
        except NotFound:
            return f"There is no game #{number}."
        except ServiceError:
            return said
        if v.status in ("finished", "abandoned") and not results:
            # At P)lay, another's finished game is not 'cannot be watched' (P)lay watches nothing).
            where = "M)atches at the menu reviews it" if v.viewer_color is not None else \
                "it was not yours" if mine else "it cannot be watched"
            return f"Game #{number} is over: {where}."
        if mine and not results and v.status == "active":
            if v.viewer_color is None:
                return f"Game #{number} is not yours: V)iew shows it."
            actor = v.state.actor
            if actor is not None and actor is not v.viewer_color:
                return f"Game #{number} waits for {v.name(actor)}, not you: V)iew shows it."
        return said

    async def still_listed(self, game: GameSummary,
                           fresh: Callable[[list[GameSummary]], Awaitable[list[GameSummary]]] | None) -> bool:
        """Whether a list that follows the games (`fresh`) still has `game`: the list stops
        following while a number is typed, and a game gone meanwhile had been opened as 'There is
        no game 9.' on the menu."""
        if fresh is None:
            return True
        try:
            return any(g.id == game.id for g in await fresh([game]))
        except ServiceError:
            return True  # the database busy: opening it says what there is to say

    def picked(self, game: GameSummary, hint_row: int) -> GameSummary:
        """A game picked from a list: why an earlier answer was refused goes ('No line 5 here'
        had stood over the 'Join it?' that #5 brought)."""
        self.con.put(hint_row, 3, " " * (self.con.width - 3))
        return game

    async def following_games(self, wait: Awaitable[T], mine: bool = False) -> T:
        """`wait`, this screen woken meanwhile by a change to any game (a list of them); `mine`:
        to one of the player's own (their P)lay list)."""
        assert self.player is not None
        player = self.player.id
        if mine:
            self.rt.watch_player(player, self.con.wake)
        else:
            self.rt.watch_games(self.con.wake)
        try:
            return await wait
        finally:
            if mine:
                self.rt.unwatch_player(player, self.con.wake)
            else:
                self.rt.unwatch_games(self.con.wake)

    async def view_games(self) -> None:
        assert self.player is not None

        async def fresh(shown: list[GameSummary]) -> list[GameSummary]:
            """The games in progress now, in place (see in_place)."""
            return in_place(shown, await self.rt.games_in_progress())

        games = await fresh([])
        while not games:
            self.con.clear()
            self.con.put(2, 3, "Games in progress", "title")
            self.con.put_wrapped(5, 5, "No games are in progress. B)egin one!", right=self.con.width - 1)
            self.con.put_wrapped(min(24, self.con.height) - 2, 3, "B begins a game; any other key goes back.", "dim",
                                 right=self.con.width - 1)
            await self.con.show()
            # It follows the games as the list does: a game begun meanwhile had never shown.
            key = await self.following_games(self.con.key(idle=True, wake=True))
            if key is WAKE:
                games = await fresh([])
                continue
            if key.char.upper() == "B":
                await self.begin_game()
            return
        note = ""
        back_at: int | None = None  # the game a No to 'Join it?' came from: its page again
        while True:
            g = await self.pick("Games in progress", games, "No games are in progress.", note, fresh, at=back_at)
            note, back_at = "", None
            if g is None:
                return
            if g.status != "open" or self.player.handle in (g.white, g.black):
                await self.game_screen(g.id)
                return
            # Read again before asking: withdrawn while the list was up, 'Join it?' had been asked,
            # and only a Y told that the game was gone.
            note = await self.seat_gone(g.id)
            if note:
                games = await fresh(games)
                if not games:
                    await self.flash(min(24, self.con.height) - 2, note)
                    return
                continue
            self.ask_to_join(g.id)
            await self.con.show()
            answer = await self.join_answer(g.id)
            if isinstance(answer, str):
                note = answer  # the seat went while the question was up: said over the list as it is now
            elif answer:
                try:
                    view = await self.svc.join_game(self.player.id, g.id)
                except AccountClosed:
                    raise
                except NotFound:
                    # Withdrawn while the question was asked: said over the list as it is now.
                    note = f"Game #{g.id} was withdrawn before you could join it."
                except ServiceError as exc:
                    note = f"Game #{g.id}: {exc}."  # someone else sat down first
                else:
                    against = view.black if view.viewer_color is Color.WHITE else view.white
                    await self.game_screen(view.id, f"You joined game #{view.id}, {a_match(view.state.length)} "
                                                    f"against {against}.")
                    return
            # No: back to the list (the question asked nothing about watching), on its page.
            back_at = g.id
            games = await fresh(games)
            if not games:
                if note:
                    await self.flash(min(24, self.con.height) - 2, note)
                return

    async def seat_gone(self, game_id: int) -> str:
        """'' while game `game_id` still needs a player; else what became of it."""
        assert self.player is not None
        try:
            seat = await self.svc.game(game_id, self.player.id)
        except NotFound:
            return f"Game #{game_id} is no longer there: withdrawn, or removed by the sysop."
        return "" if seat.status == "open" else f"Game #{game_id}: someone else took that seat first."

    def ask_to_join(self, game_id: int) -> None:
        """'Join it?' under a list's prompt, at the window's width."""
        bottom = min(24, self.con.height)
        if self.con.height >= 20:  # the rows under the prompt (see pick)
            for row in range(bottom - 2, bottom + 1):
                # The list's note (two lines under the prompt at 40 columns) goes with the key
                # that chose the game: the question had been drawn over it, '(Y/N)#11 is no
                # longer there'.  To the last column: a narrowed window keeps the old row's cut end.
                self.con.put(row, 3, " " * (self.con.width - 2))
        self.con.put_wrapped(bottom - 2, 3, join_question(game_id), "prompt", right=self.con.width - 1)

    async def join_answer(self, game_id: int) -> bool | str:
        """The Y/N to 'Join it?', the game followed meanwhile: what became of it instead, once its
        seat is taken or it is gone (the question had stayed up, and only a Y told)."""
        resizes = self.con.resizes
        while True:
            key = await self.following_games(self.con.key(idle=True, wake=True))
            if key is WAKE:
                if note := await self.seat_gone(game_id):
                    return note
                if self.con.resizes != resizes:
                    # The question again at the new width: it had stayed cut, '(Y/N) [Y]' gone.
                    resizes = self.con.resizes
                    self.ask_to_join(game_id)
                    await self.con.show()
                continue
            # The refusal takes the question's line: said again with it ('X is not an answer: Y or
            # N.' had stood alone, the question gone).
            answer = await self.yes_no_key(key, default=True, asked=join_question(game_id))
            if answer is not None:
                return answer

    async def play_games(self) -> None:
        assert self.player is not None
        title = "Games where it is your turn"
        games = await self.svc.my_turn_games(self.player.id)
        note = ""
        if not games:
            games = await self.wait_for_a_turn(title)
            if not games:
                return
            # Not which games: the list follows them, and a note naming the first had stayed
            # under a list of two.
            note = "Your turn came while you waited."
        elif len(games) == 1:
            # No list to answer: a number and Enter typed ahead for one (as when two games wait)
            # reached the board, and the Enter made the roll.
            self.con.discard_answer()
            await self.game_screen(games[0].id)
            return
        player = self.player.id

        async def fresh(shown: list[GameSummary]) -> list[GameSummary]:
            """The games waiting for the player now, in place (see in_place): a game whose turn
            came while the list was up was refused as 'not in this list', and one played in the
            player's other session stayed on it."""
            return in_place(shown, await self.svc.my_turn_games(player))

        g = await self.pick(title, games, "No game is waiting for your move.", note, fresh, mine=True)
        if g is not None:
            await self.game_screen(g.id)

    async def wait_for_a_turn(self, title: str) -> list[GameSummary]:
        """'No game is waiting for your move' until a key, or until one is (a move in any process):
        the games then; [] for the key.  The screen had stayed as it was while the turn came."""
        assert self.player is not None
        self.rt.watch_player(self.player.id, self.con.wake)
        try:
            while True:
                right = self.con.width - 1
                self.con.clear()
                self.con.put_wrapped(2, 3, title, "title", right=right)
                row = 4 + self.con.put_wrapped(4, 5, "No game is waiting for your move. When one comes, "
                                               "it shows here.", right=right)
                self.con.put_wrapped(max(row + 1, min(24, self.con.height) - 2), 3, "Press any key to go back.",
                                     "dim", right=right)
                await self.con.show()
                key = await self.con.key(idle=True, wake=True)
                if key.name != "wake":
                    return []
                games = await self.svc.my_turn_games(self.player.id)
                if games:
                    return games
        finally:
            self.rt.unwatch_player(self.player.id, self.con.wake)

    def board_views(self) -> list[str | None]:
        """What R)ankings can show: the whole league, this system's own players, each member BBS."""
        views: list[str | None] = [None]
        if self.config.bbses:
            views += ["", *sorted(self.config.bbses)]
        return views

    def board_title(self, board: str | None, width: int = 80) -> str:
        """The rankings' title in at most `width` columns: a member board's whole name if it fits,
        else shorter wordings, never a word cut short."""
        if board is None:
            candidates = ["The top players" + (", every board" if self.config.bbses else ""), "The top players"]
        elif board == "":
            candidates = ["The top players of this server", "The top players here"]
        else:
            member = self.config.bbses.get(board)
            name = member.name if member else board
            candidates = [f"The top players of {name} ({board})", f"The top players of {name}",
                          f"Top players of {name}", f"The top players of {board}", f"Top players: {board}"]
        return first_fitting(candidates, width, fit(candidates[-1], width))

    async def rankings(self) -> None:
        views = self.board_views()
        view = 0
        boards = "  B shows another board." if len(views) > 1 else ""
        footer = f"Type a rank and Enter for that player's page.{boards}  Q or Enter goes back."
        note = typed = ""
        fetched: tuple[int, int] | None = None  # (view, limit) of `rows`
        while True:
            # Laid out each time: the window may have changed size.
            bottom = min(24, self.con.height)
            # The footer whole above the prompt (three lines at 40 columns), and the list above it.
            foot_rows = len(wrap("* a computer player.  " + footer, self.con.width - 3))
            # Under the footer a line of its own for what was wrong with an answer: written over
            # the footer's last line, it had left 'Q or' hanging there.
            limit = max(1, bottom - 6 - foot_rows)
            if fetched != (view, limit):
                rows = await self.svc.rankings(limit=limit, board=views[view])
                fetched = (view, limit)
            wide = self.con.width >= 78
            self.con.clear()
            self.con.put(2, 3, self.board_title(views[view], self.con.width - 4), "title")
            # Under 59 columns: rank, player, rating, won and lost (a player's page has the rest).
            # The Board column only where there are boards to tell apart: a door with no member
            # BBS had 'here' on every row.
            boarded = bool(self.config.bbses) or any(r.board for r in rows)
            wide_head = f"Rank  Player            {'Board    ' if boarded else ''}Rating  Won Lost Gammons"
            # The wide rows whole, and the last column free: at 58 the Gammons figures were cut off
            # under their heading, and at 59 a 12 read as 1.
            narrow = self.con.width < len(wide_head) + 2
            # Without a Board column a member board's player is handle@TAG (up to 25): the column
            # widens as far as the line allows, and a name past that is cut keeping its tag.
            player = max(17, min(self.con.width - 23, max((len(r.handle) for r in rows), default=0)))
            head = f"Rank {'Player':<{player + 1}}Rating Won Lost" if narrow else wide_head
            self.con.put(4, 2, head + ("  Exp.  Last played" if wide else ""), "dim")
            for i, r in enumerate(rows):
                handle = r.handle
                if not narrow and r.board and handle.endswith(f"@{r.board}"):
                    # The Board column says the tag: 'TwentyCharAliasN@' had been left dangling.
                    handle = handle.removesuffix(f"@{r.board}")
                name = fit_name(handle, 16) + "*" if r.is_bot else fit_name(handle, player if narrow else 17)
                if narrow:
                    # A space before the rating: a computer's 16 letters and '*' ran into it.
                    line = f"{r.rank:>3}. {name:<{player}} {r.rating:>6.1f}{r.wins:>4}{r.losses:>5}"
                else:
                    board = f"{(r.board or 'here')[:8]:<8} " if boarded else ""
                    line = (f"{r.rank:>3}.  {name:<17} {board}{r.rating:>6.1f} {r.wins:>4} {r.losses:>4}"
                            f" {r.gammons:>7}")
                if wide:
                    line += f" {r.experience:>5}  {r.last_played.strftime('%Y-%m-%d') if r.last_played else '-'}"
                self.con.put(5 + i, 2, line[: self.con.width - 2])
            if not rows:
                # Said of the board shown: 'Nobody' on this server's own list, while players of
                # member boards had finished matches, read as if nobody anywhere had.
                shown = views[view]
                member = self.config.bbses.get(shown) if shown else None
                who = ("Nobody" if shown is None else "No player of this server" if shown == ""
                       else f"No player of {member.name if member else shown}")
                self.con.put_wrapped(6, 6, f"{who} has finished a match yet.", right=self.con.width - 1, rows=3)
                self.con.put_wrapped(bottom - 2, 3, f"Q or Enter goes back.{boards}", "dim", right=self.con.width - 1)
                self.con.put(bottom, 3, "Choice: ", "prompt")
                while True:
                    # The terminal's cursor at the prompt, not at the end of the text last written.
                    self.con.text_cursor((bottom, 11))
                    await self.con.show()
                    key = await self.con.key_or_resize()
                    self.con.text_cursor(None)
                    if key is WAKE:
                        break  # resized: laid out again
                    if boards and key.char.upper() == "B":
                        view = (view + 1) % len(views)
                        break
                    if key.name in ("enter", "esc") or key.char.upper() == "Q":
                        return
                    self.hint(key, f"Q or Enter goes back.{boards}")
                continue
            self.con.put_wrapped(
                bottom - 1 - foot_rows,
                3,
                f"{'* a computer player.  ' if any(r.is_bot for r in rows) else ''}{footer}",
                "dim",
                right=self.con.width - 1,
                rows=foot_rows,
            )
            if note:
                self.con.put(bottom - 1, 3, fit(note, self.con.width - 4), "error")
            told, note = note, ""
            self.con.put(bottom, 3, "Rank: ", "prompt")
            try:
                # No N: the ranks are one page (N had gone back to the menu without a word, and a
                # Q typed after it quit the call).  It follows the games: a match ended meanwhile
                # may move the ranks (a list left open had shown a loser still first, and his page,
                # typed from it, a rating no longer his).
                text = await self.following_games(self.list_answer(
                    bottom, 9, "B" if boards else "", hint_row=bottom - 1,
                    answers=f"a rank and Enter{', B' if boards else ''} or Q", typed=typed, follow=True))
            except Woken as woken:
                typed, note, fetched = woken.text, told or self.list_hint, None
                continue
            typed = ""
            if text == "B":
                view = (view + 1) % len(views)
                continue
            if not text:
                return
            chosen = next((r for r in rows if str(r.rank) == text.lstrip("#")), None)
            if chosen is None:
                note = f"No player here has rank {text.lstrip('#')}."
            else:
                await self.player_page(chosen.handle)

    async def who_online(self) -> None:
        """Every caller connected now, in this process or any other on the database, on any board."""
        await self.rt.presence.flush()
        start = 0  # the first caller on this page
        while True:
            callers = await self.svc.who_online(self.config.presence_ttl)
            rows = who_lines(callers)
            start = start if start < len(rows) else 0
            bottom = min(24, self.con.height)
            width = self.con.width
            self.con.clear()
            self.con.put(2, 3, f"Who's online: {len(callers)} caller{'s' if len(callers) != 1 else ''}", "title")
            # Under 58 columns the board and what a caller does go under the name, not beside it.
            narrow = width < NARROW_LIST
            column = 5 if narrow else 26
            boarded = bool(self.config.bbses) or any(r.board for r, _, _ in rows)
            head = ("Player / board, doing" if narrow else "Player                 Board     Doing") if boarded \
                else ("Player, doing" if narrow else "Player                 Doing")
            self.con.put(4, 3, head, "dim")
            # Room kept for the key hint with its N)ext page, whole: two rows on a narrow screen.
            hint_rows = len(wrap("N: the next page.  Enter looks again; Q goes back.", width - 3))
            row, last, shown = 5, bottom - 2 - hint_rows, start
            for r, doing, _ in rows[start:]:
                # A name longer than its column is not cut: it takes a line of its own.
                # The board's column says the tag ('alice~2@DP  DP' had said it twice), as R)ank's does.
                called = r.name.removesuffix(f"@{r.board}") if boarded and r.board else r.name
                alone = narrow or len(called) > 22
                name = wrap(called, width - 3) if alone else [called]
                rest = wrap(f"{(r.board or 'here')[:8]:<8}  {doing}" if boarded else doing, width - column)
                need = (len(name) if alone else 0) + len(rest)
                if row + need - 1 > last and shown > start:
                    break
                if alone:
                    for line in name:
                        self.con.put(row, 3, line)
                        row += 1
                else:
                    self.con.put(row, 3, name[0])
                for line in rest:
                    self.con.put(row, column, line)
                    row += 1
                shown += 1
            more = len(rows) > shown
            if more:
                self.con.put(row, 3, f"... and {sum(n for _, _, n in rows[shown:])} more", "dim")
            keys = ("N: the next page.  " if more else "") + "Enter looks again; Q goes back."
            self.con.put_wrapped(bottom - hint_rows, 3, keys, "dim", right=width - 1, rows=hint_rows)
            while True:
                await self.con.show()
                key = await self.con.key_or_resize()
                if key is WAKE:
                    break  # resized: the same page, laid out again
                if key.name == "enter" or key.char.upper() == "W":
                    start = 0
                    break
                if more and key.char.upper() == "N":
                    start = shown
                    break
                if key.name == "esc" or key.char.upper() == "Q":
                    return
                self.hint(key, keys)

    async def player_page(self, handle: str) -> None:
        page = await self.svc.player_page(handle)
        while await self.show_player(page) is WAKE:
            pass  # the window changed size: drawn again for it

    async def show_player(self, page: PlayerPage) -> Key:
        """A player's page until a key; WAKE when the window changed size (to draw it again)."""
        p = page.player
        right = self.con.width - 1
        self.con.clear()
        # A member board's player as R)ank and the board name them ('carol~2@DP'), not bare.
        name = f"{p.handle}@{p.bbs_tag}" if p.origin == "bbs" and p.bbs_tag else p.handle
        self.con.put_wrapped(2, 3, name + (" (computer)" if p.is_bot else ""), "title", right=right)
        since = p.created.strftime("%Y-%m-%d")
        # A computer player never logs in: 'last seen -' read as if it had gone.
        seen = ("always ready for a game" if p.is_bot else
                f"last seen {p.last_seen.strftime('%Y-%m-%d') if p.last_seen else '-'}")
        row = 4
        row += self.con.put_wrapped(
            row,
            3,
            f"Rating {p.rating:.1f}.  Experience {p.experience}.  Playing since {since}, {seen}.",
            right=right,
        )
        row += self.con.put_wrapped(
            row,
            3,
            f"Matches {page.games}: won {page.wins}, lost {page.losses}.  "
            # A backgammon is a gammon too, in the count and in R)ank's Gammons column: said so.
            f"Games won by gammon or backgammon {page.gammons}, by backgammon {page.backgammons}.",
            right=right,
        )
        bottom = min(24, self.con.height)
        # Twelve rows, or the rows left above 'Press any key.': at 20 lines the chart had run into
        # it, its lowest rating and its dates lost.
        rows = min(12, bottom - row - 2)
        if rows >= 2:
            self.con.put(row + 1, 3, "Rating history", "hot")
            chart = rating_chart(page.rating_history, min(70, self.con.width - 6), rows, self.con.charset)
            for i, line in enumerate(chart):
                self.con.put(row + 2 + i, 5, line)
        self.con.put(bottom, 3, "Press any key to go back.", "dim")
        await self.con.show()
        return await self.con.key_or_resize()

    async def pager(self, text: str) -> None:
        """Text wrapped to the caller's width, a page at a time."""
        page = 0
        book: list[list[str]] = []
        size = (0, 0)
        first_page_note = False  # B was pressed on the first page: the footer says why nothing turned
        while True:
            if size != (self.con.width, self.con.height):
                # Laid out for the window as it is now (it may have changed size): the page that
                # holds the line the last one began with.
                seen = sum(len(p) for p in book[:page]) / max(1, sum(len(p) for p in book)) if book else 0.0
                size = (self.con.width, self.con.height)
                bottom = min(24, self.con.height)
                book = pages(wrap(centred(text, self.con.width - 1), self.con.width - 1), bottom - 2)
                total = sum(len(p) for p in book)
                page = 0
                while page < len(book) - 1 and sum(len(p) for p in book[: page + 1]) <= seen * total:
                    page += 1
            self.con.clear()
            for i, line in enumerate(book[page]):
                self.con.put(1 + i, 1, line)
            last = page == len(book) - 1
            # 'B: back' beside 'back to the menu' read as the same thing; B turns a page back,
            # offered where there is a page before.
            keys = paging_keys(page, last)
            footer = f"Page {page + 1} of {len(book)}.  {keys}"
            if first_page_note:
                footer, first_page_note = f"This is the first page.  {keys}", False
            # The line above is free (pages are two lines short of the screen) for a narrow one.
            # Broken between keys: at 60 columns 'next' ended one line and 'page' stood alone.
            rows = help_rows(footer, self.con.width - 1, 2)
            for i, line in enumerate(rows):
                self.con.put(bottom + 1 - len(rows) + i, 1, line, "dim")
            await self.con.show()
            key = await self.con.key_or_resize()
            if key is WAKE:
                continue  # resized: laid out again
            c = key.char.upper()
            if c == "Q" or key.name == "esc":
                return
            if c == "B" or key.name in ("up", "pgup", "left"):  # left: back, as 4 is on the board
                first_page_note = page == 0
                page = max(0, page - 1)
            elif last:
                return
            else:
                page += 1

    # ------------------------------------------------------------ begin

    def ask_at(self, row: int, prompt: str, answer: int) -> tuple[int, int]:
        """A prompt wrapped from `row` at column 3; where its answer of `answer` columns goes:
        after it, or at the start of the next line when the screen is too narrow for that."""
        right = self.con.width - 1
        lines = wrap(prompt.rstrip(), right - 2)
        for i, line in enumerate(lines):
            self.con.put(row + i, 3, line, "prompt")
        last = row + len(lines) - 1
        col = 3 + len(lines[-1]) + 1
        if col + answer - 1 > right:
            return last + 1, 5
        return last, col

    async def begin_game(self) -> None:
        assert self.player is not None
        # The questions answered so far (prompt, answer, the answer's width, its style, a note
        # under it): the form is laid out from them again when the window changes size.
        answered: list[tuple[str, str, int, str, str]] = []

        def layout(prompt: str = "", width: int = 0, note: str = "", extra: int = 0) -> tuple[int, int]:
            """The form so far at the screen's width now, then `prompt` with `note` under it:
            where the answer goes.  No prompt: (the row below the form, 3).  `extra`: rows the
            caller draws under it (the levels); where the form and they would reach the hint's
            rows at the bottom, the answers so far are said on one line instead (on a short screen
            the question being asked was drawn below the last line)."""
            right = self.con.width - 1

            def ask(row: int) -> tuple[int, int]:
                if not prompt:
                    return row, 3
                at = self.ask_at(row, prompt, width)
                if note:
                    self.con.put_wrapped(at[0] + 1, 5, note, "dim", right=right)
                return at

            self.con.clear()
            self.con.put(2, 3, "Begin a new game", "title")
            # Each question's rows follow the last's, so that a narrow screen's longer lines overlap none.
            row = 4 + self.con.put_wrapped(3, 3, BEGIN_HEADER, "dim", right=right)
            for asked, answer, size, style, under in answered:
                at = self.ask_at(row, asked, size)
                self.con.put(at[0], at[1], answer, style)
                row = at[0] + 2 + (self.con.put_wrapped(at[0] + 1, 5, under, "dim", right=right) if under else 0)
            at = ask(row)
            under_rows = len(wrap(note, right - 4)) if note and prompt else 0
            if at[0] + under_rows + extra <= min(24, self.con.height) - 3:
                return at
            self.con.clear()
            self.con.put(1, 3, "Begin a new game", "title")
            so_far = ", ".join(f"{answer} point{'s' if answer != '1' else ''}" if asked.startswith("Match length")
                               else answer for asked, answer, *_ in answered)
            row = 2 + (self.con.put_wrapped(2, 3, f"So far: {so_far}.", "dim", right=right, rows=2) if so_far else 0)
            return ask(row)

        async def choose(prompt: str, width: int, answers: dict[str, str], hint: str, note: str = "") -> str | None:
            """One key answers the question (Enter: the first); None: Esc."""
            where = layout(prompt, width, note)
            said: Key | None = None
            while True:
                if said is not None:
                    self.hint(said, hint)
                # The terminal's cursor where the answer goes, not at the end of the last refusal.
                self.con.text_cursor(where)
                await self.con.show()
                key = await self.con.key_or_resize()
                self.con.text_cursor(None)
                if key is WAKE:
                    where = layout(prompt, width, note)  # resized: the form again, at the new width
                    continue
                if key.name == "esc":
                    return None
                if key.name == "enter" and said is not None:
                    # Typed right after a refused key, before the refusal could be read: 'Z' and
                    # Enter had made the default, and the refusal went as soon as it came.
                    said = None
                    self.enter_again(next(iter(answers.values())))
                    continue
                c = "" if key.name == "enter" else key.char.upper()
                if c in answers or key.name == "enter":
                    self.hint()
                    answer = answers[c] if c else next(iter(answers.values()))
                    answered.append((prompt, answer, width, "normal", note))
                    return answer
                said = key

        default = self.config.default_length
        length = default
        length_prompt = f"Match length, 1 to {LONGEST_MATCH} points [{default}]: "
        typed = ""
        wrong = ""  # why the last answer was no length: said until the next one, the field empty again
        while True:
            where = layout(length_prompt, 2)
            self.hint(None, wrong)

            def full(refused: bool, wrong: str = wrong) -> None:
                """A third character: why it was not taken (it went unsaid, and 'abc' was refused as
                'ab'); a backspace takes it back."""
                self.hint(None, f"A match length has at most two digits (1 to {LONGEST_MATCH})." if refused else wrong)

            def no_digit(char: str | None, wrong: str = wrong) -> None:
                """A letter was taken as typed ('a b c' made 'ab') and refused only at Enter."""
                shown = char if char is None or char.strip() else "a space"
                self.hint(None, f"A match length is a number, 1 to {LONGEST_MATCH}: {shown} is not a digit."
                          if shown is not None else wrong)

            try:
                text = await self.con.line(where[0], where[1], 2, initial=typed, wake=True,  # right after its prompt
                                           full=full, allowed=lambda c: c in "0123456789", refused=no_digit)
            except Woken as woken:
                typed = woken.text
                continue
            if text is None:
                return
            if not text.strip():
                break  # the default, shown as if typed
            if text.strip().isdigit() and 1 <= int(text) <= LONGEST_MATCH:
                length = int(text)
                break
            typed = ""
            wrong = (f"{text.strip()} is not a match length: type a number from 1 to {LONGEST_MATCH}, "
                     f"or Enter for {default}; Esc goes back to the menu.")
        answered.append((length_prompt, str(length), 2, "input", ""))
        side = await choose("Play as W)hite, B)lack or R)andom [R]: ", 6, {"R": "Random", "W": "White", "B": "Black"},
                            "W, B or R (Enter: Random); Esc goes back to the menu.")
        if side is None:
            return
        color = {"White": Color.WHITE, "Black": Color.BLACK}.get(side)
        levels = self.rt.bot_levels()
        choices = {"O": "Open seat", "N": "Named player"}
        if levels:
            choices["C"] = "Computer"
        # Why some computer levels are missing, for the player (the sysop's reason is in the log).
        choice = await choose(f"Opponent: O)pen seat, {'C)omputer, ' if levels else ''}or N)amed player [O]: ", 12,
                              choices,
                              f"O, {'C ' if levels else ''}or N (Enter: Open seat); Esc goes back to the menu.",
                              self.rt.bot_note)

        def below() -> int:
            return layout()[0]

        def above_levels() -> int:
            return layout(extra=len(levels) + 2)[0]

        opponent: str | None = None
        if choice is None:
            return
        if choice == "Computer":
            opponent = await self.pick_level(levels, above_levels)
            if opponent is None:
                return
        if choice == "Named player":
            view = await self.begin_named(length, color, below)
            if view is None:
                return
        else:
            try:
                view = await self.svc.begin_game(self.player.id, length, color, opponent)
            except AccountClosed:
                raise
            except ServiceError as exc:
                await self.flash(22, sentence(str(exc)))
                return
        against = view.black if view.viewer_color is Color.WHITE else view.white
        # An open seat says so itself on the board, with how a player comes.
        begun = f"Game #{view.id} begun: {a_match(view.state.length)} against {against}." if against else ""
        await self.game_screen(view.id, begun)

    async def begin_named(self, length: int, color: Color | None, form: Callable[[], int]) -> GameView | None:
        """Ask for the opponent's handle until it names a player (or the caller gives up); `form`
        lays out the questions above it and gives the row for this one."""
        assert self.player is not None
        prompt = "Opponent's handle: "
        typed = said = ""
        row = form()
        while True:
            self.con.put(row, 3, prompt, "prompt")
            if said:
                self.hint(None, said, rows=3)  # the form leaves the bottom line free: a narrow screen needs it
            try:
                # A member board's player by the alias their board knows, with its @TAG: the field
                # had taken 16 characters and begun a game with whoever the cut name was.
                name = await self.con.line(row, 3 + len(prompt), NAME_LIMIT, initial=typed, wake=True)
            except Woken as woken:
                typed, row = woken.text, form()
                continue
            typed = ""
            if name is None or (not name.strip() and said):
                return None  # Esc; or Enter, offered as the way back after a handle refused
            if not name.strip():
                # Enter alone had gone back to the menu unsaid (the form's Enter takes a default).
                said = "Type your opponent's handle, then Enter; Enter again goes back to the menu."
                continue
            try:
                return await self.svc.begin_game(self.player.id, length, color, name.strip())
            except AccountClosed:
                raise
            except ServiceError as exc:
                # Their answers so far stand: only the handle is asked again.
                self.hint(rows=3)
                said = f"{sentence(str(exc))} Type another handle, or Enter to go back."
                said = self.with_name_cut(said, name.strip(), 3)

    def with_name_cut(self, said: str, name: str, rows: int) -> str:
        """`said` for hint's `rows`, the `name` it quotes cut (keeping its number and tag) where
        the whole would not fit: a 46-character alias@TAG typed at 40 columns had pushed 'Enter
        to go back.' off the screen."""
        width = self.con.width - 3
        if len(wrap(said, width)) <= rows or name not in said:
            return said
        for n in range(len(name) - 1, 7, -1):
            cut = said.replace(name, fit_name(name, n), 1)
            if len(wrap(cut, width)) <= rows:
                return cut
        return said

    def hint(self, key: Key | None = None, text: str = "", rows: int = 2) -> None:
        """Why a key or an answer does nothing, on the `rows` lines from two above the bottom (three
        take the bottom line too: only where nothing else is there); no text clears them."""
        row = min(24, self.con.height) - 2
        for i in range(rows):
            self.con.put(row + i, 3, " " * (self.con.width - 3))
        if text:
            if key is not None:
                shown = key.char.upper() if key.char.strip() else "That key"
                text = f"{shown} is not an answer: {text}"
            width = self.con.width - 3
            if len(wrap(text, width)) > rows:
                # A narrow screen: what Esc does is said in the form's header too, and the answers
                # matter more (at 40 columns they were cut off after 'Esc goes back to the').
                text = text.replace("; Esc goes back to the menu.", ".")
            self.con.put_wrapped(row, 3, text, "error", right=self.con.width - 1, rows=rows)

    def enter_again(self, default: str) -> None:
        """An Enter typed right after a refused key at a B)egin question: asked for again, not taken."""
        self.hint(None, f"Enter again for {default}; Esc goes back to the menu.")

    async def pick_level(self, levels: list[tuple[str, str]], form: Callable[[], int]) -> str | None:
        """levels: (label, bot player handle); `form` lays out the questions above the list and
        gives its first row."""
        prompt = "Level [1]: "

        def draw() -> int:
            row = form()
            self.con.put(row, 3, "The computer's levels:")  # the row had stood blank, as if a heading were lost
            row += 1
            for i, (label, _) in enumerate(levels):
                # A label too long for a narrow screen goes on under itself, not past the edge.
                self.con.put(row, 6, f"{i + 1}) ")
                row += self.con.put_wrapped(row, 9, label, right=self.con.width - 1)
            self.con.put(row, 6, prompt, "prompt")
            return row

        row = draw()
        chosen = 0
        typed = False
        said: Key | None = None
        while True:
            if said is not None:
                self.hint(said, f"a level from 1 to {len(levels)}, then Enter; Esc goes back to the menu.")
            # A number, then Enter, like the match length: an Enter typed after the number is
            # not left over to roll the dice or pick up a checker on the board.
            self.con.put(row, 6 + len(prompt), str(chosen + 1) if typed else " ", "input")
            self.con.text_cursor((row, 6 + len(prompt) + typed))
            await self.con.show()
            key = await self.con.key_or_resize()
            self.con.text_cursor(None)
            if key is WAKE:
                row = draw()  # resized: the form again, at the new width
                continue
            if key.name == "esc":
                return None
            if key.name == "enter" and said is not None:
                said = None  # as at the B)egin form's other questions: '9' and Enter had made level 1
                self.enter_again(f"level {chosen + 1}")
                continue
            if key.name == "enter":
                return levels[chosen][1]
            self.hint()
            said = None
            if key.name == "backspace":
                chosen, typed = 0, False
            elif key.char.isdigit() and typed:
                # A second digit had taken the first's place unsaid ('2' then '3': level 3), where
                # the match length's full field says why it takes no more.
                self.con.bell("error")
                self.hint(None, f"A level is one digit, 1 to {len(levels)}: Backspace takes {chosen + 1} back.")
            elif key.char.isdigit() and 1 <= int(key.char) <= len(levels):
                chosen, typed = int(key.char) - 1, True
            else:
                said = key

    # ------------------------------------------------------------ game

    async def game_screen(self, game_id: int, greeting: str = "") -> None:
        """The board; `greeting` said on it first when there is no news (how the caller got here)."""
        if not await self.room_for_board():
            return
        await GameScreen(self, game_id, greeting).run()

    def board_fits(self) -> bool:
        """80 columns, and the board's rows down to its help line (23; 24 where a narrower screen
        breaks the help into three lines)."""
        return self.con.width >= 80 and self.con.height >= board_rows(self.con.width)

    def board_cuts(self) -> set[str]:
        """What the terminal's size cuts off the board (see cuts_ok)."""
        # Narrower than 80 columns the help takes a 24th line: at 40x23 its last line (?)help and
        # Q)uit) was cut off without a word.
        # Shorter than 80 columns' rows, the message and all the keys go: going on at 40x23 (the
        # help's last line) had covered 40x18.
        short = "short" if self.con.height < board_rows(80) else \
            "help" if self.con.height < board_rows(self.con.width) else ""
        # Under 54 columns the board's right edge goes too, not only the panel: going on at 60 had
        # covered 40; and under 49 points go: going on at 50 (every point shown) had covered 45.
        narrow = ["narrow", *(["edge"] if self.con.width < 54 else []), *(["points"] if self.con.width < 49 else [])] \
            if self.con.width < 80 else []
        return {*narrow, *([short] if short else [])}

    def cuts_covered(self) -> bool:
        """Whether the caller went on anyway at every cut the board now has: the message and keys
        cut off covers the help's last line."""
        ok = self.cuts_ok | ({"help"} if "short" in self.cuts_ok else set())
        return self.board_cuts() <= ok

    async def room_for_board(self) -> bool:
        """The board needs 80 columns and its rows: on a smaller terminal say so, with its size, and
        let the caller enlarge the window, go on anyway (asked once a call for each cut: going on at
        40 columns had let a window made shorter later lose the message and keys without a word),
        or go back."""
        if self.board_fits() or self.cuts_covered():
            return True
        shown = (0, 0)
        while not self.board_fits() and not self.cuts_covered():
            if shown != (self.con.width, self.con.height):
                shown = (self.con.width, self.con.height)
                # What it needs is said for 80 columns (23 lines); narrower, the help takes a 24th.
                narrow, short = self.con.width < 80, self.con.height < board_rows(80)
                needs = " and ".join([*(["80 columns"] if narrow else []), *([f"{board_rows(80)} lines"]
                                                                            if short else [])])
                # At 40x23: 80 columns would do, but here the help's last line is below the screen.
                help_cut = "help" in self.board_cuts()
                right = self.con.width - 1
                size = f"{self.con.width} columns and {self.con.height} lines"
                # The points take columns 1-49, the tray (or the cube, on a board turned as the
                # table stands) 50-54, the names, scores and pip counts 56-80.
                cuts = []
                which = ""  # the points cut off, named
                if narrow and self.con.width >= 54:
                    cuts.append("the right-hand side of the board (the names, scores and pip counts) would be cut off")
                elif narrow and self.con.width >= 49:
                    # Every point shows: 'some of its points would be cut off' had not been so at 50.
                    # What stands there: the tray, but on Black's board as the table stands the
                    # cube, in a game that has one ('the bear-off tray, or the cube' had been said
                    # over a whole board, its tray on the left, in a 1-point match).
                    edge = "the bear-off tray" if self.con.orientation != "table" else \
                        "the bear-off tray; or, playing Black, the cube where the game has one"
                    cuts.append(f"only the left {self.con.width} of the board's 80 columns would show: its right "
                                f"edge ({edge}) would be cut off, and the names, scores and pip counts with it")
                elif narrow:
                    # Which, where the side does not change them (as the table stands, Black's board is
                    # turned): 'some of its points' had left the caller to find them.
                    gone = [str(p) for p in range(1, 25) if not self.con.in_sight(p, Color.WHITE)]
                    which = f" ({', '.join(gone[:-1])} and {gone[-1]})" \
                        if len(gone) > 1 and self.con.orientation != "table" else ""
                    cuts.append(f"only the left {self.con.width} of the board's 80 columns would show: some of its "
                                f"points{which} would be cut off, and the names, scores and pip counts with them")
                if short and self.con.height < MESSAGE_ROW + 2:
                    # What the board says goes over its foot (see GameScreen.draw); the keys do not.
                    cuts.append(f"only its top {self.con.height} lines would show: what the board says goes over "
                                "its bottom rows, and the keys that work are below them")
                elif short:
                    cuts.append(f"only its top {self.con.height} lines would show: the keys that work are below "
                                "them")
                if help_cut:
                    cuts.append(f"only its top {self.con.height} lines would show: the last line of the keys "
                                "that work (?)help and Q)uit among them) is below them")
                # The points not named where the screen has no room for them (a short one's rows go
                # to what else is cut).
                plain = [c.replace(which, "") for c in cuts] if which else []
                bigger = "wider and taller" if narrow and short else "wider" if narrow else "taller"
                title = f"The board needs {needs}"
                keys = "Enter goes on anyway; Q goes back."
                # As much of the why as the screen has room for, with the keys that work always on it
                # (at 40x12 they were drawn below the last line), and two lines under them for a refusal.
                follow = f"Make the window {bigger} if you can: the board follows at once." if self.con.sized_live \
                    else "Your connection does not tell a new window size, so the board cannot follow one."
                told = [
                    # The promise only where the size is told as it changes: an RLogin gateway that
                    # never answered the window request had been promised it, and nothing followed.
                    (f"Your terminal shows {size}, so {'; and '.join(cuts)}.", follow, 1),
                    *([(f"Your terminal shows {size}, so {'; and '.join(plain)}.", follow, 1)] if plain else []),
                    (f"Your terminal shows {size}.", f"Make the window {bigger} if you can.", 1),
                    (f"Your terminal shows {size}.", f"Make the window {bigger} if you can.", 0),
                    ("", "", 0),
                ]
                width = right - 2

                def lines(text: str, width: int = width) -> int:
                    return len(wrap(text, width)) if text else 0

                top = 2 if self.con.height >= 16 else 1
                for explain, wider, gap in told:
                    need = top + lines(title) + gap + lines(explain) + gap + lines(wider) + gap + lines(keys) + 2
                    if need <= self.con.height + 1:
                        break
                self.con.clear()
                row = top + self.con.put_wrapped(top, 3, title, "title", right=right) + gap
                if explain:
                    row += self.con.put_wrapped(row, 3, explain, right=right) + gap
                if wider:
                    row += self.con.put_wrapped(row, 3, wider, right=right) + gap
                said = row + self.con.put_wrapped(row, 3, keys, "prompt", right=right)
                await self.con.show()
            key = await self.con.key(timeout=1.0, idle=True)  # looks at the size again each second
            if key is None:
                continue
            if key.name == "esc" or key.char.upper() == "Q":
                return False
            if key.name != "enter":
                typed = key.char.upper() if key.char.strip() else "That key"
                self.con.put(said, 3, " " * (self.con.width - 3))
                self.con.put(said + 1, 3, " " * (self.con.width - 3))
                self.con.put_wrapped(said, 3, f"{typed} does nothing here: Enter goes on anyway, Q goes back.",
                                     "error", right=right, rows=2)
                await self.con.show()
                continue
            self.cuts_ok |= self.board_cuts()
            break
        return True

