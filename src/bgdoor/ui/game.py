"""The game screen: the board, the keypad cursor, and the seed's game commands."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol

from bgdoor.rules.game import Color, Phase, Win
from bgdoor.rules.moves import legal_plays
from bgdoor.rules.parse import IllegalPlay
from bgdoor.rules.position import Position
from bgdoor.rules.rating import START_RATING
from bgdoor.rules.turn import Turn
from bgdoor.service import GameChanged, GameView, PlayerInfo, ServiceError, StorageError, TurnNote
from bgdoor.ui.board import MOVE_HELP, Loc
from bgdoor.ui.console import Console, Key

if TYPE_CHECKING:
    from bgdoor.ui.gateway import Gateway
    from bgdoor.ui.runtime import Runtime

NOTE_LENGTH = 140
WIN_WORDS = {Win.SINGLE: "a single game", Win.GAMMON: "a gammon", Win.BACKGAMMON: "a backgammon"}


def _loc_to_point(loc: Loc) -> int:
    return 25 if loc == "bar" else 0 if loc == "off" else int(loc)


def _point_to_loc(point: int) -> Loc:
    return "bar" if point == 25 else "off" if point == 0 else point


class Caller(Protocol):
    """What the game screen needs of the session it runs in (a ui.session.Session)."""

    con: Console
    svc: Gateway
    rt: Runtime
    player: PlayerInfo | None

    def presence(self, activity: str, game_id: int | None = None) -> None: ...


class GameScreen:
    def __init__(self, session: Caller, game_id: int) -> None:
        self.s = session
        self.con = session.con
        self.svc = session.svc
        self.rt = session.rt
        self.game_id = game_id
        self.view: GameView | None = None
        self.turn: Turn | None = None
        self.cursor: Loc = 13
        self.hand: int | None = None  # source point of the checker in hand (mover's numbering)
        self.message = ""
        self.ratings = ""  # shown once the match is over
        self.pending_note: str | None = None  # goes to the opponent with the turn being played
        self.their_note: TurnNote | None = None  # the opponent's note with their last turn

    @property
    def me(self) -> Color | None:
        return self.view.viewer_color if self.view else None

    @property
    def pid(self) -> int:
        assert self.s.player is not None
        return self.s.player.id

    # ------------------------------------------------------------ loop

    async def run(self) -> None:
        await self.reload()
        self.s.presence("playing" if self.me is not None else "watching", self.game_id)
        self.rt.watch(self.game_id, self.con.wake)
        try:
            while True:
                self.draw()
                await self.con.show()
                event = await self.next_event()
                if event is None:
                    await self.on_change()
                    continue
                if not await self.on_key(event):
                    return
        finally:
            self.rt.unwatch(self.game_id, self.con.wake)

    async def reload(self) -> None:
        self.view = await self.svc.game(self.game_id, self.pid)
        self.sync_turn()
        await self.note_match_end()
        if self.me is not None:
            try:
                self.their_note = await self.svc.opponent_note(self.game_id, self.pid)
            except StorageError:
                pass  # the note shows at the next look

    async def note_match_end(self) -> None:
        if self.view is not None and self.view.state.over and not self.ratings:
            self.ratings = await self.rating_changes()

    async def rating_changes(self) -> str:
        """'alice 1510.3 (+10.3)  bob 1489.7 (-10.3)': each player's rating after the match, and its change."""
        v = self.view
        assert v is not None
        parts = []
        for color in (Color.WHITE, Color.BLACK):
            try:
                page = await self.svc.player_page(v.name(color))
            except ServiceError:
                continue
            history = page.rating_history
            if history:
                before = history[-2][1] if len(history) >= 2 else START_RATING
                parts.append(f"{page.player.handle} {page.player.rating:.1f} ({history[-1][1] - before:+.1f})")
            else:
                parts.append(f"{page.player.handle} {page.player.rating:.1f}")
        return "Ratings: " + "  ".join(parts) if parts else ""

    def sync_turn(self) -> None:
        """Start a move-by-move turn when the dice are ours to play; keep one in progress."""
        v = self.view
        assert v is not None
        st = v.state
        if st.phase is Phase.MOVE and v.my_turn and st.dice is not None:
            if self.turn is None or self.turn.start != st.position or self.turn.dice != st.dice:
                self.turn = Turn(st.position, st.dice)
                self.hand = None
                plays = legal_plays(st.position, st.dice)
                if len(plays) == 1:
                    for m in plays[0].moves:
                        self.turn.move(m.src, m.dst)
                    self.message = f"Your only play is {plays[0]}. Enter commits it."
                elif not plays:
                    self.message = "You cannot move with this roll. Enter passes the turn."
        else:
            self.turn = None
            self.hand = None

    async def next_event(self) -> Key | None:
        """The next key, or None when the game changed (here, or in another process)."""
        assert self.view is not None
        while True:
            # The change feed wakes this screen when its game changes, in any process.
            key = await self.con.key(idle=True, wake=True)
            if key.name != "wake":
                return key
            if self.rt.version(self.game_id) != self.view.version:
                return None

    async def on_change(self) -> None:
        old = self.view
        await self.reload()
        assert self.view is not None
        if old is not None and self.view.version != old.version:
            if self.me is not None and self.view.state.actor is self.me:
                self.con.bell("your_turn")
            self.message = self.describe_news(old)

    def describe_news(self, old: GameView) -> str:
        v = self.view
        assert v is not None
        st = v.state
        if st.phase is Phase.DOUBLED and st.actor is self.me:
            return f"{v.name(st.turn)} doubles to {st.cube * 2}. T)ake or D)rop?" if st.turn else ""
        if st.phase is Phase.RESIGNED and st.actor is self.me and st.resign_by:
            if not st.resign_win:
                return ""
            return f"{v.name(st.resign_by)} resigns, offering {WIN_WORDS[st.resign_win]}. A)ccept or J)reject?"
        if len(st.results) > len(old.state.results) or st.over:
            return self.result_text()
        if st.phase is Phase.MOVE and st.dice:
            return f"{v.name(st.turn)} rolled {st.dice[0]}-{st.dice[1]}." if st.turn else ""
        return "Your turn: P)lay rolls the dice." if v.my_turn else "The game has moved on."

    def result_text(self) -> str:
        v = self.view
        assert v is not None
        st = v.state
        if not st.results:
            return ""
        r = st.results[-1]
        text = f"{v.name(r.winner)} wins {WIN_WORDS[r.win]}: {r.points} point{'s' if r.points > 1 else ''}."
        if r.how == "drop":
            points = f"{r.points} point{'s' if r.points > 1 else ''}"
            text = f"{v.name(r.winner.other)} dropped: {v.name(r.winner)} wins {points}."
        elif r.how == "forfeit":
            text = f"{v.name(r.winner.other)} forfeited the match."
        if st.over:
            text += f" Match over, {st.score[0]}-{st.score[1]}."
        else:
            text += f" Score {st.score[0]}-{st.score[1]}."
        return text

    # ------------------------------------------------------------ drawing

    def draw(
        self,
        position: Position | None = None,
        on_roll: Color | None = None,
        dice: tuple[int, int] | None = None,
        note: str | None = None,
    ) -> None:
        v = self.view
        assert v is not None
        st = v.state
        viewer = self.me or Color.WHITE
        sources: set[int | str] = set()
        dests: set[int | str] = set()
        live = position is None  # the current board, not an animation frame
        if position is None:
            if self.turn is not None:
                position = self.turn.position
                if self.hand is None:
                    sources = {_point_to_loc(p) for p in self.turn.sources()}
                else:
                    dests = {_point_to_loc(p) for p in self.turn.destinations(self.hand)}
            else:
                position = st.position
            on_roll = st.turn or Color.WHITE
            dice = st.dice
        self.con.board(
            position=position,
            on_roll=on_roll or Color.WHITE,
            viewer=viewer,
            spectator=self.me is None,
            names=(v.name(Color.WHITE), v.name(Color.BLACK)),
            score=st.score,
            length=st.length,
            cube=st.cube,
            cube_owner=st.cube_owner,
            dice=dice,
            dice_left=self.turn.remaining_dice if self.turn is not None and live else None,
            cursor=self.cursor if self.turn is not None and live else None,
            sources=frozenset(sources),
            destinations=frozenset(dests),
            in_hand=_point_to_loc(self.hand) if self.hand is not None else None,
            turn=st.actor or st.turn,
            message=note if note is not None else self.with_notes(self.message),
            help=self.help_line(),
            crawford=st.crawford,
        )

    def with_notes(self, message: str) -> str:
        """The message line, and the opponent's note with their last turn, or the one about to go."""
        if self.pending_note:
            extra = f'Your note: "{self.pending_note}"'
        elif self.their_note is not None:
            extra = f'{self.their_note.by} says: "{self.their_note.text}"'
        else:
            return message
        return f"{message}  {extra}" if message else extra

    def help_line(self) -> str:
        v = self.view
        assert v is not None
        st = v.state
        if st.over:
            return (self.ratings + "   Q)uit") if self.ratings else "The match is over. V)iew last moves  I)D  Q)uit"
        if self.me is None:
            return "Watching. V)iew last moves  I)D  Q)uit"
        actor = st.actor
        if st.phase is Phase.OPENING:
            return "P)lay: roll for who starts  I)D  Q)uit"
        if actor is not self.me:
            return "Waiting for your opponent.  V)iew last moves  I)D  G)ive up  Q)uit"
        if st.phase is Phase.ROLL:
            return "P)lay rolls  " + ("D)ouble  " if st.can_double() else "") + "N)ote  V)iew last  G)ive up  Q)uit"
        if st.phase is Phase.DOUBLED:
            return "T)ake or D)rop the double.  V)iew last  Q)uit"
        if st.phase is Phase.RESIGNED:
            return "A)ccept or J) reject the resignation.  Q)uit"
        if self.turn is not None and self.turn.is_complete:
            return "Enter commits the play.  U)ndo  N)ote  Q)uit"
        return MOVE_HELP

    # ------------------------------------------------------------ keys

    async def on_key(self, key: Key, retried: bool = False) -> bool:
        """Handle one key; False leaves the screen."""
        assert self.view is not None
        c = key.char.upper() if key.char else ""
        # An action key may beat the change notice to us: act on the game as it is now.
        # (Picking up and dropping checkers reads nothing: the save checks the version.)
        action = bool(c) and c in "PDTAJGM" and key.name != "move"
        if action and await self.svc.game_version(self.game_id) != self.view.version:
            await self.reload()
        st = self.view.state
        self.message = ""
        if key.name == "redraw":
            self.con.redraw()
            return True
        if key.name == "esc" or (c == "Q" and key.name != "move"):
            return False
        if c == "I":
            self.message = f"Position ID {st.position.id}" + (
                f"  Match ID {self.match_id()}" if self.match_id() else ""
            )
            return True
        if c == "V":
            await self.view_last()
            return True
        if self.me is None or st.over:
            return True
        try:
            if st.phase is Phase.OPENING and c == "P":
                await self.act(self.svc.roll, "")
            elif st.actor is not self.me:
                if c == "G" and st.phase in (Phase.ROLL, Phase.MOVE):
                    await self.give_up()
                else:
                    self.message = "It is not your turn."
            elif c == "N" and st.phase in (Phase.ROLL, Phase.MOVE):
                await self.write_note()
            elif st.phase is Phase.ROLL:
                if c == "P":
                    await self.roll()
                elif c == "D":
                    await self.act(self.svc.double, "You offer a double. Your opponent decides on their next visit.")
                elif c == "G":
                    await self.give_up()
            elif st.phase is Phase.DOUBLED:
                if c == "T":
                    await self.act(self.svc.take, "You take. The cube is yours.")
                elif c == "D":
                    await self.act(self.svc.drop, "")
                    self.message = self.result_text()
            elif st.phase is Phase.RESIGNED:
                if c in ("A", "J"):
                    await self.act(lambda p, g, v: self.svc.answer_resign(p, g, v, c == "A"), "")
                    self.message = self.result_text() if c == "A" else "You reject the resignation; play on."
            elif st.phase is Phase.MOVE:
                await self.move_key(key, c)
        except IllegalPlay as exc:
            self.message = str(exc)
        except GameChanged as exc:
            await self.reload()
            now = self.view.state
            if not retried and (now.phase, now.actor, now.dice) == (st.phase, st.actor, st.dice):
                # Something that does not touch this action moved the version on (a join): try once more.
                return await self.on_key(key, retried=True)
            self.message = str(exc)
        except ServiceError as exc:
            self.message = str(exc)
        return True

    def match_id(self) -> str:
        try:
            from bgdoor.rules.matchid import match_id  # noqa: PLC0415 - optional until it exists
        except ImportError:
            return ""
        assert self.view is not None
        return match_id(self.view.state)

    async def act(self, method: Callable[[int, int, int], Awaitable[GameView]], done: str) -> None:
        assert self.view is not None
        self.view = await method(self.pid, self.game_id, self.view.version)
        await self.note_match_end()
        self.message = done
        self.sync_turn()
        if self.view.state.phase is Phase.MOVE and self.view.my_turn and not self.message and self.view.state.dice:
            d = self.view.state.dice
            self.message = self.message or f"You rolled {d[0]}-{d[1]}."

    async def roll(self) -> None:
        assert self.view is not None
        self.view = await self.svc.roll(self.pid, self.game_id, self.view.version)
        # The dice are already committed; the tumbling is only for show.
        st = self.view.state
        for _ in range(4):
            self.draw(
                position=st.position,
                on_roll=st.turn,
                dice=(random.randint(1, 6), random.randint(1, 6)),
                note="Rolling...",
            )
            await self.con.show()
            await asyncio.sleep(0.08)
        self.con.bell("roll")
        self.message = ""
        self.sync_turn()
        if not self.message and st.dice:
            self.message = f"You rolled {st.dice[0]}-{st.dice[1]}."

    async def give_up(self) -> None:
        self.message = "Give up: 1) single game  2) gammon  3) backgammon, or Esc"
        self.draw()
        await self.con.show()
        key = await self.con.key()
        wins = {"1": Win.SINGLE, "2": Win.GAMMON, "3": Win.BACKGAMMON}
        if key.char not in wins:
            self.message = ""
            return
        win = wins[key.char]
        await self.act(lambda p, g, v: self.svc.resign(p, g, v, win), "You offer to resign; your opponent must accept.")

    # ------------------------------------------------------------ moving

    async def move_key(self, key: Key, c: str) -> None:
        turn = self.turn
        if turn is None:
            return
        if key.name in ("up", "down", "left", "right", "home", "end", "pgup", "pgdn"):
            self.cursor = self.con.move_cursor(self.cursor, key.name, self.me or Color.WHITE)
            return
        if c == "U":
            if self.hand is not None:
                self.hand = None
            elif turn.moves:
                turn.undo()
            else:
                self.message = "Nothing to undo."
            return
        if c == "M":
            await self.typed_play()
            return
        if key.name == "enter" and (turn.is_complete or turn.no_play):
            await self.commit()
            return
        if c == "R":
            src = self.hand if self.hand is not None else _loc_to_point(self.cursor)
            self.hand = None
            turn.move(src, 0)
            self.after_move()
            return
        if key.name in ("enter", "act"):
            point = _loc_to_point(self.cursor)
            if self.hand is None:
                if point in turn.sources():
                    self.hand = point
                    if not turn.destinations(point):
                        self.hand = None
                        self.message = "That checker has nowhere to go."
                else:
                    self.message = "No checker of yours can move from there."
                return
            if point == self.hand:
                self.hand = None
                return
            src, self.hand = self.hand, None
            turn.move(src, point)  # raises IllegalPlay with the reason
            self.after_move()

    def after_move(self) -> None:
        turn = self.turn
        if turn is not None and turn.is_complete and turn.play is not None:
            self.message = f"Your play: {turn.play}.  Enter commits, U)ndo takes back."

    async def commit(self) -> None:
        turn = self.turn
        assert turn is not None and self.view is not None
        play = ""
        if not turn.no_play:
            assert turn.play is not None  # a complete turn with a play to make has made it
            play = turn.play.position.id
        self.view = await self.svc.submit_turn(self.pid, self.game_id, self.view.version, play, self.pending_note)
        self.pending_note = None
        self.their_note = None
        self.turn = None
        self.sync_turn()
        await self.note_match_end()
        self.message = (
            self.result_text()
            if self.view.state.results and self.view.state.phase is Phase.OPENING or self.view.state.over
            else "Turn sent."
        )

    async def typed_play(self) -> None:
        assert self.view is not None
        self.message = "Your play (like 24/18 13/11), Enter sends, Esc cancels:"
        self.draw()
        await self.con.show()
        text = await self.con.line(23, 2, 40)
        self.message = ""
        if text is None or not text.strip():
            return
        self.view = await self.svc.submit_turn(
            self.pid, self.game_id, self.view.version, text.strip(), self.pending_note
        )
        self.pending_note = None
        self.their_note = None
        self.turn = None
        self.sync_turn()
        await self.note_match_end()
        self.message = self.result_text() if self.view.state.over else "Turn sent."

    async def write_note(self) -> None:
        """A note of up to NOTE_LENGTH characters for the opponent, sent with this turn."""
        text = self.pending_note or ""
        while True:
            prompt = f"Note to your opponent ({len(text)}/{NOTE_LENGTH}; Enter keeps it, Esc cancels): "
            # The message has three lines at most: on a narrow screen the end of the note shows.
            room = 3 * (self.con.width - 3) - len(prompt) - 2
            shown = text if len(text) <= room else "..." + text[len(text) - room + 3 :]
            self.draw(note=prompt + shown + "_")
            await self.con.show()
            key = await self.con.key(idle=True)
            if key.name == "esc":
                self.message = "No note changed."
                return
            if key.name == "enter":
                self.pending_note = text.strip() or None
                self.message = "Your note goes with this turn." if self.pending_note else "No note goes with this turn."
                return
            if key.name == "backspace":
                text = text[:-1]
            elif key.char and key.char.isprintable() and len(text) < NOTE_LENGTH:
                text += key.char

    # ------------------------------------------------------------ replay

    async def view_last(self) -> None:
        last = await self.svc.last_turn(self.game_id, self.pid)
        if last is None:
            self.message = "No turn has been played yet."
            return
        pos = last.before.position
        frames: list[Position] = [pos]
        for m in last.moves:
            frames.append(frames[-1].apply(m))
        assert self.view is not None
        name = self.view.name(last.by)
        for i, frame in enumerate(frames):
            self.draw(
                position=frame,
                on_roll=last.by,
                dice=last.dice,
                note=f"{name} rolled {last.dice[0]}-{last.dice[1]}: {last.notation or 'no legal play'}",
            )
            await self.con.show()
            if i < len(frames) - 1 and await self.con.key(timeout=0.6) is not None:
                break
        self.message = f"{name} played {last.dice[0]}-{last.dice[1]}: {last.notation or 'no legal play'}"
