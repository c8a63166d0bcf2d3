"""The game screen: the board, the keypad cursor, the news, and the keys of ui.keys."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple, Protocol

from bgdoor.rules.game import (
    AcceptResign,
    Color,
    Drop,
    MatchState,
    Move,
    OpeningRoll,
    Phase,
    RejectResign,
    Resign,
    Win,
)
from bgdoor.rules.moves import Play, legal_plays, notation, roll_text
from bgdoor.rules.parse import IllegalPlay, parse_play
from bgdoor.rules.position import BAR, Move as CheckerMove, Position
from bgdoor.rules.turn import Turn
from bgdoor.service import (
    GameChanged,
    GameLog,
    GameSummary,
    GameView,
    IllegalAction,
    LastTurn,
    LoggedEvent,
    NotFound,
    PlayerInfo,
    ServiceError,
    StorageError,
    TurnNote,
)
from bgdoor.service.sysop import DELETED_NAME
from bgdoor.term.charset import shown_everywhere
from bgdoor.term.keys import untyped_said
from bgdoor.term.wrap import first_fitting, fit, sentence, shorten, wrap
from bgdoor.ui import keys as keytable
from bgdoor.ui.board import (
    BOTTOM_LABEL_ROW,
    HELP_ROW,
    MESSAGE_ROW,
    Loc,
    game_heading,
    last_text_row,
    match_score,
    message_rows,
    message_top,
    score_line,
    to_play,
    turn_line,
)
from bgdoor.ui.console import WAKE, Console, Hangup, Key, Woken
from bgdoor.ui.keys import State
from bgdoor.ui.news import (
    WIN_WORDS,
    NewsLine,
    ends_match,
    narrate,
    news_book,
    note_words,
    page_holding,
    points,
    rolled,
    since_turn,
    told_again,
)
from bgdoor.ui.review import (
    MORE,
    Frame,
    at_ends,
    fit_message,
    frames,
    help_page,
    is_refusal,
    replay_text,
    review_match,
    show_whole,
    step,
)

if TYPE_CHECKING:
    from bgdoor.ui.gateway import Gateway
    from bgdoor.ui.runtime import Runtime

ELSEWHERE = ("Your turn in ", "Your answer in ")  # how a notice of the player's other games begins
MANY_ELSEWHERE = 3  # more other games than this are counted, not named
DECIDED_ELSEWHERE = "Game #"  # how a result in another of them begins ('Game 2:' is this match's)


TURN_SENT = "Turn sent"  # how the player's own turn, sent, is said
RENAMED = "The sysop renamed"  # how a rename of a player here is said
BRIEF_END = "too: Q, P)lay."  # how the notice of other games ends in its fewest words


def elsewhere_text(games: list[int], straight: bool = False, brief: bool = False,
                   answers: frozenset[int] = frozenset()) -> str:
    """'Your turn in game #8 too: ...', 'Your turn in games #8, #9 too: ...'; `straight`: P)lay at
    the menu goes to the game (it is the only one waiting), else it lists them.  `brief`: the
    way there in two keys, for where the whole would push this board's news off the lines.
    `answers`: those that wait for an answer to an offer ('Your answer in game #8 too', 'Your
    turn in game #7, your answer in game #8 too'), as the menu and the panel tell an offer from
    a turn (a double, and an offer in a game named already, had been told as a turn)."""
    asked = [n for n in games if n in answers]
    turns = [n for n in games if n not in answers]

    def where(numbers: list[int]) -> str:
        return f"game #{numbers[0]}" if len(numbers) == 1 else "games " + ", ".join(f"#{n}" for n in numbers)

    if len(games) > MANY_ELSEWHERE:
        # Counted: thirty numbers had filled the lines at 40 columns, and 'Turn sent' was cut off.
        said = f"Your answer in {len(games)} other games" if not turns else \
            f"Your turn in {len(games)} other games" + (f" ({len(asked)} to answer)" if asked else "")
        return f"{said} {BRIEF_END}" if brief else f"{said} too: Q, then P)lay lists them."
    said = f"Your turn in {where(turns)}, your answer in {where(asked)}" if turns and asked else \
        f"Your turn in {where(turns)}" if turns else f"Your answer in {where(asked)}"
    if brief:
        return f"{said} {BRIEF_END}"
    if straight and len(games) == 1:
        return f"{said} too: Q, then P)lay, takes you there."
    # P)lay's list takes a game number: '#8' and Enter.
    numbers = [f"#{n}" for n in games]
    which = numbers[0] if len(games) == 1 else ", ".join(numbers[:-1]) + f" or {numbers[-1]}"
    return f"{said} too: Q, P)lay, then {which} and Enter."


def _only_play(dice: tuple[int, int], unused: tuple[int, ...]) -> str:
    """How the one legal play is introduced: 'only the 6 can be played:' when a die is lost with
    it (the higher-die rule), else 'your only play is'."""
    if not unused:
        return "your only play is"
    if dice[0] != dice[1]:
        return f"only the {sum(dice) - unused[0]} can be played:"
    n = 4 - len(unused)
    return f"only {('one', 'two', 'three')[n - 1]} {dice[0]}{'s' if n > 1 else ''} can be played:"


ELSEWHERE_PLAYED = "You played on in another session"  # kept beside the news that follows it
ELSEWHERE_DID = "In another session"  # what the player did there, told in another



def dice_played(start: Position, dice: tuple[int, int],
                moves: Sequence[CheckerMove]) -> list[tuple[int, ...] | None]:
    """The dice still to play before each move of a replayed turn and after the last (None: all),
    as the live board marks them: a replay had drawn both dice unused at every step."""
    turn = Turn(start, dice)
    lefts: list[tuple[int, ...] | None] = [None]
    for m in moves:
        try:
            turn.move(m.src, m.dst)
        except IllegalPlay:
            return lefts + [None] * (len(moves) + 1 - len(lefts))  # not the rules' own play: all shown
        lefts.append(() if turn.is_complete else turn.remaining_dice)
    return lefts


class KeptPlay(NamedTuple):
    """A typed play kept for M: for the roll it was typed for, after the moves `made` with the
    cursor; `refused` by the rules (a play typed anew replaces it), else closed by an offer to
    resign (typing goes on)."""

    start: Position
    dice: tuple[int, int]
    made: str
    text: str
    refused: bool


def unplayable(turn: Turn) -> str:
    """The dice a complete play leaves unplayed ('The 5 cannot be played.'); '' for none."""
    lost = turn.remaining_dice if turn.is_complete else ()
    if not lost:
        return ""
    return f"The {lost[0]} cannot be played." if len(lost) == 1 else \
        f"{['Two', 'Three', 'Four'][len(lost) - 2]} {lost[0]}s cannot be played."


class Superseded(Exception):
    """A question the board asked no longer stands: the game changed while it waited."""


# The present of the player's own acts, as news says them ('You take'), and its past.
_DONE = {"double": "doubled", "redouble": "redoubled", "take": "took", "drop": "dropped", "offer": "offered",
         "accept": "accepted", "refuse": "refused", "forfeit": "forfeited", "win": "won", "play": "played",
         "start": "started"}


def done_elsewhere(line: NewsLine) -> NewsLine:
    """A line of news of the player's own doing in another session, said to be so: 'In another
    session, you rolled 4-3 and played ...'."""
    if line.text.startswith("You "):
        # In the past, as 'you rolled 6-2 and played ...' is: 'In another session, you accept
        # the resignation.' had read as still to do.
        verb, _, rest = line.text[4:].partition(" ")
        return replace(line, text=f"{ELSEWHERE_DID}, you {_DONE.get(verb, verb)} {rest}".rstrip())
    return replace(line, text=f"{ELSEWHERE_DID}: {line.text}")


def renamed_text(pairs: list[tuple[str, str]]) -> str:
    """The sysop's renames, (was, now), as the board says them.  Deleted, a player shows as
    "(deleted)": not a name the sysop gave (their forfeit says why), but who it was is said."""
    return " ".join(f"{was} now shows as {now}." if now == DELETED_NAME else f"{RENAMED} {was} to {now}."
                    for was, now in pairs)


def is_rename(text: str) -> bool:
    """Whether a line of the board's is a rename alone (see renamed_text): news of no act."""
    return text.startswith(RENAMED) or text.endswith(f" now shows as {DELETED_NAME}.")


def renamed_in(text: str, pairs: list[tuple[str, str]]) -> str:
    """`text`, told before a rename, in the names now: its line and the next one telling the
    same roll again with its play had no longer been known for the same (the opening roll was
    told twice, under each name)."""
    if is_rename(text):
        return text
    for was, now in pairs:
        # Split and joined, not re.sub: the new name is taken as it is, whatever it holds.
        text = now.join(re.split(rf"(?<![\w~@]){re.escape(was)}(?![\w~@])", text))
    return text


def comer(text: str) -> str:
    """Who a line of GameScreen.opponent_news is about ('bob is on again.': bob)."""
    found = re.match(r"(.*?) (?:is on|has logged off)", text)
    return found.group(1) if found else text


_ACTS = ("rolled", "starts", "doubles", "redoubles", "takes", "drops", "offers", "accepts", "refuses", "cannot")


def acts_in(name: str, text: str) -> bool:
    """Whether a line of news tells an act of `name`'s: begins with it, or has it do something
    after a sentence's start ('Opening roll: alice 5, bob 2. bob starts with 5-2').  Being named
    is not acting: the opening roll names both players."""
    if text.startswith(f"{name} "):
        return True
    acts = "|".join(_ACTS)
    return re.search(rf"(?:^|[.:!] ){re.escape(name)}(?:'s note| (?:{acts})\b)", text) is not None


def comings_of(text: str, names: list[str]) -> bool:
    """Whether `text` is a line of GameScreen.opponent_news about one of `names`."""
    return any(text.startswith((f"{name} has logged off", f"{name} is on")) for name in names)


def with_renames(lines: list[NewsLine], renamed: str) -> list[NewsLine]:
    """The news with what the sysop renamed said first: before a result, on the line the board
    keeps with it (said apart, it was the line that gave way); else a line of its own (on the
    roll's line, 'bobby rolled 5-4.' was no longer known for the roll its play says again)."""
    if not renamed:
        return lines
    first = next((i for i, n in enumerate(lines) if n.result), None)
    if first is None:
        return [NewsLine(-1, renamed), *lines]
    at = max(0, first - 1)
    return [replace(n, text=f"{renamed} {n.text}") if i == at else n for i, n in enumerate(lines)]


def key_said(key: Key) -> str:
    """A key as a refusal names it: 'Z', or 'That key' for one with nothing to show."""
    return key.char.upper() if key.char.strip() else "That key"


def one_play_said(dice: tuple[int, int], play: Play, unused: tuple[int, ...]) -> str:
    """A roll with one legal play, in words.  A play that bears off the last checker leaves a
    die unused because the game is won, not because it cannot be played: 'only the 2 can be
    played: 1/off' of 2-1 had not been so (either die bears it off)."""
    if play.position.opponent_off == 15:  # the mover's checkers, the opponent now on roll
        unused = ()
    return f"You rolled {rolled(dice)}; {_only_play(dice, unused)} {play}. Enter commits it."


def said_already(left: str, text: str) -> bool:
    """Whether `text` says the roll `left` ('The 3 to play.') already, in the board's words or the
    rules' ('you have a 3 to play', '... a 3 left to play'): 'you have a 3 to play. The 3 to
    play.' had said it twice."""
    core = left.rstrip(".").lower()
    forms = {core, core.replace("the ", "a ", 1), core.replace("one ", "a ", 1)}
    forms |= {form.replace(" to play", " left to play") for form in forms}
    lowered = text.lower()
    return any(form in lowered for form in forms)


def no_bearing_off(turn: Turn) -> str:
    """Why no checker can bear off: not all home, or (all home, none on a point the dice left
    name, checkers above them) the dice, named: 'all must be home first' had been said to a
    player whose fifteen all were."""
    # In the words the rules say it in with a checker in hand (two wordings of one rule).
    if turn.position.player[24]:
        return "You cannot bear off while you have a checker on the bar."
    if any(turn.position.player[6:]):
        return "You cannot bear off while you have checkers outside your home board."
    left = sorted(set(turn.remaining_dice), reverse=True)
    dice = " or ".join(f"the {d}" for d in left)
    points = " or ".join(str(d) for d in left)
    return (f"No checker can bear off with {dice}: none is on point {points}, and you have checkers "
            f"on higher points.")


def lost_dice_said(position: Position, dice: tuple[int, int], plays: list[Play]) -> str:
    """A roll with several plays that all leave the same die unplayed, in words ('You rolled 4-3;
    only the 3 can be played.'): a player had been told only 'You rolled 4-3.', and learnt that
    the 4 was lost from refusals.  '' where every die plays, or the plays differ in what they
    leave (a last checker borne off leaves a die because the game is won)."""
    left: set[tuple[int, ...]] = set()
    for play in plays:
        if play.position.opponent_off == 15:
            return ""
        turn = Turn(position, dice)
        for m in play.moves:
            turn.move(m.src, m.dst)
        left.add(turn.remaining_dice)
    if len(left) != 1 or not (unused := left.pop()):
        return ""
    return f"You rolled {rolled(dice)}; {_only_play(dice, unused).removesuffix(':')}."


_STARTER = re.compile(r": .*? [1-6]\. (.+)$")  # an opening roll's line, from who starts on
# What closing a note's field says (see _write_note), left out of what it keeps.
_NOTE_SAID = re.compile(
    r'No note (written|changed|goes with this turn)\.|Your note goes with what you do next: ".*?"\.?')
POSITION_ID = "Position ID "  # I)D's message begins so
ANSWER_HERE = " You will see the answer here."  # said with an offer until its answer comes
REPLAY_GOES_ON = "It goes on by itself until a key."
PRESS_A_KEY = "(Press a key; Q leaves the game.)"  # Q clears the result and leaves: said, not a surprise
YES_NO = "Y)es  N)o (or Esc, Enter)"  # the help line while a question waits ([N]: Enter answers no)
YES_NO_REFUSED = "Y)es  N)o (or Esc)"  # after a key refused: Enter then asks again (see GameScreen.confirm)
# Keys that only show something (help, the last turn, the match so far): what the board said
# before them (what happened since the player last looked) is there when they come back.
LOOK_ONLY = frozenset({"help", "view_last", "review"})
PLAY_LENGTH = 40  # characters M)ove's line takes
# Where the player still does something a note goes with: a note being typed when the game comes
# to one of these stays open.
NOTED_STATES = frozenset({State.TO_ROLL, State.MOVING, State.DOUBLE_TO_ME, State.RESIGN_TO_ME})
MOOT_ANSWER = 2.0  # seconds after a question went by itself in which Y, N, Enter or Esc answered it
NO_CUBE = "The cube is not used in a 1-point match."
NO_CRAWFORD_DOUBLE = "No doubling in the Crawford game."


def answered_offer(said: str) -> str:
    """The player's own offer, said as made once its answer has come: 'You offer the cube at 2. You
    will see the answer here.' becomes 'You offered the cube at 2.'; anything else as it is."""
    return said.replace(ANSWER_HERE, "").replace("You offer ", "You offered ", 1) if ANSWER_HERE in said else said


logger = logging.getLogger("bgdoor.game")


def _with_moves(start: Position, dice: tuple[int, int], moves: tuple[tuple[int, int], ...]) -> Turn | None:
    """A turn from `start` with `dice` and `moves` (from, to) made; None when they are not legal
    there (a turn kept from before is not this one)."""
    turn = Turn(start, dice)
    try:
        for src, dst in moves:
            turn.move(src, dst)
    except IllegalPlay:
        return None
    return turn


def _loc_to_point(loc: Loc) -> int:
    return 25 if loc == "bar" else 0 if loc == "off" else int(loc)


CURSOR_ORDER: tuple[Loc, ...] = ("bar", *range(24, 0, -1), "off")  # the farthest back first


def _point_to_loc(point: int) -> Loc:
    return "bar" if point == 25 else "off" if point == 0 else point


class Caller(Protocol):
    """What the game screen needs of the session it runs in (a ui.session.Session)."""

    con: Console
    svc: Gateway
    rt: Runtime
    player: PlayerInfo | None
    menu_notice: str  # said once on the menu the player goes back to

    def presence(self, activity: str, game_id: int | None = None) -> None: ...

    def board_fits(self) -> bool: ...

    async def room_for_board(self) -> bool: ...


NOTE_LENGTH = 140
NOTE_WENT = " Your note went with it."
GAMES_WAIT = "Your games wait for you as you left them."  # in a goodbye the call's clock makes
REPLAY_PACE = 0.8  # seconds between the moves of a replay when no key is pressed
REPLAY_HOLD = 2.0  # seconds on the board before the turn, before the first move plays


async def games_wait(con: Console, svc: Gateway, player_id: int) -> None:
    """GAMES_WAIT for the goodbye the call's clock makes, only while the player has unfinished
    games (it had stayed said after their last match ended, or was withdrawn or removed)."""
    try:
        con.parting = GAMES_WAIT if await svc.my_games(player_id) else ""
    except ServiceError:
        pass  # as it was: looked at again at the next menu or end of a match


class GameScreen:
    def __init__(self, session: Caller, game_id: int, greeting: str = "") -> None:
        self.s = session
        self.greeting = greeting  # said when the board opens with no news: how the caller got here
        self.con = session.con
        self.svc = session.svc
        self.rt = session.rt
        self.game_id = game_id
        self.view: GameView | None = None
        self.last: LastTurn | None = None
        self.events = 0  # how many events the game's record had when last read
        self.read = 0  # the events before this are told (-1: the seating is not yet told)
        self.turn: Turn | None = None
        self.cursor: Loc = 13
        self.hand: int | None = None  # source point of the checker in hand (mover's numbering)
        # Single-die moves each drop made (24 to 13 on a 6-5 is two): U)ndo takes back a drop.
        self.drops: list[int] = []
        self.message = ""
        # The moves of a turn taken back by a resignation offer (its start, dice and moves), for
        # the turn to go on with them once the offer is refused.
        self.resumed: tuple[Position, tuple[int, int], tuple[tuple[int, int], ...]] | None = None
        self.resumed_version = 0  # the game's version the resumed moves were played at (kept as a draft)
        self.restored = ""  # said after the news that brought them back
        self.roll_said = ""  # what sync_turn said of a roll with no play or one: kept past the news on coming back
        self.held = False  # a result is showing: it stays until a key
        self.result_words = ""  # the held result's own words, kept whole where a note before them is cut
        self.result = ""  # the result held
        self.after_result = ""  # news that came while it was held: it stays once the result goes
        self.after_lines: list[str] = []  # all of that news, told on a page when the result goes
        # The board a held result was won on (the next game's start is the live board meanwhile).
        self.held_frame: Frame | None = None
        # What the message line has told since the player's last key: news that comes before a
        # key adds to it instead of wiping it (the computer's opening roll, then its play).
        self.unkeyed: list[str] = []
        self.told_turn: tuple[str, str] | None = None  # the watcher's turn said after unkeyed (with_turn)
        # Goes to the opponent with what the player does next; kept (with the moves of a turn half
        # played) if they leave the game first, or hang up: see keep_draft.
        self.pending_note: str | None = None
        self.drafted = False  # a draft is kept in the database for this game
        self.draft_note: str | None = None  # the note that draft held, when this screen took it up
        self.their_note: TurnNote | None = None  # the opponent's note with their last turn
        self.marks: set[asyncio.Future[None]] = set()  # read marks being saved
        self.gone = False  # the game was withdrawn
        self.told_activity = ""  # what W)ho was last told this player does here
        self.drawn_at = (0, 0)  # the terminal's (columns, rows) when the board was last drawn
        # The opponent (a watcher's: both players) whose coming and going wakes this board, and
        # whether each was on, as last told (None: not yet looked at).
        self.online_watched: dict[int, bool | None] = {}
        self.told_off: set[int] = set()  # the players this board said had logged off
        self.overflow = ""  # the last message, whole, when the board had to cut it (? shows it)
        self.refused: tuple[str, str] = ("", "")  # the message a key's refusal replaced, and the refusal
        # A message of two parts, the later part alone, and what must fit for the whole to show:
        # where the window is too narrow for it (narrowed after, or widened), what came first
        # gives way, as it does when there is too little room as it is told.
        self.shorter: tuple[str, str, str] = ("", "", "")
        # The player's other games waiting for them: a new one is told here, not only on the menu.
        self.elsewhere: set[int] | None = None
        self.elsewhere_opening: set[int] = set()  # of them, those waiting for the opening roll
        self.elsewhere_offers: set[int] = set()  # of them, those waiting for an answer to an offer
        self.scores_elsewhere: dict[int, tuple[int, int]] | None = None  # the player's other unfinished games
        self.results_elsewhere: list[NewsLine] = []  # results there since the last look, to tell
        self.games_woken = False  # woken for a change to one of the player's games since last looked
        self.told_elsewhere: list[int] = []  # the other games the last notice named
        self.renamed_now: list[tuple[str, str]] = []  # the renames (was, now) the last look found
        self.asked_news = ""  # news told while a question stayed open (see question_key)
        self.own_before_result = False  # the last catch_up's result came after the player's own line
        # What the player's last act said ('Turn sent: 18/2.'), until their next key: a result
        # that comes meanwhile (the computer's reply that wins) goes after it, not in its place.
        self.own_said = ""
        self.moot_until = 0.0  # time.monotonic() until which an answer to a question gone is taken as one
        # A typed play refused, or closed by an offer to resign: M brings it back.
        self.typed_back: KeptPlay | None = None
        self.said_before = ""  # what the lines said before the last action key cleared them
        self.moot_field = ""  # a field the game's change closed ('the note'): keys typed on are its
        self.told = (0.0, "")  # when news was last told, and the message it made (see just_told)
        self.shown_names: dict[int, str] = {}  # each other player's name as the board last showed it
        # unavailable()'s last answer, and what it was worked out from: each key asks twice
        # (for the key, then for the help line), and most keys change none of it.
        self._unavailable: tuple[tuple[object, ...], dict[str, str]] | None = None

    @property
    def me(self) -> Color | None:
        return self.view.viewer_color if self.view else None

    @property
    def pid(self) -> int:
        assert self.s.player is not None
        return self.s.player.id

    # ------------------------------------------------------------ loop

    async def run(self) -> None:
        # Watching first: a change while the game is read still wakes the screen.
        self.rt.watch(self.game_id, self.con.wake)
        self.rt.watch_player(self.pid, self.games_changed)  # the player's other games, for waiting_elsewhere
        try:
            await self.reload()
            self.renames()  # the names shown from here on
            if self.me is not None and self.view is not None and not self.view.state.over:
                self.con.parting = GAMES_WAIT  # a game of theirs, kept if the call ends here
            self.tell_presence()
            early = await self.welcome()
            self.say_the_roll(kept=await self.restore_draft())
            await self.waiting_elsewhere()
            while not self.gone:
                if self.view is not None and self.activity() != self.told_activity:
                    self.tell_presence()  # joined, or ended: W)ho no longer says "waiting", "playing"
                self.draw()
                await self.con.show()
                event: Key | None
                if early is not None:
                    event, early = early, None
                else:
                    event = await self.next_event()
                if event is None:
                    if not self.s.board_fits() and not await self.s.room_for_board():
                        return  # made smaller than the board mid-game, and Q: back to the menu
                    await self.on_change()
                    continue
                self.unkeyed = []
                if not await self.on_key(event):
                    return
                if not self.s.board_fits() and not await self.s.room_for_board():
                    # Made smaller while a question took the new size in (Give up's choice, a note
                    # typed): the size page had never come, the board left cut.
                    return
        finally:
            self.rt.unwatch(self.game_id, self.con.wake)
            self.rt.unwatch_player(self.pid, self.games_changed)
            for pid in self.online_watched:
                self.rt.unwatch_online(pid, self.con.wake)
            await self.keep_draft()

    async def keep_draft(self) -> None:
        """Leaving (Q, or a hang-up): the moves of a turn half played and a note not yet sent are
        kept for the next look, in this process or another; a draft used up is cleared."""
        v = self.view
        if v is None or self.me is None:
            return
        moves = tuple((m.src, m.dst) for m in self.turn.moves) if self.turn is not None else ()
        version = v.version
        if self.turn is None and self.resumed is not None and v.state.phase is Phase.RESIGNED:
            moves, version = self.resumed[2], self.resumed_version  # waiting for the offer's answer
        note = self.pending_note if not v.state.over else None
        if not (moves or note or self.drafted):
            return
        try:
            await self.svc.save_draft(self.pid, self.game_id, version, moves, note)
        except ServiceError as exc:
            logger.info("draft for game %s not kept (%s)", self.game_id, exc)
        except Exception:  # leaving as the server shuts down: what is under way matters more
            logger.exception("draft for game %s not kept", self.game_id)

    async def restore_draft(self) -> bool:
        """Coming back: the note left unsent, and the moves of the turn as it was left, if the
        game has not changed since; said on the board, as what was left is not what it began as.
        Whether moves came back."""
        if self.me is None:
            return False
        try:
            draft = await self.svc.draft(self.pid, self.game_id)
        except ServiceError:
            return False
        if draft is None:
            return False
        self.drafted = True
        self.pending_note = self.draft_note = draft.note
        v = self.view
        refused = v is not None and bool(draft.moves) and await self.refused_since(v, draft.version)
        if v is not None and draft.moves and draft.version != v.version and not refused:
            self.kept_while_offered(v, draft.version, draft.moves)
            return False
        if v is None or self.turn is None or self.turn.moves or not draft.moves:
            return False
        turn = _with_moves(self.turn.start, self.turn.dice, draft.moves)
        if turn is None:
            return False  # not a turn of this board after all: it stays as begun
        self.turn = turn
        self.drops = []
        self.cursor_on_a_source()  # it had stayed on the bar the checker had come in from
        # On a narrow screen with the roll: the panel and a die are past the edge, and a turn all
        # played ('13/9. Enter sends the turn.') had said the roll nowhere.
        roll = f" with {roll_text(self.turn.dice)}" if self.con.width < 80 and not refused else ""
        kept = self.moves_so_far("are back" if refused else f"{roll} are as you left them".strip())
        if self.turn.is_complete:
            kept += " Enter sends the turn."
        whole = f"{self.message} {kept}".strip()
        self.shorter = (whole, kept, whole)
        # What was said before (the opponent's play, read before these moves were made) gives
        # way, as it does to news: at 40 columns the kept moves had been cut to '?'.
        self.message = self.roomiest(self.shorter)
        # Told since the last key, with the news: news of another game coming next had kept the
        # news alone ('the 2 to play' gone).
        self.unkeyed = [*self.unkeyed, kept] if self.message == whole else [kept]
        return True

    def moves_so_far(self, how: str) -> str:
        """'Your moves so far are back: 13/9; the 5 to play.' (at 40 columns the panel that says
        what is left is cut off)."""
        assert self.turn is not None
        left = self.left_to_play()
        return f"Your moves so far {how}: {notation(self.turn.moves)}{'; ' + left if left else ''}."

    async def refused_since(self, v: GameView, version: int | None) -> bool:
        """Whether the only change to the game since `version` is a resignation offered in the
        middle of the player's turn and refused: the turn stands as it was, and the moves left in
        it come back, as the board promised ('... come back if the offer is refused')."""
        st = v.state
        if version is None or v.version != version + 2 or st.phase is not Phase.MOVE or st.turn is not self.me:
            return False
        try:
            log = await self.svc.game_log(self.game_id, self.pid)
        except ServiceError:
            return False
        return [type(e.event) for e in log.events[-2:]] == [Resign, RejectResign]

    def kept_while_offered(self, v: GameView, version: int | None, moves: tuple[tuple[int, int], ...]) -> None:
        """The moves left half played in a game changed since: kept while a resignation offered
        since (the only change) waits for its answer, as for an offer of one's own, or said to
        be gone.  They had gone without a word."""
        st = v.state
        if st.turn is not self.me or st.dice is None:
            return
        trial = _with_moves(st.position, st.dice, moves)
        if trial is None:
            return  # not this turn's moves: a turn since began afresh
        played = notation(trial.moves)
        if self.kept_for_the_answer(v, version, moves):
            kept = f"Your moves so far ({played}) come back if the offer is refused."
        else:
            kept = f"Your moves so far ({played}) are not kept: the game changed since you left them."
        self.message = f"{self.message} {kept}".strip()

    def kept_for_the_answer(self, v: GameView, version: int | None, moves: tuple[tuple[int, int], ...]) -> bool:
        """Whether the only change to the game since `version` is a resignation offered in the
        middle of the player's turn; if so the turn's `moves` are kept (see sync_turn) to come
        back if it is refused."""
        st = v.state
        if version is None or v.version != version + 1 or st.phase is not Phase.RESIGNED \
                or st.resume_phase is not Phase.MOVE or st.dice is None:
            return False
        self.resumed, self.resumed_version = (st.position, st.dice, moves), version
        return True

    async def reload(self) -> None:
        self.view = await self.svc.game(self.game_id, self.pid)
        self.rt.seen(self.game_id, self.view.version)
        self.last = await self.svc.last_turn(self.game_id, self.pid)
        self.sync_turn()
        if self.me is not None:
            try:
                self.their_note = await self.svc.opponent_note(self.game_id, self.pid)
            except StorageError:
                pass  # the note shows at the next look
            if self.view.state.over and self.con.parting:
                await games_wait(self.con, self.svc, self.pid)  # this match was perhaps the last

    async def welcome(self) -> Key | None:
        """Coming back: what happened since this player last looked, a page of it if it is long.
        The key that ends the page, for the board (see news_page)."""
        log: GameLog = await self.svc.game_log(self.game_id, self.pid)
        self.read = log.read_upto
        lines = narrate(log, self.read, self.pid)
        replay = None
        if len(lines) > 2:
            # Marked read once every page was shown: a caller who hangs up meanwhile is told again.
            replay = await self.news_page(lines)
            lines = lines[-1:]
        await self.mark(log)
        self.won_on(log, lines)
        self.tell(lines)
        if not self.message:
            # On a narrow screen, where the panel is cut, the board says whose turn and the score
            # instead.
            # Between two games of a match: which comes next, and the score (what was done last
            # is the last game's, told with its result).
            between = self.next_game(ended=True)
            self.message = (self.pending_offer() or self.greeting or self.open_seat() or between
                            or self.told_before(log) or self.not_begun() or self.watching(log))
            if between and self.message == between:
                # News that comes before a key goes after it: the opponent's opening roll had
                # taken the place of 'Game 4 of the match: ... (match to 3, Crawford game).'
                self.keep_said()
        return replay

    def own_roll_short(self) -> str:
        """On a narrow screen, during the player's own move, the roll (or what is left of it) in
        the fewest words, for when what said it gives way to news: the panel saying it, and at
        40 columns a die, are past the edge.  '' elsewhere."""
        st = self.view.state if self.view is not None else None
        if self.con.width >= 80 or st is None or st.actor is not self.me or st.phase is not Phase.MOVE \
                or not st.dice or self.turn is None:
            return ""
        if not self.turn.moves:
            return f"Your turn {roll_text(st.dice)}."
        left = self.left_to_play()
        return sentence(left) if left else ""

    def with_roll_left(self, text: str) -> str:
        """A refusal or a checker put back, and on a narrow screen what is left of the roll after
        it: at 40 columns the second die is past the edge, and 'The checker is back.' had left the
        player without the roll they were playing."""
        short = self.own_roll_short()
        if not short:
            return text
        if self.turn is not None and not self.turn.moves and self.view is not None and self.view.state.dice:
            short = f"{roll_text(self.view.state.dice)} to play."
        return text if said_already(short, text) else f"{text} {short}"

    def say_the_roll(self, kept: bool) -> None:
        """Coming back: a roll with no play, or one play, said after the news that took its place.
        Else, on a narrow screen, where the panel (and at 40 columns a die) is past the edge and
        the message said only what the opponent did, the player's own roll, which showed nowhere;
        not where the message says it already ('You start with 6-3.'), nor beside moves `kept`
        ('...; the 5 to play.')."""
        st = self.view.state if self.view is not None else None
        if st is None or st.actor is not self.me or not st.dice or st.phase is not Phase.MOVE or kept:
            return
        if self.roll_said and self.roll_said not in self.message:
            # A roll with no play, or one play: said after the news that had taken its place.
            self.tell_roll(self.roll_said)
            return
        roll = roll_text(st.dice)
        short = self.own_roll_short() if self.message else ""
        if short and f"You rolled {roll}" not in self.message and not self.message.endswith(f" {roll}."):
            self.tell_roll(short)

    def tell_roll(self, roll: str) -> None:
        """The player's roll after the message, told since the last key as the moves kept are
        (see restore_draft); first where the lines would cut the whole (after the opponent's long
        note, 'Your turn 5-1.' had gone behind '(? shows all)', with one die past the edge)."""
        whole = f"{self.message} {roll}".strip()
        first = bool(self.message) and self.cut(whole)
        self.unkeyed = [roll, *self.unkeyed] if first else [*self.unkeyed, roll]
        self.message = f"{roll} {self.message}" if first else whole

    def watching(self, log: GameLog) -> str:
        """A watcher opening a game: what was done last, which the board alone does not say (at 80
        columns 'Watching this game.' first; narrower, whose turn it is after it, as the cut
        panel's place on the message line says when there is nothing else)."""
        v = self.view
        if v is None or self.me is not None:
            return ""
        told = narrate(log, 0, None)
        last = told[-1].text if told and not v.state.over else ""
        if self.con.width >= 80:
            return f"Watching this game. {last}".strip()
        turn = self.to_play()
        if not last or not turn:
            return ""  # the message line's own: whose turn, and the score
        if self.says_the_turn(last):
            return f"{last} {turn[1]}"  # 'carol rolled 5-1.', not 'carol to play 5-1.' after it
        return f"{last} {turn[0]} {turn[1]}"

    def says_the_turn(self, text: str) -> bool:
        """Whether news said whose turn it is, with the dice: 'bob rolled 3-2.', 'Opening roll:
        alice 3, bob 5. bob starts with 5-3.'"""
        st = self.view.state if self.view is not None else None
        if st is None or st.dice is None or st.phase is not Phase.MOVE:
            return False
        roll = roll_text(st.dice)
        return text.endswith((f" rolled {roll}.", f" starts with {roll}."))

    def to_play(self) -> tuple[str, str] | None:
        """For a watcher's narrow board, where the panel is cut off: whose turn it is (with the
        dice rolled), or whose answer, and the score; None while nobody is to act."""
        v = self.view
        assert v is not None
        st = v.state
        if st.actor is None or st.phase not in (Phase.ROLL, Phase.MOVE, Phase.DOUBLED, Phase.RESIGNED):
            return None
        score = match_score(v.name(Color.WHITE), v.name(Color.BLACK), st)
        if st.phase in (Phase.DOUBLED, Phase.RESIGNED):
            return f"{v.name(st.actor)} to answer.", score
        dice = f" {roll_text(st.dice)}" if st.dice is not None and st.phase is Phase.MOVE else ""
        return f"{v.name(st.actor)} to play{dice}.", score

    def watched(self, lines: list[NewsLine]) -> tuple[str, str] | None:
        """What a watcher's narrow board says after its news, where the panel that says it is cut
        off: whose turn it is and the score (see with_turn); None for a player, a wide board, a
        result."""
        turn = self.to_play() if lines and self.me is None and self.con.width < 80 else None
        if turn is None or any(n.result for n in lines):
            return None
        if self.says_the_turn(lines[-1].text):
            # 'bob rolled 3-2.' says whose turn it is already: not 'bob to play 3-2.' after it.
            turn = ("", turn[1])
        return turn

    def with_turn(self, texts: list[str], turn: tuple[str, str] | None) -> str:
        """`texts` on the message line, then (from watched) whose turn it is and the score where
        they fit, or whose turn alone.  Kept apart from the news it follows: told again beside
        later news ('bob doubles to 2.'), 'bob to play' would no longer be so."""
        message = " ".join(texts)
        if turn is None:
            return message
        whole = f"{turn[0]} {turn[1]}".strip()
        if not self.cut(f"{message} {whole}"):
            return f"{message} {whole}"
        return f"{message} {turn[0]}".strip()

    def result_and(self, after: str) -> str:
        """The held result, and what came after it where both fit the lines: at 40 columns the
        next game's opening roll had pushed the result's end to ? ('...Beginner Bot 6... (? shows
        all)'); it is told once a key lets the result go (headed)."""
        whole = f"{self.result} {after}".strip()
        return whole if not after or not self.cut(whole) else self.result

    def headed(self, after: str) -> str:
        """What came after a held result, once it goes: the next game's opening, under which game
        of the match it is and the score, where they fit (against the computer, which rolls at
        once, the new game's board had said only 'Opening roll: ...', and at 40 columns the score
        was nowhere)."""
        v = self.view
        if v is None or v.state.over or v.state.game < 2:
            return after
        heading = game_heading(v.name(Color.WHITE), v.name(Color.BLACK), v.state)
        for text in (f"{heading} {after}", f"Game {v.state.game} of the match. {after}"):
            if not self.cut(text):
                return text
        return after

    def next_game(self, ended: bool = False) -> str:
        """A match's next game, before its opening roll: which, and the score (the message line
        had been blank); with `ended` (the board opened), how the last game ended too."""
        v = self.view
        if v is None or v.state.phase is not Phase.OPENING or v.state.game < 2:
            return ""
        white, black = v.name(Color.WHITE), v.name(Color.BLACK)
        heading = game_heading(white, black, v.state)
        last = v.state.results[-1] if v.state.results and ended else None
        if last is None or last.how == "forfeit":
            return heading
        # And how the last game ended: a caller whose line dropped on its result (or whose time
        # ran out there) came back to 'Game 2 of the match' and the score alone.
        who = "you" if last.winner is self.me else v.name(last.winner)
        with_win = "" if last.win is Win.SINGLE else f" with {WIN_WORDS[last.win]}"
        how = {"drop": " on a drop", "resign": " by resignation"}.get(last.how, "")
        told = (f"Game {v.state.game} of the match: {who} won game {last.game}{with_win}{how}, "
                f"{points(last.points)}. {match_score(white, black, v.state)}")
        return heading if self.cut(told) else told

    def told_before(self, log: GameLog) -> str:
        """With no news (read on N)ews, or at an earlier look): what the opponent did last, which
        the board alone does not say; before any move, who began the match or joined it.  Off the
        player's turn, only when nothing of their own came after it (it would be old news then)."""
        v = self.view
        if v is None or self.me is None:
            return ""
        # Who sat down, told to the creator only while it is news (a game joined from V)iew): said
        # again later, 'carol joined your game.' had been said of a match that named carol, who
        # had done nothing yet.
        told = narrate(log, -1 if log.creator_id != self.pid or log.read_upto < 0 else 0, self.pid)
        if told and told[-1].seq == -1 and log.creator_id != self.pid and log.read_upto >= 0:
            # Read already, or the seat was the player's own choice from V)iew: 'jack began a
            # match with you' had been said to the player who joined jack's open game.
            other = v.name(self.me.other)
            told[-1] = replace(told[-1], text=f"{other} began this {v.state.length}-point match.")
        # (The record told again with the player's own doings only when it ends in an opening roll.)
        latest = narrate(log, -1, self.pid, everything=True) \
            if log.events and isinstance(log.events[-1].event, OpeningRoll) else []
        if latest and latest[-1].opening and (not told or latest[-1].seq > told[-1].seq):
            # The opening roll, whoever made it (told the same to both): the player's own, left
            # before playing it, had the board say nothing, or that the opponent had joined.
            return latest[-1].text
        if not told:
            return self.own_last(log) if v.state.actor is not self.me else ""
        answered = any(e.player_id == self.pid and e.seq > told[-1].seq for e in log.events)
        if answered and self.offer_at(log, told[-1].seq):
            # An offer to resign the player refused is no longer on the table: 'bob offers to
            # resign ...' over the move keys had sent them looking for A)ccept.  The refusal says
            # what became of it (at 80 columns the lines had been blank).
            return self.own_last(log, turn=False)
        if answered and v.state.actor is not self.me:
            return self.own_last(log)
        return told[-1].text

    def own_last(self, log: GameLog, turn: bool = True) -> str:
        """The player's own last doing, waiting for the opponent: 'You rolled 3-2 and played 24/22
        24/21. bob to play.'  (The message lines had been blank at 80 columns, the panel's 'bob to
        play' alone saying anything.)  Without `turn`, the doing alone."""
        lines = narrate(log, -1, self.pid, everything=True)
        mine = {e.seq for e in log.events if e.player_id == self.pid}
        if not lines or lines[-1].seq not in mine or lines[-1].result:
            return ""
        if not turn:
            return lines[-1].text
        to_play = self.to_play()
        if to_play is not None and self.con.width >= 80:
            to_play = (to_play[0], "")  # the panel shows the score
        return self.with_turn([lines[-1].text], to_play)

    @staticmethod
    def offer_at(log: GameLog, seq: int) -> bool:
        """Whether the event at `seq` is an offer to resign."""
        return any(e.seq == seq and isinstance(e.event, Resign) for e in log.events)

    def open_seat(self) -> str:
        """A game of the player's own with nobody in the other seat: the panel said only
        'Waiting for a player', not how one comes or how to take the game back."""
        v = self.view
        if v is None or self.me is None or (v.white is not None and v.black is not None):
            return ""
        return (f"Game #{v.id} waits for a player: anyone can join it from V)iew games. "
                "W)ithdraw takes it back.")

    def not_begun(self) -> str:
        """A match of the player's that nobody has rolled in, both seats taken: opened again by the
        player who began it, the message lines had been blank."""
        v = self.view
        if v is None or self.me is None or v.white is None or v.black is None \
                or v.state.phase is not Phase.OPENING or v.state.game > 1:
            return ""
        match = f"{v.state.length}-point match" if v.state.length else "unlimited match"
        return f"Your {match} with {v.name(self.me.other)}: nobody has rolled yet."

    def pending_offer(self) -> str:
        """A double or a resignation waiting for its answer, said again to a player coming back to
        it (the news told it once; the board alone shows neither what was offered nor by whom);
        or, the match over, how it ended."""
        v = self.view
        assert v is not None
        st = v.state
        if st.phase is Phase.DOUBLED and st.turn is not None:
            answer = f"{v.name(st.turn.other)} to answer."
            if st.turn is self.me:
                return f"You offer the cube at {st.cube * 2}. {answer}"
            text = f"{v.name(st.turn)} {'re' if st.cube > 1 else ''}doubles to {st.cube * 2}."
            return text if self.me is not None else f"{text} {answer}"
        if st.phase is Phase.RESIGNED and st.resign_by is not None and st.resign_win is not None:
            offered = st.cube * st.resign_win.multiplier
            match = ", the match" if self.ends_match(st.resign_by.other, offered) else ""
            giving = f"giving {WIN_WORDS[st.resign_win]} ({points(offered)}{match})"
            if st.resign_by is self.me:
                return f"You offer to resign, {giving}. {v.name(st.resign_by.other)} to answer."
            text = f"{v.name(st.resign_by)} offers to resign, {giving}."
            return text if self.me is not None else f"{text} {v.name(st.resign_by.other)} to answer."
        if st.over:
            # Once the result's own line is gone (a key, or a later visit), the board still says
            # how the match ended; the panel alone said 'bob won' and 'Score 6/3'.
            if st.winner is None:
                return "The match is over."
            score = f"{st.score_of(st.winner)}-{st.score_of(st.winner.other)}"
            won = f"{'You' if st.winner is self.me else v.name(st.winner)} won the match {score}"
            last = st.results[-1] if st.results else None
            if last is None or last.winner is not st.winner:
                return f"{won}."
            # And with what: 'You won the match 5-4.' had left out the resignation, the drop, the
            # gammon that the result had said.
            if last.how == "forfeit":
                return f"{won} by forfeit."
            how = {"drop": " on a drop", "resign": " by resignation"}.get(last.how, "")
            return f"{won} with {WIN_WORDS[last.win]}{how}, {points(last.points)}."
        return ""

    async def mark(self, log: GameLog) -> None:
        """Remember, here and in the database, that the record so far has been told."""
        self.events = len(log.events)
        if self.me is None:
            # A watcher's looks are kept here only; not moving on told them every result again
            # with each later event of the match.
            self.read = self.events
            return
        seated = log.game.white_id is not None and log.game.black_id is not None
        if not seated:
            return  # an open seat: who joins is still to be told
        self.read = self.events
        self.mark_later(self.events, self.game_id)

    def mark_later(self, upto: int, game_id: int) -> None:
        """Saved in the background: a database busy with a write must not hold up the board."""
        task = asyncio.ensure_future(self.save_mark(upto, game_id))
        self.marks.add(task)
        task.add_done_callback(self.marks.discard)

    async def save_mark(self, upto: int, game_id: int) -> None:
        try:
            await self.svc.mark_read(self.pid, game_id, upto)
        except ServiceError:
            pass  # told again next time; nothing is lost

    async def catch_up(self, log: GameLog | None = None, mine: bool = False, own: bool = False) -> list[NewsLine]:
        """The news since the last look (in `log`, or the record read now); with `mine` (after
        the player's own act), their results and opening rolls too; with `own` (what the player
        did in another session), everything, their own doings told too."""
        log = log or await self.svc.game_log(self.game_id, self.pid)
        lines = narrate(log, self.read, self.pid, everything=mine or own)
        if mine and not own:
            # The other player's doings whole: the computer answers at once, and its play, read
            # here with the player's own and marked read, was never told ('Turn sent.' alone, and
            # a checker of theirs on the bar).
            told = {n.seq for n in narrate(log, self.read, self.pid)}
            # And the player's own play that won, before its result: at 40 columns, where the
            # tray is past the edge, 'You win' had come with nothing to say how.  So too their
            # drop or acceptance that ended the game: the taker was told 'You take', the dropper
            # only who won.
            first = next((i for i, n in enumerate(lines) if n.result), 0)
            plays = {e.seq for e in log.events if isinstance(e.event, (Move, Drop, AcceptResign))}
            told |= {lines[first - 1].seq} & plays if first else set()
            lines = [n for n in lines if n.result or n.opening or n.seq in told]
            # Whether the line before the result is the player's own: else their own words (a
            # 'Turn sent' the computer's winning play then followed) go before it.
            mine_seqs = {e.seq for e in log.events if e.player_id == self.pid}
            first = next((i for i, n in enumerate(lines) if n.result), 0)
            self.own_before_result = bool(first) and lines[first - 1].seq in mine_seqs
        self.won_on(log, lines)
        await self.mark(log)
        return lines

    def won_on(self, log: GameLog, lines: list[NewsLine]) -> None:
        """Where `lines` tell a result: the last game won, as it stood when won, to draw behind it,
        not the next game's opening position (the bear-off that won it was never on the board;
        coming back to a result, the opening position stood under it too)."""
        if any(n.result for n in lines):
            self.held_frame = next((f for f in reversed(frames(log)) if f.winner is not None), None)

    def brief_opening(self, text: str) -> str:
        """An opening roll's line the board's lines would cut, from who starts on ('bob starts with
        5-2, playing 13/8 6/5.'): with two long member names and a tie before it, at 40 columns
        the lines had ended in the names, who starts and with what (the dice past the edge) on
        the ? page alone."""
        starter = _STARTER.search(text) if text.startswith("Opening roll") else None
        # The roll's own words: with a long note after them, it is the note that goes to the ? page.
        noted = text.find(' note: "')
        roll = text[: text.rfind(". ", 0, noted) + 1] if noted > 0 else text
        alone_cut = bool(fit_message(roll, self.con.width, self.room())[1])
        return starter[1] if starter is not None and alone_cut else text

    def tell(self, lines: list[NewsLine], own: str = "", turn: tuple[str, str] | None = None) -> None:
        """Put news on the message lines (and a watcher's `turn`, see with_turn); a result holds
        them until a key."""
        self._tell(lines, own, turn)
        self.told = (time.monotonic(), self.message)

    def _tell(self, lines: list[NewsLine], own: str, turn: tuple[str, str] | None) -> None:
        lines = [replace(n, text=self.brief_opening(n.text)) for n in lines]
        results = [n.text for n in lines if n.result]
        if results:
            # The result, after the play that won it where the lines hold both (the loser was
            # told 'alice rolled 6-4.', then who won), even where that leaves the end of the
            # result to ? (at 40 columns, the ratings after a match): left out where it did not
            # fit, the play was never told.  What came after the result (the next game's opening
            # roll) follows it, and stays once it goes.
            # A watcher still holding the last game's result, a whole game later: both results
            # (the first had gone without a word, and its score with it).
            st = self.view.state if self.view is not None else None
            game = next((r.game for r in reversed(st.results)), None) if st is not None else None
            earlier = [self.result, f"Game {game}:" if game else "Then:"] if self.held and self.me is None else []
            self.held = True
            first = min(i for i, n in enumerate(lines) if n.result)
            before = [n.text for n in lines[:first]][-1:]
            mine = (own if not self.own_before_result else "") if own else self.own_said
            if mine and not earlier:
                # The player's own turn, sent as the computer replied and won (at once, or a
                # moment later, woken): the result had come with the computer's play alone, the
                # player's own never said.  An offer the result answers, said as made, not as
                # waiting ('You will see the answer here.' had taken the rows of the score).
                before = [answered_offer(mine), *before]
            self.own_said = ""
            said = self.result_words = " ".join(results)
            if len(before) > 1 and self.cut(" ".join(before + results)):
                before = before[1:]  # where both do not fit, the play that won, not the player's own
            if before and '"' not in before[0] and (" on a drop" in said or " by resignation" in said) \
                    and self.cut(" ".join(earlier + before + results)):
                # The answer that ended the game ('alice accepts the resignation.') is in the result's
                # own words: where both do not fit, it gives way, not the score and the ratings.
                before = []
            if earlier and self.cut(" ".join(earlier + before + results)):
                # Too long for the lines (40 columns): the newest result first, the one held before
                # it after it.  The older had stood alone over the newer game's last board, its
                # score no longer so, and the match's end only on the ? page.
                self.result = " ".join([*before, *results, "Before it:", earlier[0]])
            else:
                self.result = " ".join(earlier + before + results)
            last = max(i for i, n in enumerate(lines) if n.result)
            self.after_lines = [n.text for n in lines[last + 1 :]]
            after = self.after_lines[-1:]
            self.after_result = self.next_game_said(" ".join(after))
            self.message = self.result_and(self.after_result)
        elif self.held:
            # What follows a held result (the next game's opening roll): the latest of it, after it.
            latest = [n.text for n in lines][-1:] or [own]
            if not latest[0]:
                # Nothing new (the record was read to its end with the result, the opponent having
                # answered at once): what follows the result stays; it had been wiped.
                return
            if turn is not None and "Score:" in self.result:
                turn = (turn[0], "")  # the score once, with the result that made it
            self.after_lines += [n.text for n in lines]
            self.after_result = self.with_turn([self.next_game_said(latest[0])], turn)
            self.message = self.result_and(self.after_result)
        else:
            fresh = [n.text for n in lines]
            if not own and any(not t.startswith(ELSEWHERE) and not self.is_presence(t) and not is_rename(t)
                               for t in fresh):
                # The player's own act is no longer the last thing said of this game: a result
                # coming later goes without it ('Turn sent: 13/9 8/5*.' had come back before a
                # result three turns on, the lines between gone).
                self.own_said = ""
            before = [own] if own else self.unkeyed
            # Who came or went is kept apart, and follows the news where the lines still hold it
            # (in fewer words where need be): with a notice of another game after it, the
            # opponent's play here had gone from the lines and 'bob has logged off.' stayed; and
            # dropped whole, a logoff was never told at all.
            comings = [t for t in before if self.is_presence(t)] if not own else []
            before = [t for t in before if t not in comings]
            # Not of one whose act is the news: 'bob rolled 4-2 and played 8/4 6/4. bob is on.' read as
            # if he had come on after playing.  His playing says he is on.
            # Nor where the act is said after the opening roll ('Opening roll: ... bob starts with
            # 5-2, playing 13/6. bob is on again.') or the name ('bob's note: ...').
            comings = [t for t in comings if not any(acts_in(comer(t), f) for f in fresh)]
            if any(not t.startswith(ELSEWHERE) and not is_rename(t) for t in fresh):
                # The news of this game is the answer promised: the promise goes (not for a
                # rename: 'You offered the cube at 2.' had been said of a double still waiting).
                # And said as done: 'You offer the cube at 2. ... gwen takes' read as still offered.
                before = [answered_offer(t) for t in before]
            texts = told_again(before + fresh)  # a roll told before its play: the play's line says it again
            if not texts:
                return
            keep = texts[-2:]
            fewer = [self.short_presence(t) for t in comings]
            while len(keep) < len(texts) and self.under_board([*texts[-len(keep) - 1:], *fewer], turn):
                # More of what came since the last key, where the lines under the board hold it: a
                # watcher at 80x20, a row free, had lost a play told a moment before (two were kept).
                keep = texts[-len(keep) - 1:]
            then = [" ".join(turn).strip()] if turn is not None else []
            # Nor to a rename alone: a watcher's 'bob doubles to 2.' had given way to it, and
            # nothing at 40 columns said a double waited.
            if len(keep) == 2 and len(fresh) < 2 and not keep[0].startswith(ELSEWHERE_PLAYED) \
                    and not all(is_rename(t) for t in fresh):
                # What was told before gives way to the news (and to a watcher's whose turn it is
                # now, and the score), rather than cut it; but not that the moves on this board
                # went (the board's own turn, played elsewhere): ? shows it.
                part = keep[1:]
                short = self.own_roll_short()
                if [t.startswith(ELSEWHERE) for t in keep].count(True) == 1:
                    # Nor this board's news to the notice of other games, said again for one more:
                    # it had pushed the opponent's play here off the lines.  The notice shortens;
                    # or the player's own roll stays with it (what was said before goes); or the
                    # notice goes first, where this board's news is cut anyway (behind '(? shows
                    # all)' the notice had shown nowhere).
                    other = next(t for t in keep if not t.startswith(ELSEWHERE))
                    brief = self.elsewhere_notice(brief=True)
                    forms = [[other, brief], *([[short, brief]] if short else []), [brief, other]]
                    part = next((f for f in forms if not self.cut(" ".join([*f, *then]))), forms[-1])
                    sent = texts[-3] if len(texts) > 2 and texts[-3].startswith(TURN_SENT) else ""
                    # The player's own turn sent, with what the computer played at once and the
                    # notice, where they fit (at 40 and 50 columns 'Turn sent: 13/10 13/11.' had
                    # gone, the notice whole in its place); in fewer words where need be.
                    sent_too = next((f for f in ([sent, other, brief], [TURN_SENT + ".", other, brief]) if sent
                                     and not self.cut(" ".join([*f, *then]))), None)
                    if sent_too is not None:
                        keep = part = sent_too
                elif short and not self.cut(" ".join([short, *part, *then])):
                    part = [short, *part]  # at 40 columns what went had been all that said the roll
                self.shorter = (self.with_turn(keep, turn), self.with_turn(part, turn), " ".join(keep + then))
                if self.roomiest(self.shorter) != self.shorter[0]:
                    keep = part
            if comings:
                # Last, where even that is cut: ? shows it, the news before it in sight.
                keep = next((keep + c for c in (comings, fewer) if self.fits(keep + c, turn)), keep + fewer)
            self.unkeyed = keep
            self.told_turn = turn
            self.message = self.with_turn(self.unkeyed, turn)
        if self.me is None or self.view is None or self.drawn_at == (0, 0) \
                or (lines and all(is_rename(n.text) for n in lines)) \
                or any(n.text.startswith(DECIDED_ELSEWHERE) for n in lines):
            # Nor on opening the board: the menu rang as the turn came (it had rung twice); nor
            # for a rename, no act of anyone's (it had rung as a turn, on the player's turn); nor
            # as a turn for a result elsewhere, which rang as a win or a loss.
            return
        st = self.view.state
        notice = any(n.text.startswith(ELSEWHERE) for n in lines)
        if results and st.results:
            # S)ound on: a result rings as well as a turn does (only 'your turn' had ever rung).
            self.con.bell("win" if st.results[-1].winner is self.me else "lose")
        elif st.actor is self.me and not own and (not notice or len(lines) > 1):
            self.con.bell("double" if st.phase is Phase.DOUBLED else "your_turn")
        elif notice:
            # A turn or an offer in another game rings as it does at the menu, whoever's turn it is
            # here (it had rung only on the player's own turn on this board, and as that turn).
            self.con.bell("double" if set(self.told_elsewhere) & self.elsewhere_offers else "your_turn")

    async def news_page(self, lines: list[NewsLine]) -> Key | None:
        """What happened since the player last looked, every line of it, on as many pages as it
        takes (it is marked read: nothing may be left for a later look).  The key that ends the
        last page, for the board (V replays the last turn there); None for one that only goes on
        to the board (Enter, Space, Esc).  A typed on just after P)lay had only ended the page, and
        the board never asked 'Accept ...?'."""
        assert self.view is not None
        v = self.view
        title = f"Game #{v.id}: {v.name(Color.WHITE)} against {v.name(Color.BLACK)}. Since you last looked:"
        at = (0, 0)  # the page shown begins with this line of this item: kept over a resize
        while True:
            top = 2 + len(wrap(title, self.con.width - 3))
            bottom = self.con.height - 2
            book = news_book([n.text for n in lines], self.con.width - 3, max(1, bottom - top))
            n = page_holding(book, at)
            self.con.clear()
            self.con.put_wrapped(1, 2, title, "title")
            for i, (text, _, _) in enumerate(book[n]):
                self.con.put(top + i, 2, text)
            last = n == len(book) - 1
            if not last:
                more = f"Page {n + 1} of {len(book)}: press a key for more."
            elif self.last is None:
                more = "Press a key for the board."  # no turn of the opponent's to replay (a double)
            else:
                more = "Press a key for the board, or V to see the last turn played there."
            self.con.put_wrapped(bottom + 1, 2, more, "dim")
            await self.con.show()
            key = await self.con.key_or_resize()
            if key is WAKE:
                continue
            if last:
                if keytable.VIEW.matches(key):
                    return key if self.last is not None else None
                return None if key.name in ("enter", " ", "space", "esc") or not key.char.strip() else key
            at = book[n + 1][0][1:]

    def sync_turn(self) -> None:
        """Start a move-by-move turn when the dice are ours to play; keep one in progress."""
        v = self.view
        assert v is not None
        st = v.state
        if st.phase is Phase.MOVE and v.my_turn and st.dice is not None:
            if self.turn is None or self.turn.start != st.position or self.turn.dice != st.dice:
                self.turn = Turn(st.position, st.dice)
                self.hand = None
                self.roll_said = ""
                kept, self.resumed = self.resumed, None
                if kept is not None and kept[:2] == (st.position, st.dice) and (turn := _with_moves(*kept)) is not None:
                    self.turn = turn
                    self.restored = self.moves_so_far("are back")
                    self.cursor_on_a_source()
                    return
                self.cursor_on_a_source()
                plays = legal_plays(st.position, st.dice)
                # The roll said with it: at 40 columns the dice are past the screen's edge, and
                # 'You cannot move with this roll' had been all a player saw of it.
                if len(plays) == 1:
                    for m in plays[0].moves:
                        self.turn.move(m.src, m.dst)
                    self.message = self.roll_said = one_play_said(st.dice, plays[0], self.turn.remaining_dice)
                elif not plays:
                    self.message = self.roll_said = \
                        f"You rolled {rolled(st.dice)} and cannot move. Enter passes the turn."
                elif lost := lost_dice_said(st.position, st.dice, plays):
                    self.message = self.roll_said = lost
        else:
            self.turn = None
            self.hand = None

    def cursor_on_a_source(self) -> None:
        """The cursor starts a turn, or a turn taken up again, on a checker that can move (the
        farthest back; the bar's when one must come in), not where it was left: an empty bar, a
        point with nothing on it."""
        sources = self.turn.sources() if self.turn is not None else []
        if sources and _loc_to_point(self.cursor) not in sources:
            self.cursor = _point_to_loc(sources[0])

    def activity(self) -> str:
        """What W)ho says this caller does here (see OnlineRow.doing)."""
        assert self.view is not None
        if self.view.state.over:
            return "looking"
        if self.me is None:
            return "watching"
        # Beside a seat nobody has taken, 'playing' had told callers looking for a game otherwise.
        return "waiting" if self.view.status == "open" else "playing"

    def tell_presence(self) -> None:
        self.told_activity = self.activity()
        self.s.presence(self.told_activity, self.game_id)

    def follow_opponent(self) -> None:
        """Be woken when the opponent comes on or goes (see opponent_news), and a watcher when
        either player does; a seat taken changes who."""
        v = self.view
        if v is None:
            players: tuple[int, ...] = ()
        elif self.me is None:
            players = tuple(p for p in (v.white_id, v.black_id) if p is not None)
        else:
            opponent = v.black_id if self.me is Color.WHITE else v.white_id
            players = () if opponent is None else (opponent,)
        if players != tuple(self.online_watched):
            for pid in self.online_watched:
                self.rt.unwatch_online(pid, self.con.wake)
            self.online_watched = dict.fromkeys(players)
            for pid in players:
                self.rt.watch_online(pid, self.con.wake)

    def opponent_news(self) -> tuple[str, str, list[str]]:
        """The opponent gone from the system, or on again, since the last look: in live play a
        board whose opponent hung up had gone on waiting without a word.  A watcher is told of
        either player (a watcher waiting for bob's play had not been told he had gone).  Not at
        the first look, nor over a result or a match over.  With it, the same in fewer words
        ('bob has logged off.'), and the names it speaks of."""
        v = self.view
        if v is None:
            return "", "", []
        said = []
        short = []
        moved = []
        for pid, was in self.online_watched.items():
            on = self.rt.online(pid)
            if on is None or on == was or (was is not None and self.held and not v.state.over):
                # Over a result held, told once it goes: a logoff then had gone untold for good,
                # and 'is on again' came later without it.
                continue
            self.online_watched[pid] = on
            st = v.state
            if was is None or st.over or v.status != "active":
                continue
            colour = Color.WHITE if pid == v.white_id else Color.BLACK
            name = v.name(colour)
            moved.append(name)
            if on:
                # 'Again' only after their going was said: a player who had just joined, not
                # yet in the process's last look at who is on, came 'on again' ten seconds later.
                said.append(f"{name} is on again." if pid in self.told_off else f"{name} is on.")
                short.append(said[-1])
                self.told_off.discard(pid)
                continue
            self.told_off.add(pid)
            short.append(f"{name} has logged off.")
            if st.actor is colour:
                said.append(f"{name} has logged off; the game waits for their next visit.")
            elif self.me is not None:
                # An offer waits for the player's answer, not a play (a resignation offered, then
                # a hang-up, had said 'they will see your play').
                # 'your play' straight after theirs had read as the play just made.
                what = "answer" if st.phase in (Phase.DOUBLED, Phase.RESIGNED) else "next play"
                said.append(f"{name} has logged off; they will see your {what} at their next visit.")
            else:
                said.append(short[-1])
        return " ".join(said), " ".join(short), moved

    async def names_now(self) -> list[tuple[str, str]]:
        """The players' names read again before saying one came or went (one read, only then):
        renamed by the sysop while away, a player had come back 'bobby is on again.' under a name
        no longer theirs, the board's panel saying it too until they played.  The renames, (was,
        now); the view takes the new names where the game is as the board has it."""
        v = self.view
        if v is None or v.state.over:
            return []
        try:
            fresh = await self.svc.game(self.game_id, self.pid)
        except ServiceError:
            return []
        if fresh.version != v.version or (fresh.white, fresh.black) == (v.white, v.black):
            return []  # a change on its way is read and told as such
        self.view = replace(v, white=fresh.white, black=fresh.black)
        return self.renamed_pairs()

    def is_presence(self, text: str) -> bool:
        """Whether a line told is opponent_news's: a player of this game come or gone."""
        v = self.view
        return v is not None and comings_of(text, [v.name(Color.WHITE), v.name(Color.BLACK)])

    def tell_comings(self, said: str, short: str, moved: list[str]) -> None:
        """Put opponent_news on the lines after what they hold (looked at before each wait: one
        told as the game changed is not lost), in the place of what it said before of the same
        players ('bob is on again.' had stood beside 'bob has logged off', no longer so).  What
        the lines hold stays where it can: the whole, else in fewer words ('bob has logged
        off.'), else beside a shorter notice of other games, else without older such lines; at
        40 columns the opponent's play, a watcher's score, had given way to it."""
        fresh = not self.unkeyed
        self.keep_said()
        turn = None if fresh else self.told_turn  # a message kept whole says whose turn already
        base = [t for t in self.unkeyed if not comings_of(t, moved)]
        brief = [self.elsewhere_notice(brief=True) if t.startswith(ELSEWHERE) and self.told_elsewhere else t
                 for t in base]
        forms = [base + [said], base + [short], [t for t in base if not self.is_presence(t)] + [short],
                 brief + [short], [t for t in brief if not self.is_presence(t)] + [short]]
        # With a watcher's whole turn and score first: with_turn gives up the score where the
        # lines are short of it, so that the whole logoff line had always fitted, without it.
        self.unkeyed = next((f for f in forms if self.fits(f, turn)),
                            next((f for f in forms if not self.cut(self.with_turn(f, turn))), forms[-1]))
        self.told_turn = turn
        self.message = self.with_turn(self.unkeyed, turn)

    def under_board(self, texts: list[str], turn: tuple[str, str] | None) -> bool:
        """Whether `texts` and a watcher's `turn` fit the lines under the board: on a short
        screen the lines go on up over its foot, which a watcher who pressed no key had lost for
        good under four lines of news."""
        last = last_text_row(self.con.height) or MESSAGE_ROW + 1
        whole = self.with_notes(" ".join([*texts, *([f"{turn[0]} {turn[1]}".strip()] if turn else [])]))
        return self.fits(texts, turn) and len(wrap(whole, min(80, self.con.width) - 2)) <= last - BOTTOM_LABEL_ROW

    def fits(self, texts: list[str], turn: tuple[str, str] | None) -> bool:
        """Whether the lines hold `texts` and the whole of a watcher's `turn` (see with_turn)."""
        return not self.cut(" ".join([*texts, *([f"{turn[0]} {turn[1]}".strip()] if turn else [])]))

    def short_presence(self, text: str) -> str:
        """A line of opponent_news in its fewest words ('bob has logged off.')."""
        return f"{text.split(';', 1)[0].rstrip('.')}." if self.is_presence(text) and ";" in text else text

    def games_changed(self) -> None:
        """A game the player sits in changed (this one, or another: see waiting_elsewhere)."""
        self.games_woken = True
        self.con.wake()

    async def next_event(self) -> Key | None:
        """The next key, or None when the game changed (here, or in another process)."""
        assert self.view is not None
        self.follow_opponent()
        while True:
            said, short, moved = self.opponent_news()
            if said:
                renamed = await self.names_now()
                for was, now in renamed:
                    said, short = said.replace(was, now), short.replace(was, now)
                    moved = [*moved, now]  # and the lines of `was` before it go as theirs
                if renamed:
                    why = renamed_text(renamed)
                    said, short = f"{why} {said}", f"{why} {short}"
                self.tell_comings(said, short, moved)
                # Drawn here, the game read no more: each such news had read it again (three
                # queries a board, hundreds of boards at each look at who is on).
                self.draw()
                await self.con.show()
                continue
            # The change feed wakes this screen when its game changes, in any process.
            key = await self.con.key(idle=True, wake=True)
            if key.name != "wake":
                return key
            if self.rt.version(self.game_id) != self.view.version:
                return None
            if (self.con.width, self.con.height) != self.drawn_at:
                return None  # the window was resized: lay the board out again for its new size
            if not self.games_woken:
                # A player coming or going (told at the top), or nothing this board shows: not
                # news of the player's other games, which each wake had read (a thousand boards
                # at once at the process's first look at who is on).
                continue
            self.games_woken = False
            told = await self.waiting_elsewhere()
            ended, self.results_elsewhere = self.results_elsewhere, []
            if ended and not told:
                # A game or match decided in another of the player's games: told here, as the menu
                # tells it.  The board had said nothing, or only 'Your turn in game #2 too', which
                # read as if the double they had offered there still waited.
                self.keep_said()
                self.drop_stale_elsewhere()
                self.tell(ended)
                return None
            if self.drop_stale_elsewhere() and not told:
                return None  # drawn again without it
            if told:
                self.keep_said()
                rest = self.unkeyed_but_elsewhere()
                if rest is not None:
                    # Told already since the last key: one notice for all of them.  Two had pushed
                    # the opponent's play in this game off the lines, the newest game first.
                    told = sorted(set(told) | set(self.told_elsewhere))
                    self.unkeyed = rest
                self.told_elsewhere = told
                self.tell([*ended, NewsLine(0, self.elsewhere_notice())])
                return None

    def next_game_said(self, text: str) -> str:
        """What came after a held result, said to be of the next game where the next game's
        opening roll, which says so, is not beside it: 'dora offers to resign' had read as if of
        the game just won."""
        if not text or text.startswith(("Opening roll", "Game ", *ELSEWHERE)) or not any(
                t.startswith("Opening roll") for t in self.after_lines):
            return text
        assert self.view is not None
        return f"Game {self.view.state.game}: {text}"

    def keep_said(self) -> None:
        """What the lines say, kept where there is room before news that is not of a key: 'You
        rolled 6-2.', and the next game's 'Game 2 of the match. Score: ...', which 'bob is on
        again.' had taken the place of."""
        if not self.unkeyed and self.message and not self.held:
            # Not why a key did nothing, which is not news and goes when news comes: 'Your double
            # is waiting for your opponent's answer.' had stood before 'bob takes the double' where
            # 'bob is on.' came between them.  What the refusal covered stays instead.
            kept = self.refused[0] if self.message == self.refused[1] else self.message
            self.unkeyed = [kept] if kept else []

    def elsewhere_notice(self, brief: bool = False) -> str:
        """The notice of the games in told_elsewhere, as P)lay at the menu would now reach them:
        straight there when the one named is the only game waiting, this one included."""
        others = self.elsewhere or set()
        straight = others == set(self.told_elsewhere) and len(others) == 1 and not self.waiting_here()
        return elsewhere_text(self.told_elsewhere, straight, brief, frozenset(self.elsewhere_offers))

    def waiting_here(self) -> bool:
        """Whether this game waits for the player, as P)lay at the menu counts it (the opening
        roll is either player's)."""
        v = self.view
        if v is None or self.me is None or v.status != "active" or v.state.over:
            return False
        return v.my_turn or v.state.phase is Phase.OPENING

    def drop_stale_elsewhere(self) -> bool:
        """The notice of other games waiting, still up, no longer true: it named one no longer
        waiting (its opponent won the opening roll there, or it ended), or P)lay at the menu no
        longer goes straight to the one it names, or now does.  Said again as it stands, or taken
        down; whether the message changed."""
        if self.held and self.after_result.startswith(ELSEWHERE):
            # Beside a held result (and on the board after its key): a game withdrawn meanwhile
            # had stayed named there, 'Your turn in game #9 too', after the key as well.
            now = self.elsewhere or set()
            self.told_elsewhere = [g for g in self.told_elsewhere if g in now]
            new = self.elsewhere_notice() if self.told_elsewhere else ""
            if new == self.after_result:
                return False
            self.after_lines = [t for t in self.after_lines if not t.startswith(ELSEWHERE)] + ([new] if new else [])
            self.after_result = new
            self.message = self.result_and(new)
            return True
        old = next((t for t in self.unkeyed if t.startswith(ELSEWHERE)), None)
        if old is None:
            return False
        now = self.elsewhere or set()
        self.told_elsewhere = [g for g in self.told_elsewhere if g in now]
        new = self.elsewhere_notice(brief=old.endswith(BRIEF_END)) if self.told_elsewhere else ""
        if new == old:
            return False
        self.unkeyed = [new if t == old else t for t in self.unkeyed if t != old or new]
        self.message = " ".join(self.unkeyed)
        return True

    def unkeyed_but_elsewhere(self) -> list[str] | None:
        """The lines told since the last key less the notice of other games waiting; None when
        no such notice is among them."""
        rest = [t for t in self.unkeyed if not t.startswith(ELSEWHERE)]
        return rest if len(rest) < len(self.unkeyed) else None

    async def waiting_elsewhere(self) -> list[int]:
        """The player's other games that have come to wait for them since the last look (their
        opponent played there; the menu would count it, the board said nothing)."""
        try:
            # All the player's unfinished games in one read: those waiting for them (as P)lay at the
            # menu counts them), and the scores that tell a result there (see decided_elsewhere).
            mine = await self.svc.my_games(self.pid)
        except ServiceError:
            return []
        games = [g for g in mine if g.status == "active" and (g.turn_id == self.pid or g.opening)]
        now = {g.id for g in games if g.id != self.game_id}
        opening = {g.id for g in games if g.opening and g.id != self.game_id}
        offers = {g.id for g in games if g.offer and g.id != self.game_id}
        # A game waiting for either player's opening roll is counted as waiting already: the
        # opponent's roll that made it the player's turn there had been told nowhere.
        began = (now - opening) & self.elsewhere_opening
        # Nor was an offer made in a game already waiting (a resignation offered on the player's
        # own turn there).
        offered = offers - self.elsewhere_offers
        new = sorted((now - self.elsewhere) | began | offered) if self.elsewhere is not None else []
        self.elsewhere, self.elsewhere_opening, self.elsewhere_offers = now, opening, offers
        await self.decided_elsewhere(mine)
        return new

    async def decided_elsewhere(self, games: list[GameSummary]) -> None:
        """The results of the player's other `games` (their unfinished ones now) since the last
        look (a game of a match won there, or the match), into results_elsewhere, each as 'Game
        #2: ...' in the news's words."""
        scores = {g.id: g.score for g in games if g.id != self.game_id and g.status == "active"}
        before, self.scores_elsewhere = self.scores_elsewhere, scores
        if before is None:
            return
        for gid in sorted(gid for gid, score in before.items() if scores.get(gid) != score):
            try:
                log = await self.svc.game_log(gid, self.pid)
            except ServiceError:
                continue
            told = narrate(log, 0, self.pid, everything=True)
            last = max((i for i, n in enumerate(told) if n.result), default=None)
            if last is None or (gid in scores and log.game.state.score == before[gid]):
                continue  # withdrawn or removed (the menu's notices tell it), or no game won there
            # The ratings stay for the menu and the ? page: at 40 columns they had taken the lines.
            text = told[last].text.split(" Ratings: ")[0]
            if last and " forfeit" in told[last - 1].text:
                # Who forfeited, and why: 'carol wins by forfeit' had not said the sysop ended it.
                text = f"{told[last - 1].text} {text}"
            self.results_elsewhere.append(NewsLine(0, f"{DECIDED_ELSEWHERE}{gid}: {text}"))
            if not log.game.state.over:
                # Read, as that game's own board counts what it tells: the menu had kept it as its
                # newest news on every visit after, until N)ews was opened.  Not a match's end,
                # whose ratings only the menu and N)ews say.
                self.mark_later(told[last].seq + 1, gid)
            st = log.game.state
            if st.results and log.game.viewer_color is not None:
                self.con.bell("win" if st.results[-1].winner is log.game.viewer_color else "lose")

    async def on_change(self) -> None:
        old = self.view
        turn = self.turn
        moves = tuple((m.src, m.dst) for m in self.turn.moves) if self.turn is not None else ()
        played = notation(self.turn.moves) if self.turn is not None and moves else ""
        hand = self.hand
        events = self.events
        try:
            await self.reload()
        except NotFound:
            self.gone = True  # withdrawn (or deleted by the sysop) while on screen
            # Back on the menu without a word, the game no longer in its lists (a watcher had
            # been told nothing at all: no notice of the sysop's is left for one).
            watched = "" if self.me is not None else ", which you were watching,"
            self.s.menu_notice = (f"Game #{self.game_id}{watched} is no longer there: withdrawn, "
                                  "or removed by the sysop.")
            return
        assert self.view is not None
        renamed = self.renames(quiet=old is not None and old.state.over)
        if renamed and (old is None or self.view.version == old.version):
            self.tell([NewsLine(-1, renamed)])
        if old is not None and self.view.version != old.version:
            if self.restored:
                self.unkeyed = []  # the offer, answered: its three lines had cut off the moves' return
            log = await self.svc.game_log(self.game_id, self.pid)
            first = log.events[events] if len(log.events) > events else None
            elsewhere = self.me is not None and first is not None and first.player_id == self.pid
            lines = await self.catch_up(log, own=elsewhere)
            st = self.view.state
            if elsewhere:
                # The player went on in another session of theirs (a second door node, a second
                # window): what they did there is told here, in its own words; 'You played on in
                # another session' had been said of a drop that lost the game (whose result went
                # untold), of an offer to resign, of a play that took the moves made here.
                self.unkeyed = []
                mine = [e for e in log.events[events:] if e.player_id == self.pid]
                own = [i for i, n in enumerate(lines) if not n.result and any(e.seq == n.seq for e in mine)]
                lines = [done_elsewhere(n) if i in own else n for i, n in enumerate(lines)]
                if played and not self.taken_on(turn, mine):
                    # Said with what took them (an offer to resign, a play without them), so that
                    # both stay, or go, together.
                    gone = f"Your moves here ({played}) are not kept."
                    if own:
                        lines[own[-1]] = replace(lines[own[-1]], text=f"{lines[own[-1]].text} {gone}")
                    else:
                        lines = [*lines, NewsLine(-1, gone)]
                if not lines:
                    lines = [NewsLine(-1, f"{ELSEWHERE_PLAYED}; the board shows the game as it stands.")]
            elif played and st.resign_by is not self.me and self.kept_for_the_answer(self.view, old.version, moves):
                # An offer to resign made mid-turn takes the turn back until it is answered: the
                # moves wait for a refusal, as they do when the offer comes while away.
                lines = [*lines, NewsLine(-1, f"Your moves so far ({played}) come back if the offer is refused.")]
            if hand is not None and self.hand is None:
                # Put back by the change (an offer to resign takes the turn): said, as U says it;
                # the moves made were said to come back, the checker carried not at all.
                spot = "the bar" if hand == BAR else f"point {hand}"
                lines = [*lines, NewsLine(-1, f"The checker you held is back on {spot}.")]
            if renamed and not lines:
                # A rename alone: what the lines said stays with it, where there is room ('Checker
                # in hand: ...' had given way to 'The sysop renamed umbra to uma.').
                self.keep_said()
                self.unkeyed = [renamed_in(t, self.renamed_now) for t in self.unkeyed]
            lines = with_renames(lines, renamed)
            self.tell(lines, turn=self.watched(lines))
            if not self.held:
                # A turn come or gone here: P)lay at the menu now lists the games, or no longer does.
                self.drop_stale_elsewhere()
            await self.forget_a_sent_note()
        if self.restored:
            self.message = f"{self.message} {self.restored}".strip()
            self.restored = ""

    def renames(self, quiet: bool = False) -> str:
        """The sysop's renaming of a player here since the board last showed their name, said
        where the new name first shows: the board had gone from 'bob to play' to 'robert rolled
        6-2' with no word of who robert was (the menu said it later).  The names shown are kept
        from the first look on (a rename seen first in the game the player's own act returned
        had gone untold).  `quiet`: a match over already, whose result stays on the lines.  What
        the lines kept says the names now (see renamed_in)."""
        pairs = self.renamed_pairs()
        # The player's own new name too (their menu tells them): the roll told before it and
        # again with its play had been told twice on the renamed player's board.
        own = self.own_renamed()
        self.renamed_now = pairs + own
        if self.renamed_now:
            self.unkeyed = [renamed_in(t, self.renamed_now) for t in self.unkeyed]
        if quiet:
            return ""
        # Said to them as well: their own name had changed on the panel without a word (the
        # menu told them only once they went back to it).
        # Not a deletion: 'The sysop renamed you to (deleted).' had come before the forfeit that says it.
        return " ".join([renamed_text(pairs), *(f"{RENAMED} you to {now}." for _, now in own
                                                if now != DELETED_NAME)]).strip()

    def own_renamed(self) -> list[tuple[str, str]]:
        """The player's own name as the board showed it and as it is now, where they differ."""
        v = self.view
        if v is None or self.me is None:
            return []
        was, now = self.shown_names.get(self.pid), v.name(self.me)
        self.shown_names[self.pid] = now
        return [(was, now)] if was is not None and was != now else []

    def renamed_pairs(self) -> list[tuple[str, str]]:
        """The other players' names changed since the board last showed them, (was, now); the
        names now are the ones shown from here on."""
        v = self.view
        if v is None:
            return []
        pairs = []
        for colour, pid in ((Color.WHITE, v.white_id), (Color.BLACK, v.black_id)):
            if pid is None or colour is self.me:
                continue
            was, now = self.shown_names.get(pid), v.name(colour)
            self.shown_names[pid] = now
            if was is not None and was != now:
                pairs.append((was, now))
        return pairs

    @staticmethod
    def taken_on(turn: Turn | None, mine: list[LoggedEvent]) -> bool:
        """Whether the play made in another session (among `mine`) carries on from the moves made
        on this board's `turn`: 24/21 13/9 from a 13/9 here does; 24/18 13/10 from a 13/7 does not,
        and had gone without a word."""
        made = next((e.event for e in mine if isinstance(e.event, Move)), None)
        if made is None or turn is None:
            return False
        if not made.notation:
            return not turn.moves
        try:
            after = Position.from_id(made.position)
        except ValueError:
            return False
        again = Turn(turn.start, turn.dice)
        for m in turn.moves:
            again.move(m.src, m.dst)
        return again.leads_to(after)

    async def forget_a_sent_note(self) -> None:
        """The note taken up from the draft is dropped once the draft no longer holds it: another
        session of the player's sent it (or took it back), and it would have gone twice."""
        if self.pending_note is None or self.pending_note != self.draft_note:
            return
        try:
            draft = await self.svc.draft(self.pid, self.game_id)
        except ServiceError:
            return
        if draft is None or draft.note != self.pending_note:
            sent = f'"{self.pending_note}"' in self.message  # told with what went with it
            self.pending_note = self.draft_note = None
            if not sent:
                gone = "Your note is no longer waiting: your other session sent it or took it back."
                self.message = f"{self.message} {gone}".strip()

    # ------------------------------------------------------------ state and keys

    def state(self) -> State:
        v = self.view
        assert v is not None
        st = v.state
        if st.over:
            return State.OVER
        if self.me is None:
            return State.SPECTATING
        if v.status == "open":
            return State.OPEN_SEAT
        if st.phase is Phase.OPENING:
            return State.OPENING
        if st.phase is Phase.DOUBLED:
            return State.DOUBLE_TO_ME if st.actor is self.me else State.DOUBLE_BY_ME
        if st.phase is Phase.RESIGNED:
            return State.RESIGN_TO_ME if st.actor is self.me else State.RESIGN_BY_ME
        if st.actor is not self.me:
            return State.WAITING
        return State.TO_ROLL if st.phase is Phase.ROLL else State.MOVING

    def unavailable(self, state: State) -> dict[str, str]:
        """Actions of the state's table that are not possible just now, and why."""
        turn = self.turn
        basis = (state, self.view, self.last, turn, turn.moves if turn is not None else (), self.hand, self.events)
        kept = self._unavailable
        if kept is not None and kept[0] == basis:  # element by element, each `is` before `==`
            return dict(kept[1])
        out = self._work_out_unavailable(state)
        self._unavailable = (basis, out)
        return dict(out)

    def _work_out_unavailable(self, state: State) -> dict[str, str]:
        v = self.view
        assert v is not None
        st = v.state
        out: dict[str, str] = {}
        if self.last is None:
            out["view_last"] = self.no_last_turn()
        if state is State.OPENING and (st.game > 1 or self.events):
            out["withdraw"] = keytable.WITHDRAWN_TOO_LATE  # a tie rolled, or a later game of the match
        if self.me is not None and v.name(self.me.other) in {handle for _, handle in self.rt.bot_levels()}:
            out["write_note"] = "The computer opponent reads no notes."
        if state in (State.OPENING, State.MOVING, State.WAITING) and (st.length == 1 or st.crawford):
            # Asked of D at any moment of such a game: the answer is the match's, not the moment's.
            out["double"] = NO_CUBE if st.length == 1 else NO_CRAWFORD_DOUBLE
        if state is State.TO_ROLL and not st.can_double():
            if st.length == 1:
                out["double"] = NO_CUBE
            elif st.crawford:
                out["double"] = NO_CRAWFORD_DOUBLE
            elif st.cube_owner is not None and st.cube_owner is not self.me:
                out["double"] = "Your opponent owns the cube."
            else:
                out["double"] = f"The cube is at {st.cube}, as high as it goes."
        if state is State.MOVING:
            out["commit"] = out["pass_turn"] = "Play your dice first."
        if state is State.MOVING and self.turn is not None:
            turn = self.turn
            if turn.no_play:
                del out["pass_turn"]
                for action in ("pick", "bear_off", "typed_play", "cursor"):
                    out[action] = "You have no legal play: Enter passes the turn."
            elif turn.is_complete:
                del out["commit"]
                # R too: it had said 'No checker can bear off with : none is on point , ...'.
                out["pick"] = out["bear_off"] = "The dice are played: Enter commits the play, U)ndo takes a move back."
            if self.hand is None and not turn.moves:
                out["undo"] = "Nothing to undo yet."
            if self.hand is not None:
                # The checker in hand's own reason ('6/off is 6 pips ... you have a 3 to play'): the
                # general one said 'all must be home first' to a player whose checkers all were.
                why = turn.refusal(self.hand, 0)
                if why is not None:
                    out["bear_off"] = sentence(why)
            elif not turn.is_complete and not any(0 in turn.destinations(p) for p in turn.sources()):
                out["bear_off"] = no_bearing_off(turn)
        return out

    def help_line(self) -> str:
        state = self.state()
        return keytable.help_line(state, self.unavailable(state))

    async def on_key(self, key: Key, retried: bool = False) -> bool:
        """Handle one key; False leaves the screen."""
        assert self.view is not None
        self.own_said = ""  # a key ends what was said till then (see tell)
        if key.name == "redraw":
            self.con.redraw()
            return True
        if self.moot_until:
            moot = time.monotonic() < self.moot_until
            field = self.moot_field
            typed = bool(field) and (key.name == "backspace" or (len(key.char) == 1 and key.char.isprintable()))
            if moot and (key.name in ("y", "n", "enter", "esc") or typed):
                # Typed as the question went by itself: 'Y does nothing here' had taken the line
                # saying why it went ('carol joined your game.'), an Enter meant as no would have
                # rolled, and a result come meanwhile went unread.  Typed into a field the change
                # closed: each key of the word goes, said once.
                if not typed:
                    self.moot_until, self.moot_field = 0.0, ""
                said = {"enter": "Enter", "esc": "Esc"}.get(key.name) or key_said(key)
                gone = f"{field} had closed" if field else "the question had gone"
                if f"came after {gone}" not in self.message:
                    self.message = f"{self.message} {said} came after {gone}: nothing was done.".strip()
                return True
            self.moot_until, self.moot_field = 0.0, ""
        if self.held and keytable.key_name(key) in ("?", "h"):
            # The board cut the result and says '? shows all': ? does, and the result stays; shown
            # whole, ? shows the keys, as it does elsewhere (it had cleared the result instead).
            if self.overflow:
                await show_whole(self.con, self.overflow, "Press a key to go back to the board.")
            else:
                await help_page(self.con, self.state(), self.unavailable(self.state()), "back to the board")
            return True
        if self.held:
            # A result stays until a key; that key only clears it (Q still leaves), and what came
            # after it (who won the next opening roll) stays.
            self.held, self.held_frame = False, None
            after, self.after_result = self.after_result, ""
            # Without a roll its play tells again: an opening roll told, then its play, had made a
            # page of 'Opening roll: ... starts with 6-2.' over '... starts with 6-2, playing ...'.
            since, self.after_lines = told_again(self.after_lines), []
            between = "" if after else self.next_game()
            self.message = self.headed(after) if after else self.pending_offer() or between
            if between and self.message == between:
                self.keep_said()  # as on opening the board: the opening roll goes after it
            if key.name == "esc" or key.name == "q":
                return False
            if len(since) > 1:
                # Beside the result the lines held only the latest of what came after it (a watcher
                # who let it stand through the next game's opening roll and a play or two was never
                # told them): all of it, on a page, before the board.
                ended = await self.news_page([NewsLine(-1, text) for text in since])
                if ended is not None:
                    return await self.on_key(ended)
            return True
        state = self.state()
        unavailable = self.unavailable(state)
        found = keytable.binding(state, key, unavailable)
        told = False
        if found is None and key.name not in keytable.MOVE_KEYS and await self.moved_on():
            # The key may be for a state the change notice has not shown yet.
            told = True
            state = self.state()
            unavailable = self.unavailable(state)
            found = keytable.binding(state, key, unavailable)
        if found is None:
            refused = keytable.refusal(state, key, unavailable)
            self.con.bell("error")  # with S)ound on, as a full field rings
            if self.message != self.refused[1]:
                self.refused = (self.message, "")  # what the refusal covers, for a look-only key after it
            if told or self.just_told() or self.me is None:
                # And a watcher's, whose lines are all they are told: a second refused key had left
                # the refusal alone there, the last play and whose turn it is gone.
                # The news just told first: 'Answer the double first' had come before the double,
                # and an Enter typed as the opponent's opening roll came had wiped it unread.
                covered = self.refused[0] if self.me is None else self.message
                self.message = f"{covered} {refused}".strip()
            else:
                # A double or resignation waiting for an answer stays said beside why the key did
                # nothing; while moving on a narrow screen, the roll left (it had gone from sight).
                # Not the player's own, which the refusal says waits: 'Your double is waiting ...
                # You offer the cube at 2.' had read as a second offer.
                own = state in (State.DOUBLE_BY_ME, State.RESIGN_BY_ME)
                if own and refused.endswith(keytable.TAIL) and not re.search(r"double|resign|offer", refused):
                    # A key refused with no word of the offer ('Z does nothing here.') took the place
                    # of 'You offer the cube at 2. You will see the answer here.', the panel alone
                    # saying an answer was awaited.
                    waits = keytable.REASONS[state]["p"]
                    refused = f"{refused.removesuffix(keytable.TAIL)} {waits}{keytable.TAIL}"
                self.message = self.with_roll_left(f"{refused} {'' if own else self.pending_offer()}".rstrip())
            self.refused = (self.refused[0], self.message)
            return True
        if found.action == "quit":
            return False
        if found.action in ("roll", "double", "take", "drop", "accept", "refuse", "give_up", "typed_play", "withdraw"):
            # An action key may beat the change notice to us: act on the game as it is now.
            # (Picking up and dropping checkers reads nothing: the save checks the version.)
            if await self.moved_on() and self.state() is not state:
                return True  # the news says what changed; the key was for the old state
        if found.action not in LOOK_ONLY:
            self.said_before = self.message if self.message != self.refused[1] else ""
            self.message = ""
        elif self.message and self.message == self.refused[1]:
            # A refusal stays until the next key: after the keys page it had come back, two keys on.
            self.message = self.refused[0]
        handler: Callable[[Key], Awaitable[None]] = getattr(self, "do_" + found.action)
        try:
            await handler(key)
        except IllegalPlay as exc:
            self.message = self.with_roll_left(sentence(str(exc)))
        except Superseded:
            self.moot_until = time.monotonic() + MOOT_ANSWER  # the question is moot: the news says why
            if found.action == "give_up" and not self.held:
                # The choice closes (what each costs may have changed), said: it had gone unsaid,
                # and a '1' typed on was refused as a cursor key.
                now = self.state()
                again = any(b.action == "give_up" for b in keytable.offered(now, self.unavailable(now)))
                closed = "Your G)ive up question closed with that" + (": G asks again." if again else ".")
                self.message = f"{self.message} {closed}".strip()
        except GameChanged as exc:
            # Told what changed, as a change notice tells it: a question left open here and
            # answered in the player's other session ('In another session, you take ...') had said
            # only that the game had changed.
            if not await self.moved_on():
                await self.reload()
                self.message = sentence(str(exc))
                self.tell(await self.catch_up())
        except ServiceError as exc:
            self.message = self.with_roll_left(sentence(str(exc)))
        return True

    def just_told(self) -> bool:
        """News told a moment ago and still the message, with no offer that says it again: a key
        refused now is said beside it, not over it."""
        at, said = self.told
        return time.monotonic() - at < MOOT_ANSWER and self.message == said and not self.pending_offer()

    async def moved_on(self) -> bool:
        """Whether the game changed since it was drawn; if so, it is read again (and its news told)."""
        assert self.view is not None
        try:
            if await self.svc.game_version(self.game_id) == self.view.version:
                return False
        except ServiceError:
            return False
        await self.on_change()
        return True

    # ------------------------------------------------------------ actions

    async def do_help(self, key: Key) -> None:
        state = self.state()
        if self.overflow and await show_whole(self.con, self.overflow):  # the message cut, before the keys
            return  # Esc there: back to the board, as from any page
        await help_page(self.con, state, self.unavailable(state), "back to the board")

    async def do_show_id(self, key: Key) -> None:
        assert self.view is not None
        mid = self.match_id()
        pos = f"{POSITION_ID}{self.view.state.position.id}"
        if self.turn is not None and self.turn.moves:
            # With the Match ID's dice, the IDs describe the roll to play: not the board shown.
            pos += " (the turn's start)"
        room = min(80, self.con.width) - 2
        # Where both do not fit on one line, 'Match ID' starts the next: broken anywhere, the
        # label had stood at the end of one line and its value on the next.
        gap = "  " if len(pos) + 2 + len(mid) + 9 <= room else " " * max(2, room - len(pos) + 1)
        self.message = pos + (f"{gap}Match ID {mid}" if mid else "")

    def match_id(self) -> str:
        from bgdoor.rules.matchid import match_id  # noqa: PLC0415 - only the I key needs it

        assert self.view is not None
        return match_id(self.view.state)

    async def act(self, method: Callable[[int, int, int], Awaitable[GameView]], done: str = "") -> None:
        assert self.view is not None
        self.view = await method(self.pid, self.game_id, self.view.version)
        self.last = await self.svc.last_turn(self.game_id, self.pid)
        self.turn = None
        self.sync_turn()
        told = await self.catch_up(mine=True)
        self.tell(told, own=done if not told or done else "")
        self.own_said = "" if self.held else done
        if self.restored:  # one's own refusal of an offer made since the moves were left
            self.message = f"{self.message} {self.restored}".strip()
            self.restored = ""
        if not self.message and self.view.state.phase is Phase.MOVE and self.view.my_turn and self.view.state.dice:
            d = self.view.state.dice
            self.message = f"You rolled {rolled(d)}."
        renamed = self.renames()
        if renamed:
            self.message = f"{renamed} {self.message}".strip()

    async def do_roll(self, key: Key) -> None:
        assert self.view is not None
        opening = self.view.state.phase is Phase.OPENING
        await self.act(self.svc.roll)
        st = self.view.state
        if opening:
            return  # the news tells who won the opening roll
        # The dice are already committed; the tumbling is only for show.
        shown = self.message
        for _ in range(4):
            tumble = (random.randint(1, 6), random.randint(1, 6))
            self.draw(position=st.position, on_roll=st.turn, dice=tumble, note="Rolling...")
            await self.con.show()
            await asyncio.sleep(0.08)
        self.con.bell("roll")
        self.message = shown

    async def do_double(self, key: Key) -> None:
        assert self.view is not None
        cube = self.view.state.cube * 2
        await self.act_noted(self.svc.double, f"You offer the cube at {cube}.{ANSWER_HERE}")

    async def do_take(self, key: Key) -> None:
        assert self.view is not None
        await self.act_noted(self.svc.take, f"You take. You own the cube at {self.view.state.cube * 2}.")

    async def do_drop(self, key: Key) -> None:
        assert self.view is not None
        lose = self.view.state.cube
        match = ", and the match" if self.me is not None and self.ends_match(self.me.other, lose) else ""
        if not await self.confirm(f"Drop the double and lose this game, {points(lose)}{match}? (Y/N)"):
            # The double said again: at 40 columns nothing else on the screen says it, nor its cube.
            self.message = f"You did not drop. {self.pending_offer()} T)ake or X) drop."
            return
        await self.act_noted(self.svc.drop, "You drop the double.")

    async def do_accept(self, key: Key) -> None:
        assert self.view is not None
        st = self.view.state
        if st.resign_win is None:
            return
        gain = st.cube * st.resign_win.multiplier
        match = " and the match" if self.me is not None and self.ends_match(self.me, gain) else ""
        if not await self.confirm(f"Accept, and win {WIN_WORDS[st.resign_win]} ({points(gain)}){match}? (Y/N)"):
            self.message = f"Not accepted. {self.pending_offer()} A)ccept or N)o, play on."
            return
        await self.act_noted(lambda p, g, v, n: self.svc.answer_resign(p, g, v, True, n), "You accept the resignation.")

    async def do_refuse(self, key: Key) -> None:
        await self.act_noted(
            lambda p, g, v, n: self.svc.answer_resign(p, g, v, False, n), "You refuse the resignation; play on."
        )
        back = self.typed_back
        if back is not None and not back.refused and self.state() is State.MOVING:
            # As the board promised when the offer closed the line ('M brings it back if play goes
            # on'): the moves made with the cursor are said so, the typed play had been forgotten.
            self.message = f"{self.message} M brings back your typed play ({back.text.strip()}).".strip()

    async def do_give_up(self, key: Key) -> None:
        assert self.view is not None
        cube = self.view.state.cube
        other = self.me.other if self.me is not None else None

        def cost(n: int) -> str:
            return f"{points(n)}, the match" if other is not None and self.ends_match(other, n) else points(n)

        # Offered up to the first that ends the match: past it each gives no more ('a single game
        # (4 points, the match), a gammon (8 points, the match) or a backgammon (...)' had asked
        # a choice that changed nothing).
        wins: dict[str, Win] = {}
        for digit, win in (("1", Win.SINGLE), ("2", Win.GAMMON), ("3", Win.BACKGAMMON)):
            wins[digit] = win
            if other is not None and self.ends_match(other, cube * win.multiplier):
                break
        offers = [f"{WIN_WORDS[w]} ({cost(cube * w.multiplier)})" for w in wins.values()]
        # The keys are on the help line under it: here they had wrapped as '3)' at the end of
        # one line and 'backgammon' at the start of the next.
        question = f"Give up: {offers[0]}?" if len(offers) == 1 else \
            f"Give up: {', '.join(offers[:-1])} or {offers[-1]}?"
        if len(offers) < 3:
            # Why no more is offered, in the question (only the refusal of a 3 had said it).
            more = WIN_WORDS[(Win.GAMMON, Win.BACKGAMMON)[len(offers) - 1]]
            question += f" {sentence(more)[:-1]} would give no more."
        self.message = question
        keys = "  ".join(f"{d}) {w.value}" for d, w in wins.items()) + "  Esc: no"
        help_text = keys
        while True:
            self.draw(help_text=help_text)
            await self.con.show()
            answer = await self.question_key()
            if answer is WAKE:
                continue  # drawn again for a new size
            if answer is None or answer.name in ("esc", "q") or answer.char.upper() == "N":
                self.message = f"You did not offer to resign. {self.still_in_hand()}".strip()
                return
            if answer.char in wins:
                break
            if await self.whole_question(answer):
                continue
            # Any other key said 'You did not offer to resign', as Esc does: it asks again.  Said
            # short, the keys being on the help line: at 40 columns the points each answer costs
            # had been cut to '? shows all'.
            help_text = self.not_an_answer(answer, question, keys, f"{key_said(answer)} is not an answer. {question}")
        win = wins[answer.char]
        offer = f"{WIN_WORDS[win]} ({cost(cube * win.multiplier)})"
        done = f"You offer to resign, giving {offer}.{ANSWER_HERE}"
        turn = self.turn
        if turn is not None and turn.moves:
            # The offer is made from the position the turn began with: the moves went without a
            # word.  Refused, they come back (see sync_turn).
            self.resumed = (turn.start, turn.dice, tuple((m.src, m.dst) for m in turn.moves))
            self.resumed_version = self.view.version
            done += " Your moves so far are taken back while it stands."
        await self.act_noted(lambda p, g, v, n: self.svc.resign(p, g, v, win, n), done)

    def ends_match(self, winner: Color, won: int) -> bool:
        """Whether `won` more points for `winner` end the match (a question must say so)."""
        assert self.view is not None
        return ends_match(self.view.state, winner, won)

    async def do_withdraw(self, key: Key) -> None:
        assert self.view is not None
        if self.me is not None and self.view.status != "open":
            question = (f"Withdraw from game #{self.game_id} against {self.view.name(self.me.other)}? Nobody has "
                        "rolled yet: the game goes, for you both. (Y/N)")
            stays = "The game stays."
        else:
            question, stays = f"Withdraw game #{self.game_id}? Nobody has joined it. (Y/N)", \
                "The game stays open for someone to join."
        if not await self.confirm(question):
            self.message = stays
            return
        try:
            await self.svc.withdraw_game(self.pid, self.game_id, self.view.version)
        except GameChanged:
            # Joined (or rolled in) as the Y was typed: told so, and that the game stays.
            if not await self.moved_on():
                raise
            self.message = f"{self.message} So the game was not withdrawn.".strip()
            return
        self.s.menu_notice = f"Game #{self.game_id} is withdrawn."
        self.gone = True

    async def confirm(self, question: str) -> bool:
        # What Enter answers, as the menu's questions show it ('Join it? (Y/N) [Y]'): Enter had
        # answered no unsaid.
        question = f"{question} [N]"
        self.message = question
        help_text = YES_NO
        refused = False  # the last key was no answer
        while True:
            # The question's own keys on the help line: the state's keys do nothing meanwhile.
            self.draw(help_text=help_text)
            await self.con.show()
            answer = await self.question_key()
            if answer is WAKE:
                continue  # drawn again for the new size
            if answer.name == "enter" and refused:
                # Right after a refused key, as the menu's questions ask: 'Q' and Enter had
                # answered no at once.
                refused = False
                help_text = self.not_an_answer(answer, question, YES_NO, f"{question}  Enter again for no; or Y or N.")
                continue
            if answer.name == "y":
                return True
            if answer.name in ("n", "esc", "enter"):
                return False
            if await self.whole_question(answer):
                continue
            refused = True
            # Not Enter among the answers here: right after a refused key it asks again, where the
            # refusal had just said Enter was no.
            said = f"{question}  Y answers yes; N or Esc, no."
            help_text = self.not_an_answer(answer, question, YES_NO_REFUSED, said)

    async def question_key(self) -> Key:
        """A key answering a question the board asks, or WAKE to ask it again (a new size).  The
        game changing meanwhile ends the question, its news told: Superseded.  A drop asked in
        one session and a take made in the player's other had left 'Drop the double ...? (Y/N)'
        standing until Y, which then said only that the game had changed."""
        kept = False  # a wake for something else (another game, who is on): the board's, after
        try:
            while True:
                key = await self.con.key(idle=True, wake=True)
                if key.name != "wake":
                    return key
                if self.view is not None and self.rt.version(self.game_id) != self.view.version:
                    before = self.view.state
                    await self.on_change()
                    if self.view is not None and self.view.state == before and not self.gone:
                        # Nothing of the game changed (a sysop's rename): the question stays open,
                        # the news told with it.  It had closed without a word, and the N typed
                        # to 'Accept ...? (Y/N)' refused the resignation.
                        self.asked_news = self.message
                        return WAKE
                    raise Superseded
                if (self.con.width, self.con.height) != self.drawn_at:
                    return WAKE
                kept = True
        finally:
            if kept:
                self.con.wake()

    def not_an_answer(self, key: Key, question: str, keys: str, said: str) -> str:
        """A key that answers no question on the board: `said` (the question with why not) where
        the board's lines hold it, else the question alone and why not beside its `keys` on the
        help line, where said with the question it would cut the question's end off (at 40
        columns, '... the match? (Y/N)', or what each answer costs).  The help line's text.
        With S)ound on it rings, as a key refused on the board does (a question's had not)."""
        self.con.bell("error")
        if not self.cut(said, keys):
            self.message = said
            return keys
        self.message = question
        return f"{key_said(key)} is not an answer: {keys}"

    async def whole_question(self, key: Key) -> bool:
        """? (or H) while a question is asked, where the board cut it and says '? shows all': the
        question whole, then the question again (? had been refused as no answer)."""
        if keytable.key_name(key) not in ("?", "h") or not self.overflow:
            return False
        await show_whole(self.con, self.overflow, "Press a key to go back to the question.")
        return True

    async def do_view_last(self, key: Key) -> None:
        last = await self.svc.last_turn(self.game_id, self.pid)
        if last is None:
            self.message = self.no_last_turn()
            return
        await self.replay(last)

    def no_last_turn(self) -> str:
        """Why V)iew last has nothing to show: a player's own turns are on the board already, so
        it is the opponent who has not played ('No turn has been played yet' after one's own)."""
        if self.me is not None and self.view is not None:
            return f"{self.view.name(self.me.other)} has not played a turn in this game yet."
        return "No turn has been played in this game yet."

    async def do_review(self, key: Key) -> None:
        await review_match(self.con, self.svc, self.pid, self.game_id)

    async def replay(self, last: LastTurn) -> None:
        """The opponent's last turn, move by move: it plays itself until a key, then steps by keys."""
        pos = last.before.position
        frames: list[Position] = [pos]
        for m in last.moves:
            frames.append(frames[-1].apply(m))
        lefts = dice_played(pos, last.dice, last.moves)
        assert self.view is not None
        name = self.view.name(last.by)
        # The last turn may be the end of the game before this one: said so, not shown as this game's.
        game = last.before.game
        earlier = " in the last game" if game != self.view.state.game else ""  # not "game 1": read as game #1
        at = 0
        note = ""
        auto = True
        seen = self.rt.version(self.game_id)

        async def since_then() -> tuple[str, str]:
            """What was done since the turn shown, and the words at the replay's end with it."""
            since = since_turn(await self.svc.game_log(self.game_id, self.pid), last.seq,
                               self.pid if self.me is not None else None)
            return since, " ".join(part for part in ("That was the last move.", since, "Q goes back to the game.")
                                   if part)

        since, end = await since_then()
        said = self.message
        start = "That is the board before the first move."
        kept = False  # a wake for the board beneath (its game changed, other news): given back after
        while True:
            # A game's first play is made with the opening roll (the start position, nothing moved).
            opening = last.before.position == Position.start()
            where = replay_text(name, last.dice, earlier, last.moves, at, opening)
            # Why a key did nothing, before the move it did nothing at (that had gone from sight).
            text = f"{note} {where}" if is_refusal(note, end, start) else note or where
            if not note and auto and at == 0 and len(frames) > 1:
                # The help line offers Enter: an Enter pressed as the replay stepped by itself
                # had gone two moves on, unexplained.
                text = f"{text} {REPLAY_GOES_ON}"
            if not note and since and at == len(frames) - 1:
                text = f"{text} {since}"
            ends = at_ends(at, len(frames) - 1, end, start)
            self.draw(position=frames[at], on_roll=last.by, dice=last.dice, note=text,
                      status=f"Replay of {name}", help_text=keytable.help_line(State.REPLAY, ends), then=last.before,
                      dice_left=lefts[at])
            await self.con.show()
            # The board before the turn stays longer: a step after the usual pace had a caller
            # who looked a moment late meet the replay already one move in.
            pace = REPLAY_HOLD if at == 0 else REPLAY_PACE
            wait = pace if auto and at < len(frames) - 1 else None
            key = await (self.con.key(idle=True, wake=True) if wait is None
                         else self.con.key(wait, idle=True, wake=True))
            if key is WAKE:
                kept = True
                if self.rt.version(self.game_id) != seen:
                    # The game went on meanwhile (the opponent took the double just offered): what
                    # was done since the turn shown is said as it is now, not as it stood at V.
                    seen = self.rt.version(self.game_id)
                    with contextlib.suppress(ServiceError):
                        since, end = await since_then()
                    if note.startswith("That was the last move."):
                        note = end
                continue  # drawn again: a new size, or what was done since
            auto = auto and key is None
            moved, note = await step(self.con, State.REPLAY, key, at, len(frames) - 1, end=end, start=start)
            if moved is None:
                break
            at = moved
        if kept:
            self.con.wake()  # the board beneath takes in what changed
        # The board goes back to what it said (the news, an offer waiting): at 40 columns the
        # message line is where whose turn it is shows, and 'bob played ...' had hidden a double.
        self.message = said

    # ------------------------------------------------------------ drawing

    def draw(self, position: Position | None = None, on_roll: Color | None = None, dice: tuple[int, int] | None = None,
             note: str | None = None, status: str | None = None, help_text: str | None = None,
             then: MatchState | None = None, last_row: int = 0, dice_left: tuple[int, ...] | None = None) -> None:
        """`then`: the match as it stood at a frame of a replay (its score and cube), not as now;
        `last_row`: the message ends by that row (see BoardView.last_row); `dice_left`: a replay
        frame's dice still to play (see BoardView.dice_left)."""
        v = self.view
        assert v is not None
        st = v.state
        self.drawn_at = (self.con.width, self.con.height)
        last_row = last_row or last_text_row(self.con.height)
        won = self.held_frame if position is None and self.held and not st.over else None
        if won is not None:
            # A result held: the board it was won on, with the new score.
            position, on_roll, then = won.position, won.on_roll, won.state
            status = status or f"{self.who(won.winner or won.on_roll)} won the game"
        sources: set[Loc] = set()
        dests: set[Loc] = set()
        live = position is None  # the current board, not an animation frame
        turn = st.winner if st.over and st.winner is not None else st.actor or st.turn
        if position is None:
            if self.turn is not None:
                position = self.turn.position
                if self.hand is None:
                    sources = {_point_to_loc(p) for p in self.turn.sources()}
                else:
                    dests = {_point_to_loc(p) for p in self.turn.destinations(self.hand)}
                viewer = self.me or Color.WHITE
                if not self.con.in_sight(self.cursor, viewer):
                    # Off a narrow screen (Black's point 13 with the board as the table stands
                    # at 40 columns): on a marked point that shows, the farthest back.
                    marked = [loc for loc in CURSOR_ORDER if loc in (dests or sources)]
                    self.cursor = next((loc for loc in marked if self.con.in_sight(loc, viewer)), self.cursor)
            else:
                position = st.position
            on_roll = st.turn or Color.WHITE
            dice = st.dice
            status = status or self.status_text()
            # Nobody's turn yet: the seat is open, or either player may make the opening roll; nor
            # once the match is over (the marker on the winner had read as the winner to act: the
            # panel's line says who won).
            marker = not st.over and v.status != "open" and st.phase is not Phase.OPENING
        else:
            turn = won.winner if won is not None and won.winner is not None else on_roll
            marker = won is None  # a held result: nobody's turn, 'X won the game' says it
        # A result stays (with what followed it) until a key: the help says so meanwhile.
        help = help_text if help_text is not None else PRESS_A_KEY if self.held else self.help_line()
        # With nothing else to say, a double or resignation waiting for its answer, or how the
        # match ended: a key that only cleared the line (?, a step of R)eview) lost it.
        said = "" if note is not None else self.roomiest(self.shorter) \
            if self.message and self.message in self.shorter[:2] else self.message or self.pending_offer()
        whole = self.with_notes(said)  # the message before the board's lines cut it
        view = self.con.board_view(
            v,
            then or st,
            position=position,
            on_roll=on_roll or Color.WHITE,
            dice=dice,
            # A die the finished play cannot use is done with too: not 'the 2 to play' beside
            # 'Enter commits it'.
            dice_left=(() if self.turn.is_complete else self.turn.remaining_dice)
            if self.turn is not None and live else dice_left,
            cursor=self.cursor if self.turn is not None and live else None,
            sources=frozenset(sources),
            destinations=frozenset(dests),
            in_hand=_point_to_loc(self.hand) if self.hand is not None else None,
            turn=turn,
            marker=marker,
            status=status,
            message=note if note is not None else self.fitted(whole, help),
            help=help,
            last_row=last_row,
        )
        if note is None and not said and self.con.width < 80 and self.with_notes(""):
            # Under 80 columns the message line says whose turn it is and the roll where the cut
            # panel cannot, when it has nothing else to say: a note had taken its place, and at
            # 40 columns, a die past the edge, nothing said the roll.
            turn_said, score = f"{turn_line(view)}.", score_line(view)
            whole = self.with_notes(f"{turn_said} {score}")
            if self.cut(f"{turn_said} {score}", help):
                # The score after the note where both do not fit, cut with '? shows all': left
                # out, it was nowhere on a 40-column board, and nothing said so.
                whole = f"{self.with_notes(turn_said)}  {score}"
            view = replace(view, message=self.fitted(whole, help))
        if last_row and note is None and help and (help_text or self.held or (
                live and self.state() in (State.DOUBLE_TO_ME, State.RESIGN_TO_ME))):
            # Under 22 lines the keys' line is below the screen: a question's keys ('1) single
            # 2) gammon ...'), a held result's '(Press a key ...)' and an offer's to answer
            # ('T)ake X) drop': at 80x20 nothing had said how) go with the message, which is cut
            # to leave them room (the result's last line had been cut off, keys and all).
            view = replace(view, message=self.with_keys(whole, help))
        self.con.show_board(view)

    def with_keys(self, message: str, keys: str) -> str:
        """`message`, cut where need be, with `keys` after it, in the board's lines over `keys`."""
        rows, width = self.room(keys), min(80, self.con.width) - 2
        if len(wrap(f"{message} {keys}", width)) > rows and (kept := self.cut_note(message, rows, keys)):
            self.overflow = message
            return kept
        for fewer in range(rows):
            shown, self.overflow = fit_message(message, self.con.width, rows - fewer)
            joined = f"{shown} {keys}".strip()
            if len(wrap(joined, width)) <= rows:
                return joined
        return keys

    def roomiest(self, forms: tuple[str, str, str]) -> str:
        """Of a message whole and its later part alone (see shorter), the whole where the board's
        lines hold it at this width, else the part."""
        whole, part, measure = forms
        return part if self.cut(measure) else whole

    def cut(self, message: str, help: str | None = None) -> bool:
        """Whether the board's lines would cut `message` (with the notes that go with it), over
        `help` or the help it shows now."""
        return bool(fit_message(self.with_notes(message), self.con.width, self.room(help))[1])

    def room(self, help: str | None = None) -> int:
        """The message's lines on the board as drawn over `help`, or over the help it shows now."""
        if help is None:
            help = PRESS_A_KEY if self.held else self.help_line()
        return message_rows(help, self.con.width)

    def fitted(self, message: str, help: str) -> str:
        """The message as the board's lines hold it over `help` (three, more where the help leaves
        rows free); a longer one (a note with a result, or on a narrow screen) is cut between words
        and says where the rest is: the ? page."""
        rows = self.room(help)
        shown, self.overflow = fit_message(message, self.con.width, rows)
        return (self.cut_note(message, rows) if self.overflow else None) or shown

    def cut_note(self, message: str, rows: int, after: str = "") -> str | None:
        """`message` in `rows` (with `after` following it) where a note before a question or a
        held result is what gives way, not what follows it; None where that does not fit either.
        'Drop the double and... (? shows all)' under a long note at 40 columns had cut the points
        at stake and the default, and a drop's long note had left who won and the score to ?."""
        question = self.message if self.message.endswith("(Y/N) [N]") else ""
        keep = question or (self.result_words if self.held else "")
        at = message.rfind(keep) if keep else -1
        if at <= 0 or (question and not message.endswith(f" {question}")):
            return None
        tail = f"{message[at:]} {after}".rstrip()
        width = min(80, self.con.width) - 2
        kept = shorten(message[:at].rstrip(), width, rows, f"{MORE} {tail}", f" {tail}")
        return kept if len(wrap(kept, width)) <= rows else None

    def with_notes(self, message: str) -> str:
        """The message line, and the opponent's note with their last turn, or the one about to go."""
        if message.startswith(POSITION_ID):
            return message  # the IDs, to copy, alone: a note after them had read as part of them
        if self.pending_note and f'"{self.pending_note}"' in message:
            return message  # said with it ('Your note goes with what you do next: "..."')
        if self.pending_note:
            # Not 'Your note: ...', the news's words for a note that went: after 'In another
            # session, you ... played 13/7 9/6.' it had read as gone with a play it never went with.
            extra = note_words("Your", self.pending_note, "note, not yet sent")
        elif self.their_note is not None and self.their_note.text not in message:
            # Told in the news once; after that it stays on the board until this player answers.
            extra = note_words(f"{self.their_note.by}'s", self.their_note.text)
        else:
            return message
        if message.endswith("(Y/N) [N]"):
            return f"{extra} {message}"  # the question last, where its answer goes
        return f"{message} {extra}" if message else extra

    def who(self, colour: Color) -> str:
        """'You' to the player of that colour (the panel speaks to them: 'Your turn'), else the name."""
        assert self.view is not None
        return "You" if colour is self.me else self.view.name(colour)

    def status_text(self) -> str | None:
        """The panel's line for whose turn it is, where 'Your turn' would not be true (names whole:
        the panel wraps them)."""
        v = self.view
        assert v is not None
        st = v.state
        if v.status == "open":
            return "Waiting for a player"
        if st.over:
            return f"{self.who(st.winner)} won the match" if st.winner else "Match over"
        if st.phase is Phase.OPENING:
            return "Opening roll"
        if st.phase is Phase.DOUBLED and st.turn is not None:
            mine = self.me is not None and st.actor is self.me
            return "Your answer" if mine else f"{v.name(st.turn.other)} to answer"
        if st.phase is Phase.RESIGNED and st.actor is not None:
            return "Your answer" if st.actor is self.me else f"{v.name(st.actor)} to answer"
        return None

    # ------------------------------------------------------------ moving

    async def do_cursor(self, key: Key) -> None:
        viewer = self.me or Color.WHITE
        moved = self.con.move_cursor(self.cursor, key.name, viewer)
        if moved == self.cursor:
            # The board's own end: the key had done nothing, and nothing said so.
            self.message = self.with_roll_left(
                f"The cursor is at the end of the board: it stays {self.cursor_at()}. {self.still_in_hand()}".strip())
            return
        if not self.con.in_sight(moved, viewer):
            # Past a narrow screen's edge the cursor would be out of sight (and draw() would
            # put it back on a marked point, as if it had wrapped round): it stays, and says why.
            where = "The tray is" if moved == "off" else f"Point {moved} is"
            # R)emove offered only where it bears off now (at 50 columns early in a game it had
            # been offered, then refused: checkers outside home).
            can_bear = "bear_off" not in self.unavailable(self.state())
            bear = " R)emove bears off," if moved == "off" and can_bear else ""
            # Where the cursor stays, said: Enter then put a checker down there, which read as if
            # the cursor had gone on to the point out of sight.
            # And the checker in hand, still said: the only sign of it had been the mark.
            said = f"{where} past your screen's edge; the cursor stays {self.cursor_at()}.{bear} M)ove typed plays " \
                "from or to it."
            self.message = self.with_roll_left(f"{said} {self.still_in_hand()}".strip())
            return
        self.cursor = moved
        # Said while the checker is carried: one cursor key had left the line blank, the checker
        # drawn on the point under the cursor the only sign of it.
        self.message = self.still_in_hand()

    def cursor_at(self) -> str:
        """Where the cursor is, in words: 'on 13', 'on the bar', 'on the tray'."""
        return {"bar": "on the bar", "off": "on the tray"}.get(str(self.cursor), f"on {self.cursor}")

    async def do_undo(self, key: Key) -> None:
        turn = self.turn
        if turn is None:
            return
        if self.hand is not None:
            self.hand = None
            self.message = self.with_roll_left("The checker is back.")
        elif turn.moves:
            # The drop made last, as the player made it: a checker moved 24 to 13 in one drop
            # went back to 18 only, though the screen said 'Move taken back.'
            for _ in range(self.synced_drops(turn).pop()):
                turn.undo()
            # What is left to play, as after a move: at 40 columns the panel saying it is cut
            # off, and so is a die.
            if turn.moves:
                left = self.left_to_play()
                self.message = f"Move taken back; {left}." if left else "Move taken back."
            else:
                self.message = f"Move taken back; {roll_text(turn.dice)} to play."

    async def do_bear_off(self, key: Key) -> None:
        turn = self.turn
        if turn is None:
            return
        if self.hand is None and self.cursor == "off":
            # The rules' 'checkers move from a point (or the bar) to a lower point, or off'
            # told a player who had offered R there nothing they could do.
            self.message = "Put the cursor on a checker to bear it off; the tray is where it goes."
            return
        src = self.hand if self.hand is not None else _loc_to_point(self.cursor)
        self.hand = None
        self.dropped(turn, lambda: turn.move(src, 0))
        self.after_move()

    async def do_commit(self, key: Key) -> None:
        await self.commit()

    async def do_pass_turn(self, key: Key) -> None:
        await self.commit()

    def still_in_hand(self) -> str:
        """What says a checker is in hand, after something else took the line that said so (M)ove
        typed, N)ote, G)ive up, left with Esc); '' with none in hand."""
        if self.hand is None or self.turn is None:
            return ""
        return self.in_hand_said(self.turn.destinations(self.hand), self.me or Color.WHITE)

    def in_hand_said(self, dests: list[int], viewer: Color) -> str:
        """Where the checker in hand can go, the marks past a narrow screen's edge named."""
        hidden = sorted((p for p in dests if not self.con.in_sight(_point_to_loc(p), viewer)), reverse=True)
        where = " or ".join("the tray" if p == 0 else f"point {p}" for p in hidden)
        if len(hidden) == len(dests):
            # Every mark past a narrow screen's edge: 'move to a marked point' over none.
            bear = " R)emove bears it off," if 0 in dests else ""
            return (f"Checker in hand: it can go only to {where}, past the {self.con.width} "
                    f"columns your screen shows:{bear} M)ove typed plays it.")
        if hidden:
            # Some past it (from the bar at 40 columns, 24 unmarked beside a marked 21).
            how = "R)emove or M)ove typed" if 0 in hidden else "M)ove typed"
            return (f"Checker in hand: move to a marked point, Enter puts it down (or to {where}, "
                    f"past your {self.con.width} columns: {how}).")
        return "Checker in hand: move to a marked point, Enter puts it down."

    async def do_pick(self, key: Key) -> None:
        turn = self.turn
        if turn is None:
            return
        point = _loc_to_point(self.cursor)
        if self.hand is None:
            if point in turn.sources():
                self.hand = point
                dests = turn.destinations(point)
                viewer = self.me or Color.WHITE
                if not dests:
                    self.hand = None
                    self.message = self.with_roll_left("That checker has nowhere to go.")
                    return
                self.message = self.in_hand_said(dests, viewer)
            else:
                mine = turn.position.player
                if point != 25 and mine[24]:
                    self.message = self.with_roll_left(
                        "Your checker on the bar must come in first: pick it up from the bar.")
                elif point == 0:
                    self.message = self.with_roll_left(
                        "The tray holds checkers borne off: pick one up on a marked point.")
                elif 1 <= point <= 24 and mine[point - 1]:
                    self.message = self.with_roll_left(
                        "Those checkers cannot move with this roll; the marked points can.")
                else:
                    self.message = self.with_roll_left(
                        "No checker of yours can move from there; the marked points can.")
            return
        if point == self.hand:
            self.hand = None
            self.message = self.with_roll_left("The checker is back.")  # as U says it
            return
        hand = self.hand
        try:
            self.dropped(turn, lambda: turn.move(hand, point))
        except IllegalPlay as exc:
            # The checker stays in hand: the player puts it on a marked point instead.
            self.message = self.with_roll_left(
                f"{sentence(str(exc))} Put it down on a marked point, or U puts it back.")
            return
        self.hand = None
        self.after_move()

    def synced_drops(self, turn: Turn) -> list[int]:
        """The drops that made the turn's moves; moves made otherwise (a forced play, a turn
        begun afresh) count as a drop each."""
        if sum(self.drops) != len(turn.moves):
            self.drops = [1] * len(turn.moves)
        return self.drops

    def dropped(self, turn: Turn, move: Callable[[], object]) -> None:
        """Make one drop's move and remember how many single-die moves it took."""
        self.synced_drops(turn)
        before = len(turn.moves)
        move()
        self.drops.append(len(turn.moves) - before)

    def left_to_play(self) -> str:
        """What is left of the roll ('the 1 to play', 'two 3s to play'); '' once the play is
        complete, a die it cannot use included."""
        turn = self.turn
        if turn is None or turn.is_complete:
            return ""
        return to_play(turn.dice, turn.remaining_dice)

    def after_move(self) -> None:
        turn = self.turn
        if turn is not None and turn.is_complete and turn.play is not None:
            # A die the rules leave unplayed, said: a forced entry made by hand had read as if the
            # whole roll were played.
            said = " ".join(part for part in (f"Your play: {turn.play}.", unplayable(turn)) if part)
            self.message = f"{said} Enter commits it, U)ndo takes back."
        elif turn is not None and turn.moves:
            # Said here too: the panel's line is cut off at 40 columns.
            left = self.left_to_play()
            # The whole of the last drop: one checker moved 13/10/7* by two dice had been
            # told as 'Moved 10/7*', and 2/1/off by R as 'Moved 1/off'.
            last = self.synced_drops(turn)[-1] or 1
            self.message = f"Moved {notation(turn.moves[-last:])}{'; ' + left if left else ''}."

    async def commit(self) -> None:
        turn = self.turn
        assert turn is not None and self.view is not None
        play = "" if turn.no_play or turn.play is None else turn.play.position.id
        # Said as a typed play is: 'Turn sent.' alone for the cursor's, the play for a typed one.
        done = f"You pass: no move with {roll_text(turn.dice)}." if turn.no_play else \
            f"Turn sent: {turn.play}." if turn.play is not None else "Turn sent."
        await self.send_turn(play, [(m.src, m.dst) for m in turn.moves], done)

    async def do_typed_play(self, key: Key) -> None:
        assert self.view is not None
        # The moves made with the cursor begin the line: the typed play is the whole play, and a
        # player who moved one checker goes on typing the rest rather than lose it unawares.
        made = notation(self.turn.moves) if self.turn is not None and self.turn.moves else ""
        # On a narrow screen the roll left first: the second die is past the edge.
        left = self.with_roll_left('').strip()
        if made:
            # Made by the player, or the only play, made for them ('made so far' said it was theirs).
            self.message = self.over_field(
                f"{left} Your play, the moves on the board so far first (like 24/18 13/11); Enter sends, Esc cancels:",
                f"{left} Your play, the moves so far first; Enter sends, Esc cancels:")
        else:
            self.message = f"{left} Your play (like 24/18 13/11), Enter sends, Esc cancels:".strip()
        typed = f"{made} " if made else ""
        back, self.typed_back = self.typed_back, None
        replace_from: int | None = None
        if back is not None and self.turn is not None and (back.start, back.dice, back.made) == (
                self.turn.start, self.turn.dice, made):
            # Refused (Backspace puts it right; typed anew, what followed the moves on the board
            # is replaced), or closed by an offer to resign refused since (typing goes on): the
            # line as it stood.
            replace_from = len(typed) if back.refused else None
            typed = back.text
            if back.refused:
                # Said: a key typed at the line's end had wiped it unawares ('13/8' with ' 13/10'
                # typed to finish it left ' 13/10').
                first = ", the moves on the board so far first" if made else ""
                anew = "the rest typed anew replaces what follows them" if made else "a new one typed replaces it"
                # At 40 columns the whole of it took a fourth row, the typed line's: 'Esc' had
                # ended it, 'cancels' never shown.
                self.message = self.over_field(
                    f"{left} Your play as typed{first}: Backspace puts it right, {anew}; Enter sends, Esc cancels:",
                    f"{left} Your play as typed: Backspace puts it right; Enter sends, Esc cancels:",
                    f"{left} Your play as typed; Enter sends, Esc cancels:")
        kept = False  # a wake for something else while typing: the board's, after
        while True:
            # The prompt alone: with the opponent's note after it, the note read as the answer.
            # On a screen too short for the row typed in (under 22 lines), the last row, and the
            # prompt over it: both had been below the screen's bottom, typed into unseen.
            row = min(HELP_ROW, self.con.height)
            self.draw(note=self.message, help_text="", last_row=row - 1 if row < HELP_ROW else 0)

            def full(refused: bool, row: int = row) -> None:
                # Past the 40th character only the bell had rung; said on the row under, or on a
                # short screen over the prompt's last line (drawn again after a backspace).
                said = row + 1 if row < self.con.height else row - 1
                if refused:
                    # In fewer words where the sentence does not fit: cut, it had read 'characte~'.
                    words = (f"A typed play has at most {PLAY_LENGTH} characters.",
                             f"At most {PLAY_LENGTH} characters.")
                    why = first_fitting(words, self.con.width - 3, words[-1])
                    self.con.put(said, 2, " " * (self.con.width - 2))
                    self.con.put(said, 2, fit(why, self.con.width - 3), "error")
                elif said > row:
                    self.con.put(said, 2, " " * (self.con.width - 2))
                else:
                    self.draw(note=self.message, help_text="", last_row=row - 1)

            try:
                text = await self.con.line(row, 2, PLAY_LENGTH, initial=typed, wake=True, any_wake=True, full=full,
                                           replace_from=replace_from)
            except Woken as woken:
                replace_from = replace_from if woken.text == typed else None
                typed = woken.text  # the window changed size: the board and the prompt again
                if self.view is not None and self.rt.version(self.game_id) != self.view.version:
                    # The game moved on (the turn played in the player's other session): typing
                    # ends, with what happened, where the line had stood until Enter; what is
                    # typed on a moment is the line's, not the board's keys.
                    roll = (self.turn.start, self.turn.dice) if self.turn is not None else None
                    await self.on_change()
                    if typed.strip() and typed.strip() != made:
                        self.not_sent(typed)
                        if roll is not None and self.state() is State.RESIGN_TO_ME:
                            # The play goes on if the offer is refused: the line is kept for it (it
                            # had been lost, where a note being typed stays open over the offer).
                            self.typed_back = KeptPlay(*roll, made, typed, refused=False)
                            self.message = f"{self.message[:-1]}: M brings it back if play goes on."
                    self.moot_until, self.moot_field = time.monotonic() + MOOT_ANSWER, "your typed play"
                    return
                kept = kept or (self.con.width, self.con.height) == self.drawn_at
                continue
            break
        if kept:
            self.con.wake()
        self.message = ""
        if text is None or not text.strip():
            # Moves made before M are still on the board: 'No play typed' read as if they were gone.
            # Esc after a play typed cancels it (it had said 'No play typed.'); on a narrow screen
            # the roll first, as after a note.
            said = "Typing cancelled: your moves are as they were." if made else \
                "Typing cancelled." if text is None else "No play typed."
            # The checker picked up before M is still in hand: the line that said so had gone.
            self.message = " ".join([self.own_roll_short(), said, self.still_in_hand()]).strip()
            return
        try:
            # The play as read, hits marked: 'Turn sent.' alone had not told the player typing
            # '13/11 6/5' that it hit (the opponent's board said '6/5*').
            read = str(parse_play(self.turn.start, self.turn.dice, text)) if self.turn is not None else ""
        except IllegalPlay:
            read = ""  # the service says why
        try:
            await self.send_turn(text.strip(), done=f"Turn sent: {read}." if read else "Turn sent.")
        except GameChanged:
            if not await self.moved_on():
                raise
            # What moved it on is told (the same turn played in the player's other session); and
            # that the play typed here did not go.
            self.not_sent(text)
        except IllegalAction as exc:
            if not made or not text.startswith(made) or not text[len(made):].strip():
                self.keep_refused(made, text)
                self.message = f"{self.with_roll_left(sentence(str(exc)))} M brings the line back to put right."
                return
            # The whole play typed over the moves the line began with read 'too many moves for
            # the roll' with the line gone: say what was in it before the typing.
            turn = self.turn
            if turn is not None and turn.is_complete:
                # Why not is the roll, played already by the moves the line began with: 'and you
                # have 4-2 to play' read as if it were still to play.
                self.message = (f"Too many moves: the line began with the moves on the board, {made}, "
                                "which play the whole roll. Enter alone commits them.")
                return
            # Why, said of the dice left: the whole line's reason counted the moves the line began
            # with ('four 6s to play' beside the panel's three).
            rest = text[len(made):]
            why = sentence((turn.refusal_after(rest) if turn is not None else None) or str(exc))
            if turn is None or not self.plays_alone(turn, rest):
                self.keep_refused(made, text)
                self.message = f"{why} M brings the line back to put right."
                return
            # The whole play typed again after the moves the line began with (it is a play by
            # itself): only then is that the mistake.  ('..., bar/10*: M and the rest of the
            # play.' did not read as a sentence.)
            self.message = (f"{why} The line began with the moves on the board ({made}): "
                            "press M again and type only the rest.")

    def over_field(self, *forms: str) -> str:
        """The first of `forms` whose lines all show over a typed field at this width (three
        rows), else the last; each stripped (an empty roll before it)."""
        width = min(80, self.con.width) - 2
        return next((f.strip() for f in forms if len(wrap(f.strip(), width)) <= 3), forms[-1].strip())

    def keep_refused(self, made: str, text: str) -> None:
        """A typed play refused, kept for M to put right: the whole line had to be typed again."""
        if self.turn is not None:
            self.typed_back = KeptPlay(self.turn.start, self.turn.dice, made, text, refused=True)

    @staticmethod
    def plays_alone(turn: Turn, text: str) -> bool:
        """Whether `text` is a legal play of the whole roll by itself, from the turn's start."""
        try:
            parse_play(turn.start, turn.dice, text)
        except IllegalPlay:
            return False
        return True

    def not_sent(self, typed: str) -> None:
        """Said after the news of what moved the game on: the play typed here did not go."""
        self.message = f"{self.message} Your typed play ({typed.strip()}) was not sent.".strip()

    async def send_turn(self, play: str, path: Sequence[tuple[int, int]] = (), done: str = "Turn sent.") -> None:
        """The play, and its moves as made (see Service.submit_turn), for the opponent's V)iew last.
        Its order, typed, is its notation's (the service reads it)."""
        await self.act_noted(lambda p, g, v, n: self.svc.submit_turn(p, g, v, play, n, path), done)
        await self.tell_waiting_elsewhere()

    async def tell_waiting_elsewhere(self) -> None:
        """The player's other games waiting for them, said after their turn here is sent: the
        board had said 'Turn sent' alone with another game waiting, and only Q showed it."""
        v = self.view
        if self.held or self.me is None or v is None or v.my_turn or v.state.over:
            return
        await self.waiting_elsewhere()
        # With a result there since the last look: told now, before the notice (it had waited for
        # the next change to come).
        ended, self.results_elsewhere = self.results_elsewhere, []
        waiting = sorted(self.elsewhere or ())
        if not waiting and not ended:
            return
        self.keep_said()
        if waiting:
            self.told_elsewhere = waiting
        self.tell([*ended, *([NewsLine(0, self.elsewhere_notice())] if waiting else [])])

    async def act_noted(self, method: Callable[[int, int, int, str | None], Awaitable[GameView]], done: str) -> None:
        """Something the player does that a note may go with: the note written goes with it, and
        the opponent's note, now answered, leaves the board."""
        note = self.pending_note
        if note and done:
            done += NOTE_WENT  # the board no longer shows it: said where it went

        async def answered(p: int, g: int, v: int) -> GameView:
            view = await method(p, g, v, note)
            # Answered: the note leaves before what follows is laid out.  Still counted, it had
            # left no room at 40 columns for 'You drop the double.' before the result.
            self.their_note = None
            return view

        await self.act(answered, done)
        if note and done and self.held and not self.message.endswith(NOTE_WENT) and "Your note" not in self.result:
            # An answer that ended the game (a drop): the result takes the message lines, and
            # had said nothing of the note.
            self.result = f"{self.result}{NOTE_WENT}"
            self.message = self.result_and(self.after_result)
        self.pending_note = None
        self.their_note = None

    async def do_write_note(self, key: Key) -> None:
        """A note of up to NOTE_LENGTH characters for the opponent, sent with this turn."""
        text = self.pending_note or ""
        self.asked_news = ""  # of a question asked before (see question_key)
        try:
            await self._write_note(text)
        finally:
            self.con.text_cursor(None)

    async def _write_note(self, text: str) -> None:
        full = False  # a character was typed past NOTE_LENGTH: said, not dropped unseen
        rang = False
        news = ""  # what the opponent did while the note was typed, said over the field
        strange = ""  # a character typed that not every terminal can show, left out
        untyped = ""  # a key that types nothing (an arrow, Tab, F1), named
        # What the lines said as N was pressed (not a refusal): it stays after the field closes,
        # where it fits ('No note written.' had taken the place of 'fred starts with 6-4.').
        # (What an earlier note's field left there, and the checker in hand, said anew below, go.)
        before = _NOTE_SAID.sub("", self.said_before)
        if self.still_in_hand():
            before = before.replace(self.still_in_hand(), "")
        before = " ".join(before.split())
        while True:
            full = full or len(text) >= NOTE_LENGTH  # the 140th typed: full already, not 'Type the note.'
            head = f"The note is full ({NOTE_LENGTH} characters)." if full else \
                f"{strange} is left out: not every terminal can show it." if strange else \
                f"{untyped} nothing while you type the note." if untyped else ""
            strange = untyped = ""
            prompt = f"Note to your opponent ({len(text)}/{NOTE_LENGTH}; Enter keeps it, Esc cancels): "
            if news:
                # The news before the field, cut where it would leave the note no room (Enter
                # says it whole): the field stays open, the keys typed on are the note's.
                field, room_for_typing = f"Note ({len(text)}/{NOTE_LENGTH}; Enter keeps it, Esc cancels): ", "x" * 20
                fitted = shorten(news, min(80, self.con.width) - 2, 3, f"... {field}{room_for_typing}",
                                 f" {field}{room_for_typing}")
                prompt = fitted[: -len(room_for_typing)]
            # Wider than a row of the keys' line, it is left out there (at 40 columns 'The arrow
            # keys do nothing ...' was, and only the bell said anything): over the field instead.
            wide = len(head) > min(80, self.con.width) - 2
            if head and (last_text_row(self.con.height) or wide):
                # Under 22 lines the keys' line, which says it, is below the screen: at 80x20 the
                # keys typed into a full note were taken without a word.
                prompt = f"{head} {prompt}"
            # The message has three lines at most: on a narrow screen the end of the note shows.
            room = 3 * (self.con.width - 3) - len(prompt) - 2
            cut = 0 if len(text) <= room else len(text) - room + 3
            width = min(80, self.con.width) - 2
            # A run with no space wraps whole onto a line of its own: cut on until the end, and the
            # cursor after it, are on the three lines (at 40 columns the end had gone under the help).
            while cut < len(text) and len(wrap(f"{prompt}{'...' if cut else ''}{text[cut:]}_", width)) > 3:
                cut += 1 if cut else 4
            shown = f"...{text[cut:]}" if cut else text
            # Typed keys go into the note: the help line says so, not the state's keys.
            note = prompt + shown + "_"
            first = head if head and not wide else "Type the note."
            self.draw(note=note, help_text=f"{first}  Enter keeps it  Esc cancels  Backspace erases")
            # The terminal's cursor on the '_' where the next character goes, as in other typed fields
            # (on a short screen over the board's foot, as the note is drawn).
            lines = wrap(note, min(80, self.con.width) - 2)[:3]
            top = message_top(len(lines), last_text_row(self.con.height))
            self.con.text_cursor((top + len(lines) - 1, 1 + len(lines[-1])))
            await self.con.show()
            try:
                key = await self.question_key()
            except Hangup:
                # Kept with the moves as a draft (keep_draft), as a note kept with Enter is: a note
                # half typed when the line dropped or the time ran out had been lost without a word.
                self.pending_note = text.strip() or self.pending_note
                raise
            except Superseded:
                if not self.held and self.state() in NOTED_STATES:
                    # The opponent offered to resign while the note was typed: told over the field,
                    # which stays open.  It had closed, and the words typed on were taken as the
                    # board's keys ('okay': A asked to accept, Y accepted), the half-typed note sent
                    # with that answer though Enter was never pressed, and Esc left the game.
                    news = self.message
                    continue
                # The game went where no note goes with anything (a result, the player's other
                # session played): told at once, the note kept, not sent (the board says so beside
                # the news).  What is typed on a moment is taken as the note's.
                self.pending_note = text.strip() or self.pending_note
                self.moot_field = "the note"
                raise
            if key is WAKE:
                if self.asked_news:
                    news, self.asked_news = self.asked_news, ""  # said over the field, as other news is
                continue  # drawn again for the new size
            full = False
            if key.name in ("esc", "enter"):
                if key.name == "esc":
                    # 'No note changed' of a note never written had read as if one were kept.
                    said = "No note changed." if self.pending_note else "No note written."
                else:
                    self.pending_note = text.strip() or None
                    # The note in the same sentence: the lines' 'Your note, not yet sent: ...' after
                    # it had said 'Your note' twice.
                    said = note_words("Your", self.pending_note, "note goes with what you do next") \
                        if self.pending_note else "No note goes with this turn."
                # On a narrow screen the roll first: the panel, and at 40 columns a die, are past
                # the edge, and the line had said only the note until the next key.
                lead = self.own_roll_short()
                if news:
                    lead = news  # said whole now, where the field had cut it
                elif self.view is not None and self.view.state.phase in (Phase.DOUBLED, Phase.RESIGNED):
                    # The offer the note goes with, said again: the field had taken its place, and
                    # after it only the panel said a double waited.
                    lead = self.pending_offer()
                elif not lead and before and not self.cut(f"{before} {said} {self.still_in_hand()}"):
                    lead = before
                self.message = " ".join([lead, said, self.still_in_hand()]).strip()
                return
            if key.name == "backspace":
                text = text[:-1]
            elif (said_key := untyped_said(key)) is not None:
                # It had done nothing without a word.
                untyped = said_key
                self.con.bell("error")
            elif key.char and key.char.isprintable() and not shown_everywhere(key.char):
                # A CP437 opponent had read '?' for it, and the writer was not told.
                strange = key.char
                self.con.bell("error")
            elif key.char and key.char.isprintable():
                if len(text) >= NOTE_LENGTH and not rang:
                    self.con.bell("error")  # as a full field rings: once for a paste that runs on
                rang = full = len(text) >= NOTE_LENGTH
                text = text if full else text + key.char

