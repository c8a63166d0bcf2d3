"""What the service layer hands to the UI and transports: plain values and typed errors.

Nothing here is an ORM object; the UI never sees a database session.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from bgdoor.rules.game import Color, Event, MatchState
from bgdoor.rules.moves import Move

# -------------------------------------------------------------------- errors


class ServiceError(Exception):
    """Base of every error a caller may be shown; str(error) is a readable sentence."""


class NotFound(ServiceError):
    pass


class AccountClosed(NotFound):
    """The player acting was deleted by the sysop (their row gone, or kept under "(deleted)"
    for the record) while a session of theirs was still on."""


class BadHandle(ServiceError):
    pass


class BadPassword(BadHandle):
    """A password that will not do (too short, too long, control characters)."""


class HandleTaken(ServiceError):
    pass


class LoginFailed(ServiceError):
    pass


class NotYourTurn(ServiceError):
    pass


class IllegalAction(ServiceError):
    """The rules refuse it (wraps RuleError / IllegalPlay), or the game is finished."""


class GameChanged(ServiceError):
    """Someone else acted on this game first; reload and look again."""


class StorageError(ServiceError):
    """The database is busy, locked, read-only or full; nothing was changed."""


class BBSSuspended(ServiceError):
    """The sysop has suspended the member BBS a caller comes from."""


# -------------------------------------------------------------------- values


@dataclass(frozen=True)
class Preferences:
    sound: bool = True
    theme: str = "classic"
    charset: str | None = None  # "cp437", "utf8", "ascii", or None to detect
    orientation: str = "own"  # "own" or "table" (Black's home at the bottom left, as in the seed figure)
    notes: bool = True  # notes from opponents are shown


@dataclass(frozen=True)
class PlayerInfo:
    id: int
    handle: str
    is_bot: bool
    has_password: bool
    rating: float
    experience: int
    preferences: Preferences
    created: datetime
    last_seen: datetime | None
    # Who the player is (see store.models.Player): "telnet", "door" or "bbs"; the remote BBS's
    # tag ('' unless "bbs"); the handle as registered, or the BBS alias exactly as received.
    origin: str = "telnet"
    bbs_tag: str = ""
    login_name: str = ""
    first_visit: bool = False  # the player was made just now
    # Set when the handle is not what the caller is called elsewhere (or was carried over):
    # one sentence the screen shows, so nobody is merged or renamed without being told.
    handle_note: str = ""


@dataclass(frozen=True)
class GameSummary:
    id: int
    status: str  # "open", "active", "finished", "abandoned"
    length: int
    white: str | None  # handle, None for an open seat
    black: str | None
    score: tuple[int, int]  # white, black
    turn: str | None  # handle of whoever must act next
    updated: datetime
    version: int
    opening: bool = False  # both seated, and the opening roll is either player's to make
    offer: bool = False  # what the player to act must do is answer a double or a resignation
    winner_id: int | None = None  # the player who won the match, once it is over
    turn_id: int | None = None  # the player who must act next (as `turn` names them)

    def waits_for(self, name: str | None) -> bool:
        """Is `name` the player the game waits for?  Either of them, for its opening roll."""
        return name is not None and (name == self.turn or self.opening)

    def mark(self, name: str | None) -> str:
        """A list's mark before `name`: '?' for an offer to answer, '*' for a turn, else ''."""
        return ("?" if self.offer else "*") if self.waits_for(name) else ""


@dataclass(frozen=True)
class GameView:
    """One game as a given viewer sees it (viewer None: a watcher)."""

    id: int
    status: str
    version: int
    white: str | None
    black: str | None
    white_id: int | None
    black_id: int | None
    state: MatchState
    viewer_color: Color | None
    updated: datetime
    created: datetime | None = None  # when the game was begun (None where not read)

    @property
    def my_turn(self) -> bool:
        return self.viewer_color is not None and self.state.actor is self.viewer_color

    def name(self, color: Color) -> str:
        return (self.white if color is Color.WHITE else self.black) or "(open seat)"


@dataclass(frozen=True)
class GameNotice:
    """What became of a game of the player's that left no record to read, or of the player's
    handle (see store's Notice)."""

    id: int
    # "withdrawn" (by `other`, before its first roll), "removed" (by the sysop), "renamed" (by the
    # sysop, from `other`; game 0), "opponent_renamed" (by the sysop, from `other` to `now`)
    kind: str
    game_id: int
    length: int
    other: str  # the other player's handle; "" for a game nobody else had sat down in
    now: str = ""  # opponent_renamed: the opponent's name now


@dataclass(frozen=True)
class LastTurn:
    """The opponent's last turn, for View Last Moves: start position, dice and single moves."""

    by: Color
    dice: tuple[int, int]
    before: MatchState
    moves: tuple[Move, ...]
    notation: str
    when: datetime
    note: str | None = None  # the mover's note to the opponent
    seq: int = -1  # the play's event in the record: what the player did after it follows


@dataclass(frozen=True)
class RankRow:
    rank: int
    handle: str
    rating: float
    wins: int
    losses: int
    experience: int
    gammons: int
    last_played: datetime | None
    is_bot: bool = False
    board: str = ""  # the member BBS's tag; "" for this system's own players


@dataclass(frozen=True)
class PlayerPage:
    player: PlayerInfo
    games: int
    wins: int
    losses: int
    gammons: int
    backgammons: int
    rating_history: list[tuple[datetime, float]] = field(default_factory=list)  # from the start rating on


@dataclass(frozen=True)
class LoggedEvent:
    """One entry of a game's record, as the rules know it."""

    seq: int
    event: Event
    player_id: int | None  # who acted; None for the system (a forfeit for time)
    when: datetime
    note: str | None = None  # the mover's note to the opponent, with a play


@dataclass(frozen=True)
class MatchRating:
    handle: str
    before: float
    after: float


@dataclass(frozen=True)
class GameLog:
    """A game's whole record, for news and review, with how far the viewer has read it."""

    game: GameView
    creator_id: int
    events: tuple[LoggedEvent, ...]
    read_upto: int  # events with seq >= this are news to the viewer; -1: the seating is news too
    ratings: tuple[MatchRating, ...]  # what the finished match did to each player's rating


@dataclass(frozen=True)
class Unread:
    """A game of the player's with news: events from `since` on that someone else caused."""

    game_id: int
    since: int
    event_count: int


@dataclass(frozen=True)
class TurnNote:
    """A note an opponent left with a turn."""

    game_id: int
    seq: int  # the turn's event: tells one note from the next
    by: str  # the writer's name as lists show it
    text: str
    when: datetime


@dataclass(frozen=True)
class Draft:
    """What a player left unsent in a game: the moves of a turn half played (for the game at
    `version` only: any change to the game makes them stale) and a note."""

    version: int | None
    moves: tuple[tuple[int, int], ...]  # (from, to) points; 25 the bar, 0 off
    note: str | None


# What a caller on one of the menu's pages is doing, as W)ho says it.
PAGES = {
    "games": "looking at the games",
    "matches": "looking at past matches",
    "news": "reading the news",
    "instructions": "reading the instructions",
    "ranks": "looking at the ranks",
    "options": "choosing options",
    "who": "looking at who's online",
    "beginning": "beginning a game",
    "arriving": "just logged in",  # reading a first visit's notice, not yet at the menu
    "leaving": "saying goodbye",  # on the goodbye screen, a door's for a few seconds
}


@dataclass(frozen=True)
class OnlineRow:
    """A caller connected now, in any process."""

    name: str
    board: str  # member BBS tag, "" for this system's own callers
    activity: str  # "menu", "playing", "waiting" (for a player), "watching", "looking" (at a game over), ...
    game_id: int | None
    since: datetime

    def doing(self) -> str:
        """What W)ho says the caller is doing: at most 24 columns and a game's number, so that it
        fits beside 'here' on a 40-column screen."""
        if self.activity == "playing" and self.game_id is not None:
            return f"playing game #{self.game_id}"
        if self.activity == "waiting" and self.game_id is not None:
            return f"waiting for a player in game #{self.game_id}"
        if self.activity == "watching" and self.game_id is not None:
            return f"watching game #{self.game_id}"
        if self.activity == "looking" and self.game_id is not None:
            return f"looking at finished game #{self.game_id}"
        if self.activity == "reviewing" and self.game_id is not None:
            return f"reviewing game #{self.game_id}"
        return PAGES.get(self.activity, "at the menu")

