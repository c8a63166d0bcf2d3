"""The operations callers perform, each one transaction.

Contract for the UI and transports.  Every method either returns the values
of service.types or raises a ServiceError subclass; none returns ORM objects.
Methods that change a game take `version`, the GameView.version the caller
last saw, and raise GameChanged when the game has moved on since.

How it keeps its promises:
- every change to a game is one transaction that appends its events and
  bumps games.version with UPDATE ... WHERE version = <the version read>, so
  of two writers racing on one game exactly one wins (GameChanged for the other);
- on SQLite, writes BEGIN IMMEDIATE (see store.db) and a busy database is
  retried with backoff; what still fails becomes StorageError, never a raw
  driver error, and nothing was changed;
- dice are drawn inside the transaction that records them, so they are on disk
  before any caller sees them, and the rules refuse a second roll.
"""

from __future__ import annotations

import logging
import random
import re
import secrets
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import and_, delete, exc, func, insert, or_, select, text, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from bgdoor import letters
from bgdoor.rules import game as rules
from bgdoor.rules.dice import DiceSource, SystemDice
from bgdoor.rules.game import Color, Event, MatchState, Phase, RuleError, Win
from bgdoor.rules.moves import Move, legal_plays
from bgdoor.rules.rating import START_RATING, rating_change
from bgdoor.rules.turn import as_played, in_notation_order, written_hops
from bgdoor.service import feed, passwords
from bgdoor.service.league import LeagueOps
from bgdoor.service.plays import find_play
from bgdoor.service.types import (
    AccountClosed,
    BadHandle,
    BadPassword,
    GameChanged,
    GameLog,
    GameNotice,
    GameSummary,
    GameView,
    HandleTaken,
    IllegalAction,
    LastTurn,
    LoggedEvent,
    LoginFailed,
    MatchRating,
    NotFound,
    NotYourTurn,
    PlayerInfo,
    PlayerPage,
    Preferences,
    RankRow,
    ServiceError,
    StorageError,
    Unread,
)
from bgdoor.store import db, handles
from bgdoor.store.models import EVENTS, GAMES, Game, GameEvent, Notice, Player, RatingEntry, ReadMark
from bgdoor.store.snapshot import state_from_dict, state_to_dict

T = TypeVar("T")

# A deleted player kept for the record (service.sysop): its handle_key starts with a control
# character, so no handle casefolds to it, no handle is blocked by it, nobody logs in as it.
DELETED_KEY = "\x01deleted:"

log = logging.getLogger("bgdoor.service")

OPEN, ACTIVE, FINISHED, ABANDONED = "open", "active", "finished", "abandoned"
OVER = (FINISHED, ABANDONED)

# Retries on a busy database, on top of SQLite's own busy timeout: ~0.02 s doubling to 1 s.
ATTEMPTS = 10
HANDLE_CACHE_SECONDS = 10.0  # how long a renamed player may still show under the old handle
FIRST_DELAY = 0.02
MAX_DELAY = 1.0
REOPEN_WAIT = 0.3  # seconds: longer than the change feed's interval (service.feed)
READ_ONLY_RETRIES = 5  # tries on fresh connections once a read-only file is writable again
SEEN_PATIENCE = 0.05  # seconds a login waits to record the last-seen time, at most
MIGRATION_PATIENCE = 30.0  # seconds: nodes starting together take turns upgrading

_DB_ERRORS: tuple[type[BaseException], ...] = (exc.DBAPIError, exc.TimeoutError, sqlite3.Error)
try:
    import psycopg

    _DB_ERRORS += (psycopg.Error,)
except ImportError:  # PostgreSQL support is optional
    pass

# What a caller may see from below the service when storage fails in a way it did not sort.
STORAGE_ERRORS: tuple[type[BaseException], ...] = (*_DB_ERRORS, OSError)

BUSY_MESSAGE = "the database is busy; nothing was changed, please try again"
_STORAGE_MESSAGES = {
    db.BUSY: BUSY_MESSAGE,
    db.CONFLICT: BUSY_MESSAGE,
    db.READ_ONLY: "the database is read-only, so nothing can be saved; tell the sysop",
    db.FULL: "the disk holding the database is full, so nothing was saved; tell the sysop",
}


def _storage_error(err: BaseException) -> StorageError:
    kind = db.classify(err)
    message = (
        _STORAGE_MESSAGES.get(kind) or f"the database failed, nothing was changed: {getattr(err, 'orig', None) or err}"
    )
    return StorageError(message)


MAX_BBS_TAG = 32
MAX_BBS_ALIAS = 40  # longer than any BBS's alias field; the identity keeps it exactly
# The longest name a player is found by: a member board's alias and its @TAG.
NAME_LIMIT = MAX_BBS_ALIAS + 1 + MAX_BBS_TAG
MAX_LOGIN_NAME = 255
_LEGACY_CONTROL = re.compile(r"[\x00-\x1f\x7f]")  # what the door removed from an alias before identities were exact


def _beyond_ascii(name: str) -> str:
    """' (with an accent)', ' (with accents)' or ' (with letters beyond ASCII)' for a name with
    letters an ASCII terminal shows as plain ones; '' for a plain name."""
    odd = [c for c in name if ord(c) > 127]
    if not odd:
        return ""
    if all(len(d := unicodedata.normalize("NFKD", c)) > 1 and ord(d[0]) < 128 for c in odd):
        return " (with an accent)" if len(odd) == 1 else " (with accents)"
    return " (with letters beyond ASCII)"


def _note_again(s: Session, p: Player, alias: str, tag: str) -> str:
    """The note of a first visit the caller left before reaching the menu, said again as it was
    (the player whose name made the handle numbered as they are now); '' where there is none, or
    the sysop has renamed the caller since (that notice tells them)."""
    kept = s.scalars(select(Notice).where(Notice.player_id == p.id, Notice.kind == "handle")).first()
    if kept is None or kept.now != p.handle:
        return ""
    blocker = None
    if kept.other:
        holder = s.get(Player, kept.game_id) if kept.game_id else None
        tag_login = (holder.bbs_tag, holder.login_name) if holder is not None else ("", kept.other)
        blocker = (kept.other, *tag_login)
    return _handle_note(alias, p.handle, blocker, tag)


def _handle_note(alias: str, handle: str, blocker: tuple[str, str, str] | None, tag: str = "") -> str:
    """What a newcomer from a BBS (`tag`: a member board's, '' for this server's) is told when
    their handle here is not their BBS name; `blocker`: the handle, board tag and login name of
    the player who has it."""
    if blocker is not None:
        base, theirs, login = blocker
        # Quoted with a space in them, as the other notices quote a handle: 'is called Maximilian
        # Alexa, so you are Maximilian Ale~2' ran the names into the sentence.
        name, shown, login = (f'"{n}"' if " " in n else n for n in (base, handle, login))
        cleaned = handles.clean(alias)
        made_q = f'"{cleaned}"' if " " in cleaned else cleaned
        if alike := handles.key(base) != handles.key(cleaned):
            # Said in words that stay true on an ASCII terminal, which shows 'alíce' as 'alice':
            # 'Your BBS name alice looks like alice' had been all it read.
            made_q += _beyond_ascii(cleaned)
        # The name made of the alias first, where it is not the alias: 'bob@DP' had been told only
        # that another player is called bob_DP, never why the name had become that.
        why = _why_changed(alias) if handles.key(cleaned) != handles.key(alias.strip()) else ""
        # Taken only in looks ('a1ice' beside alice): it had been told it 'becomes alice here',
        # and that 'a1ice~2 to a1ice~5 are taken too', where alice~2 to alice~5 were.
        made = f"Your BBS name {why}, so it becomes {made_q} here; but " if why else ""
        if tag and theirs == tag:
            # 'Another player of your board is called alice' read as if the board's own alice
            # were someone else: their alias there says which caller of the board it is.
            holder = f"another caller of your board (alias {login} there)"
            said = f"it looks like {name}, the name here of {holder}" if alike and made else \
                f"your BBS name {made_q} looks like {name}, the name here of {holder}" if alike else \
                f"{holder} is called {name} here"
        else:
            # 'here' had named a player of another member board as one of this server's own; to
            # a member board's caller 'here' may read as their own board.
            where = f"of board {theirs}" if theirs else "of this server" if tag else "here"
            said = f"it looks like {name}, the name of another player {where}" if alike and made else \
                f"your BBS name {made_q} looks like {name}, the name of another player {where}" if alike else \
                f"another player {where} is called {name}"
        said = made + said if made else said[:1].upper() + said[1:]
        return f"{said}, so you are {shown}{_taken_too(handle, alike)}: your own player, not theirs."
    if handle == alias.strip():
        return ""
    # Quoted: a handle with a space in it is kept on one line ('so here you are a' / 'b.').
    said = f'"{handle}"' if " " in handle else handle
    stop = "" if said.endswith((".", "!", "?")) else "."  # 'you are Mr.Smith_home..' had two
    return f"Your BBS name {_why_changed(alias)}, so here you are {said}{stop}"


def _taken_too(handle: str, alike: bool = False) -> str:
    """' (bob~2 is taken too)' where the number given is past 2: 'is called bob, so you are
    bob~3' had not said why not bob~2.  `alike`: the names before it look like others'."""
    numbered = re.fullmatch(r"(.*)~(\d+)", handle)
    if numbered is None or int(numbered[2]) < 3:
        return ""
    if alike:
        return " (with a lower number it would look like another player's too)"
    base, n = numbered[1], int(numbered[2])
    first, last = (f'"{base}~{k}"' if " " in base else f"{base}~{k}" for k in (2, n - 1))
    if n == 3:
        return f" ({first} is taken too)"
    return f" ({first} {'and' if n == 4 else 'to'} {last} are taken too)"


def _why_changed(alias: str) -> str:
    """Why a BBS alias cannot be a handle as it is: 'has an @, which here marks ...'."""
    whole = handles.clean(alias, cut=False)
    spaced = " ".join(alias.split())
    why = []
    if "@" in alias:
        # In brackets: 'has an @, which marks another board's players and is longer than 16
        # characters' read as if the @ were long.
        why.append("has an @ (which marks another board's players)")
    if whole != spaced.replace("@", "_"):
        why.append("has characters not every terminal can show")
    if spaced != alias.strip():
        why.append("has spaces in a row (kept here as one)")
    if len(whole) > handles.MAX_LENGTH:
        why.append(f"is longer than {handles.MAX_LENGTH} characters")
    if len(whole) < handles.MIN_LENGTH:
        why.append(f"is shorter than {handles.MIN_LENGTH} characters")
    if not why:
        why.append("cannot be a handle here as it is")
    return " and ".join(why) if len(why) < 3 else f"{', '.join(why[:-1])} and {why[-1]}"


@dataclass(frozen=True)
class PendingLogin:
    """A login whose password is being checked (Service.start_login)."""

    checked: Future[bool]
    player_id: int | None


NOTE_LENGTH = 140


def check_note(note: str | None) -> str | None:
    """The note as kept (spaces trimmed, None when empty); IllegalAction says why one will not do."""
    if note is None:
        return None
    if not isinstance(note, str):
        raise IllegalAction("a note is text")
    note = note.strip()
    if not note:
        return None
    if len(note) > NOTE_LENGTH:
        raise IllegalAction(f"a note is at most {NOTE_LENGTH} characters")
    if not note.isprintable():
        raise IllegalAction("a note cannot contain control characters")
    return note


def _utcnow() -> datetime:
    return datetime.now(UTC)


def derive(length: int, payloads: list[dict[str, Any]]) -> tuple[MatchState, dict[Color, dict[str, Any]]]:
    """Replay a game's recorded events: its state, and each side's last play as the games row caches it."""
    events = [rules.event_from_dict(p) for p in payloads]
    state = rules.replay(length, events)
    last: dict[Color, dict[str, Any]] = {}
    # replay() checked the record; walk it once more for the states before each play.
    walk = rules.new_match(length)
    for seq, event in enumerate(events):
        if event.derived:
            continue
        if isinstance(event, rules.Move) and walk.turn is not None:
            last[walk.turn] = {"seq": seq, "before": state_to_dict(walk)}
        walk, _ = rules.apply(walk, event)
    return state, last


_SUMMARY_QUERY = (
    select(
        Game.id,
        Game.status,
        Game.length,
        Game.score_white,
        Game.score_black,
        Game.updated,
        Game.version,
        Game.white_id,
        Game.black_id,
        Game.to_act_id,
        Game.phase,
        Game.winner_id,
    )
    .select_from(Game)
)


def normal_handle(handle: object) -> str:
    """`handle` as a player's handle is kept (spaces tidied); raises BadHandle, saying why, when
    it is not text or breaks the rules of form."""
    if not isinstance(handle, str):
        raise BadHandle("a handle is text")
    handle = handles.tidy(handles.normal(handle))
    problem = handles.form_problem(handle)
    if problem:
        raise BadHandle(problem)
    return handle


def display_name(handle: str, origin: str, bbs_tag: str, login_name: str, always: bool) -> str:
    """How lists show a player: a member BBS's player as handle@TAG, always or where the handle
    alone would mislead (it is not their BBS alias: cleaned, cut or numbered past another's)."""
    if origin == "bbs" and bbs_tag and (always or handle != login_name):
        return f"{handle}@{bbs_tag}"
    return handle


def player_names(s: Session, ids: Iterable[int | None], always: bool) -> dict[int, str]:
    """Players' names as lists show them, by id."""
    wanted = {i for i in ids if i is not None}
    if not wanted:
        return {}
    rows = list(s.execute(
        select(Player.id, Player.handle, Player.origin, Player.bbs_tag, Player.login_name).where(
            Player.id.in_(wanted)
        )
    ))
    shared = shared_aliases(s, [(pid, h) for pid, h, origin, tag, login in rows
                                if origin == "bbs" and tag and h == login and not always])
    return {pid: display_name(h, origin, tag, login, always or pid in shared) for pid, h, origin, tag, login in rows}


def shared_aliases(s: Session, players: Sequence[tuple[int, str]]) -> set[int]:
    """Of member boards' players (id, handle) known by their own alias, those whose alias is
    another player's too (another board's alice, alice~2 here): 'alice' alone had passed for
    her own alias on that player's screen, and B)egin had found the other board's alice for
    'alice' without a word of which."""
    if not players:
        return set()
    keys = {handles.key(h): pid for pid, h in players}
    lowered = {h.lower() for _, h in players}
    others = s.execute(
        select(Player.id, Player.login_name).where(
            or_(func.lower(Player.login_name).in_(lowered), Player.login_name.in_([h for _, h in players]))
        )
    )
    return {keys[k] for pid, login in others if (k := handles.key(login)) in keys and keys[k] != pid}


def _identity(s: Session, origin: str, tag: str, alias: str) -> Player | None:
    """The player (origin, tag, alias): exactly, or else the board's alias without regard to
    case (handles.key), as BBSes treat aliases and some send them upper-cased: 'ALICE' from SYN
    had been made a new player beside SYN's alice, and the local BBS's 'JOHN SMITH' in DOOR.SYS
    one beside its 'john smith' of DOOR32.SYS.  Where the case alone tells several apart (made
    before this rule), the oldest."""
    exact = s.scalars(
        select(Player).where(Player.origin == origin, Player.bbs_tag == tag, Player.login_name == alias)
    ).one_or_none()
    if exact is not None or origin not in ("bbs", "door"):
        return exact
    # Every alias of the board, by id and name alone: casefolding may change a name's length
    # (ß, ligatures), and SQLite's lower() folds A-Z alone.
    wanted = handles.key(alias)
    rows = s.execute(
        select(Player.id, Player.login_name).where(Player.origin == origin, Player.bbs_tag == tag).order_by(Player.id)
    )
    found = next((pid for pid, login in rows if handles.key(login) == wanted), None)
    return s.get(Player, found) if found is not None else None


def player_by_handle(s: Session, handle: str) -> Player | None:
    """The player whose handle is `handle` without regard to case, or None; a member BBS's player
    also by the name lists show (handle@TAG), or by the alias their board knows (alice@DP for
    DP's alice, alice~2 here: refused as nobody, with no word of the handle)."""
    if not isinstance(handle, str):
        return None
    found = _by_key(s, handle)
    if found is None and "@" in handle:
        bare, _, tag = handle.rpartition("@")
        found = s.scalars(
            select(Player).where(
                Player.handle_key == handles.key(bare), Player.origin == "bbs", Player.bbs_tag == tag.upper()
            )
        ).one_or_none()
        if found is None and bare:
            board = (Player.origin == "bbs", Player.bbs_tag == tag.upper())
            if bare.isascii():
                known = list(s.scalars(select(Player).where(func.lower(Player.login_name) == bare.lower(), *board)
                                       .limit(2)))
            else:
                # SQLite's lower() folds A-Z alone: 'Émile_Zola@BETA' had found nobody, typed any way.
                same_length = s.scalars(select(Player).where(func.length(Player.login_name) == len(bare), *board))
                known = [p for p in same_length if p.login_name.casefold() == bare.casefold()][:2]
            found = known[0] if len(known) == 1 else None
    return found


def player_by_name(s: Session, name: str) -> Player | None:
    """Another player named by a caller (an opponent, a page to look at): as player_by_handle,
    or, typed in plain ASCII, by the name as an ASCII terminal shows it ('Emile_Zola' for
    Émile_Zola, 'Arskbing_Sren@BETA' for Ærskbing_Sren@BETA), where it is one player's alone.
    A caller with such a terminal had no way to name them: what they saw found nobody."""
    found = player_by_handle(s, name)
    if found is not None or not isinstance(name, str) or not name.isascii():
        return found
    bare, at, tag = name.rpartition("@")
    if not at:
        bare, tag = name, ""
    if not bare:
        return None
    board = (Player.origin == "bbs", Player.bbs_tag == tag.upper()) if at else ()
    # A member board's player by their alias too, as player_by_handle finds them.
    columns = (Player.handle, Player.login_name) if at else (Player.handle,)
    known = {pid for column in columns for pid in _shown_as(s, column, bare, *board)}
    return s.get(Player, known.pop()) if len(known) == 1 else None


def _shown_as(s: Session, column: Any, text: str, *where: Any) -> list[int]:
    """The players (ids) whose `column` an ASCII terminal shows as it shows `text`, without regard
    to case, where either is not ASCII (both ASCII, that is the same text, found by its key).
    Ids and the column alone: it looks at every one of that length."""
    shown = letters.ascii_form(text).casefold()
    rows = s.execute(select(Player.id, column).where(func.length(column) == len(text), *where))
    return [pid for pid, other in rows
            if not (other.isascii() and text.isascii()) and letters.ascii_form(other).casefold() == shown]


def _by_key(s: Session, handle: str) -> Player | None:
    """The player whose handle is `handle` without regard to case, or, that failing, `handle`
    with its runs of spaces made one (as a new handle is kept).

    Exactly first: a player from before handles were tidied may have a run of spaces in theirs
    (`a  b`), and may share it but for the run with another (`a b`); each logs in as they type
    it.  Typed otherwise, such a player is found by their handle tidied, so nobody can take
    `a b` as new while they exist.
    """
    found = s.scalars(select(Player).where(Player.handle_key == handles.key(handle))).one_or_none()
    tidied = handles.key(handles.tidy(handle))
    if found is None and tidied != handles.key(handle):
        found = s.scalars(select(Player).where(Player.handle_key == tidied)).one_or_none()
    if found is None and " " in tidied:
        older = select(Player).where(Player.handle_key.contains("  ")).order_by(Player.id)
        found = next((p for p in s.scalars(older) if handles.tidy(p.handle_key) == tidied), None)
    return found


def no_password(p: Player) -> str:
    """Why a player without a password cannot log in with one, and where they play instead.  A
    member board's player had been sent to 'the BBS door', which a telnet caller here has not."""
    if p.is_bot:
        return f"{p.handle} is a computer player and cannot log in"
    if p.origin == "bbs":
        return f"{p.handle} plays from board {p.bbs_tag} and has no password here; play from that BBS, " \
            "or try another handle"
    return f"{p.handle} plays through the BBS door and has no password; use the BBS door to play, " \
        "or try another handle"


def game_row(s: Session, game_id: int) -> Game:
    """The games row; raises NotFound when there is none."""
    g = s.get(Game, game_id) if isinstance(game_id, int) else None
    if g is None:
        raise NotFound(f"there is no game {game_id}")
    return g


def game_summaries(s: Session, *where: Any, limit: int | None = None, always: bool = False) -> list[GameSummary]:
    """The games matching `where`, most recently changed first, as their list rows.

    always: show every member BBS's player as handle@TAG (door.cfg's show_board)."""
    # The list columns only (not the JSON state): the menu asks on every key.
    query = _SUMMARY_QUERY.where(*where).order_by(Game.updated.desc(), Game.id.desc())
    if limit is not None:
        query = query.limit(limit)
    rows = s.execute(query).all()
    names = player_names(s, [i for r in rows for i in r[7:10]], always)
    return [
        GameSummary(
            id=gid,
            status=status,
            length=length,
            white=names.get(w) if w is not None else None,
            black=names.get(b) if b is not None else None,
            score=(score_white, score_black),
            turn=names.get(a) if a is not None else None,
            updated=updated,
            version=version,
            opening=status == ACTIVE and phase == Phase.OPENING.value,
            offer=status == ACTIVE and phase in (Phase.DOUBLED.value, Phase.RESIGNED.value),
            winner_id=winner,
            turn_id=a,
        )
        for gid, status, length, score_white, score_black, updated, version, w, b, a, phase, winner in rows
    ]


def lookalike_player(s: Session, handle: str, exclude: int | None = None) -> Player | None:
    """The player whose handle is `handle` without regard to case, or looks like it: by the
    skeleton, or as an ASCII terminal shows both ('Straß' and 'Stras', 'Σam' and 'Φam': the
    skeleton tells them apart, an ASCII caller's W)ho and R)ank did not)."""
    skeleton = handles.skeleton(handle)[:64]
    same = or_(Player.handle_key == handles.key(handle), Player.handle_skeleton == skeleton)
    query = select(Player).where(same)
    if exclude is not None:
        query = query.where(Player.id != exclude)
    found = s.scalars(query.limit(1)).first()
    if found is None and " " in skeleton:
        # A player from before runs of spaces were made one kept theirs in the stored skeleton.
        older = select(Player).where(Player.handle_skeleton.contains("  ")).order_by(Player.id)
        if exclude is not None:
            older = older.where(Player.id != exclude)
        found = next((p for p in s.scalars(older) if handles.tidy(p.handle_skeleton) == skeleton), None)
    if found is None and handles.drawable(handle):  # one that is not is refused for that
        found = _shown_alike(s, handle, exclude)
    return found


def _shown_alike(s: Session, handle: str, exclude: int | None) -> Player | None:
    """A player whose handle an ASCII terminal shows as it shows `handle`, where either is not
    ASCII (both ASCII, that is the same handle without regard to case, found by its key)."""
    others = () if exclude is None else (Player.id != exclude,)
    found = _shown_as(s, Player.handle, handles.tidy(handle), *others)
    return s.get(Player, found[0]) if found else None


def handle_refusal(
    s: Session, handle: str, exclude: int | None = None, advise: bool = True
) -> ServiceError | None:
    """Why `handle` cannot be a new (or renamed) player's handle, as the error to raise.
    advise: with what to do about a taken one ('; choose another'), which a screen that says
    so in its own words leaves out."""
    problem = handles.form_problem(handle)
    if problem:
        return BadHandle(problem)
    other = lookalike_player(s, handle, exclude)
    if other is not None:
        if other.handle_key == handles.key(handle):
            why, advice = f"the handle {other.handle} is taken", "choose another"
        else:
            why, advice = f"{handle} looks like the existing player {other.handle}", "choose another handle"
        return HandleTaken(f"{why}; {advice}" if advise else why)
    problem = handles.draw_problem(handle)
    return BadHandle(problem) if problem else None


class Service(LeagueOps):
    """Everything a caller, a screen or a tool does to the game's data, each operation one
    transaction.  Each operation's docstring says what it does and the errors it raises; any
    of them may also raise StorageError (the database failed or stayed busy; nothing was
    changed).  Every error here is a ServiceError whose message a player can read.
    """

    def __init__(
        self,
        url: str = db.DEFAULT_URL,
        dice: DiceSource | None = None,
        clock: Callable[[], datetime] | None = None,
        settings: db.Settings = db.DEFAULTS,
    ) -> None:
        """Open (create or upgrade) the database at SQLAlchemy `url`.

        `clock` (optional, for tests) returns the current aware UTC time; `settings` are the
        configuration's for the database.  Raises StorageError when the database cannot be
        opened or its schema is newer than this program.
        """
        self.url = url
        self.settings = settings
        self.dice: DiceSource = dice or SystemDice()
        self.clock = clock or _utcnow
        try:
            self.engine = db.make_engine(url, settings)
        except OSError as err:
            raise StorageError(f"cannot open the database: {err}") from err
        self._writer = self.engine.execution_options(**{db.WRITE: True})
        self._handle_cache: dict[int, str] = {}
        self._handle_cache_at = time.monotonic()
        self._game_marks: dict[int, tuple[int, int]] = {}  # each game's version and event count at its last view
        self.show_board = "ambiguous"  # door.cfg [rlogin] show_board: "always" adds @TAG to every BBS player
        path = db.sqlite_path(self.engine.url, writable=True)
        self._queue = db.WriterQueue(path.absolute()) if path is not None else None
        # An in-memory database is one shared connection: one transaction at a time.
        self._lock = (
            threading.RLock()
            if self.engine.dialect.name == "sqlite" and db.is_memory(self.engine.url)
            else nullcontext()
        )
        try:
            self._retry(lambda: db.migrate(self.engine), time.monotonic() + MIGRATION_PATIENCE)
        except db.SchemaTooNew as err:
            raise StorageError(str(err)) from err

    def close(self) -> None:
        """Release the database connections and the writer queue."""
        self.engine.dispose()
        if self._queue is not None:
            self._queue.close()

    @property
    def always(self) -> bool:
        """Every member BBS's player shown as handle@TAG, not only where the handle misleads."""
        return self.show_board == "always"

    def remember_handle(self, player_id: int, handle: str | None) -> None:
        """What this process shows for a player renamed (or, None, removed) by the sysop tools."""
        if handle is None:
            self._handle_cache.pop(player_id, None)
        else:
            self._handle_cache[player_id] = handle

    def __enter__(self) -> Service:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ------------------------------------------------------------ transactions

    def _retry(self, work: Callable[[], T], give_up: float) -> T:
        """Run work, again with backoff while the database is busy, until time.monotonic() `give_up`."""
        delay = FIRST_DELAY
        for attempt in range(1, ATTEMPTS + 1):
            try:
                with self._lock:
                    return work()
            except ServiceError:
                raise
            except _DB_ERRORS as err:
                kind = db.classify(err)
                if kind in (db.BUSY, db.CONFLICT) and attempt < ATTEMPTS and time.monotonic() + delay < give_up:
                    time.sleep(delay * random.uniform(0.5, 1.5))
                    delay = min(delay * 2, MAX_DELAY)
                    continue
                if kind == db.READ_ONLY and not db.is_memory(self.engine.url):
                    # SQLite opens a file it cannot write read-only and stays so: drop the pooled
                    # connections, so writing works again once the sysop fixes the permissions,
                    # and try once more on a fresh one (this one may predate the fix).
                    db.reopen(self.engine)
                    path = db.sqlite_path(self.engine.url)
                    if path is not None:
                        db.match_sidecars(path)
                        if attempt <= READ_ONLY_RETRIES and db.write_problem(self.engine.url) is None:
                            # The file is writable now: what refused was a connection opened
                            # before the fix, here or in another thread (the change feed's).
                            time.sleep(REOPEN_WAIT)  # for them to let go of theirs
                            db.close_old_connections(self.engine)
                            continue
                raise _storage_error(err) from err
            except OSError as err:
                raise StorageError(f"cannot reach the database: {err}") from err
        raise AssertionError("unreachable")

    def transaction(self, fn: Callable[[Session], T], write: bool = True, patience: float | None = None) -> T:
        """Run fn(session) as one transaction, retried whole while the database is busy.

        The building block of every operation here, in service.league and in service.sysop
        (not a caller's operation itself).  A write gives up on a busy database at the deadline
        the caller set (db.patience), or `patience` (default settings.write_patience) seconds
        from now, whichever comes first.  Raises StorageError when the database fails or stays
        busy; fn's own ServiceErrors pass through, and nothing fn did is kept.
        """
        now = time.monotonic()
        give_up = now + (self.settings.write_patience if patience is None else patience)
        outer = db.deadline()
        if outer is not None:
            give_up = min(give_up, outer)
        if not write:
            # Readers are not held up in WAL.
            give_up = now + max(self.settings.write_patience, self.settings.busy_timeout_ms / 1000)

        def work() -> T:
            left = max(0.0, give_up - time.monotonic())
            queue = self._queue.turn(left) if write and self._queue else nullcontext()
            bind = self._writer if write else self.engine
            with db.patience(give_up), queue, Session(bind, expire_on_commit=False) as session:
                with session.begin():
                    return fn(session)

        return self._retry(work, give_up)

    @staticmethod
    def statement_count() -> int:
        """SQL statements this process has run so far (the benchmarks read it)."""
        return db.statement_count()

    @property
    def write_patience(self) -> float:
        """Seconds a write waits at most for a busy database."""
        return self.settings.write_patience

    def patience(self, until: float) -> AbstractContextManager[None]:
        """Writes in this thread, within the block, give up on a busy database at time.monotonic() `until`."""
        return db.patience(until)

    # ----------------------------------------------------------------- players

    @staticmethod
    def _info(p: Player) -> PlayerInfo:
        return PlayerInfo(
            id=p.id,
            handle=p.handle,
            is_bot=p.is_bot,
            has_password=p.password_hash is not None,
            rating=p.rating,
            experience=p.experience,
            preferences=Preferences(
                sound=p.sound, theme=p.theme, charset=p.charset, orientation=p.orientation, notes=p.notes
            ),
            created=p.created,
            last_seen=p.last_seen,
            origin=p.origin,
            bbs_tag=p.bbs_tag,
            login_name=p.login_name,
        )

    @staticmethod
    def _player(s: Session, player_id: int) -> Player:
        """The player acting; AccountClosed where the sysop deleted them meanwhile (a session of
        theirs had gone on as "(deleted)", beginning games nobody could finish)."""
        p = s.get(Player, player_id) if isinstance(player_id, int) else None
        if p is None:
            raise AccountClosed(f"there is no player {player_id}")  # never, or deleted outright
        if p.handle_key.startswith(DELETED_KEY):
            raise AccountClosed("the sysop has closed this account")
        return p

    def new_handle_problem(self, handle: str) -> str | None:
        """Why a new player could not take `handle` now (None: they could), for a screen to say
        before asking more: the reason alone, what to do is the screen's to say.  Raises
        nothing of its own: the reason is the answer."""
        if not isinstance(handle, str):
            return "a handle is text"
        tidied = handles.tidy(handles.normal(handle))
        err = self.transaction(lambda s: handle_refusal(s, tidied, advise=False), write=False)
        return None if err is None else str(err)

    def _new_player(
        self,
        s: Session,
        handle: str,
        password_hash: str | None,
        is_bot: bool = False,
        origin: str = "telnet",
        login_name: str | None = None,
        bbs_tag: str = "",
    ) -> Player:
        now = self.clock()
        p = Player(
            origin=origin,
            bbs_tag=bbs_tag,
            login_name=handle if login_name is None else login_name,
            handle=handle,
            handle_key=handles.key(handle),
            handle_skeleton=handles.skeleton(handle)[:64],
            password_hash=password_hash,
            is_bot=is_bot,
            created=now,
            last_seen=None if is_bot else now,
        )
        s.add(p)
        s.flush()
        return p

    def register(self, handle: str, password: str) -> PlayerInfo:
        """A new telnet player with `handle` and `password`; their PlayerInfo.

        Raises BadHandle (not a usable handle), BadPassword, or HandleTaken (taken, or looks
        like one that is), each saying why.
        """
        handle = normal_handle(handle)
        problem = passwords.password_problem(password)
        if problem:
            raise BadPassword(problem)
        hashed = passwords.hash_password(password)  # slow: outside the transaction

        def fn(s: Session) -> PlayerInfo:
            err = handle_refusal(s, handle)
            if err is not None:
                raise err
            return replace(self._info(self._new_player(s, handle, hashed)), first_visit=True)

        return self.transaction(fn)

    def login(self, handle: str, password: str) -> PlayerInfo:
        """The player `handle` logs in with `password`: start_login and finish_login in one.

        Raises LoginFailed (unknown handle, wrong password, a door or computer player).
        """
        pending = self.start_login(handle, password)
        pending.checked.result()
        return self.finish_login(pending)

    def start_login(self, handle: str, password: str, urgent: bool = False) -> PendingLogin:
        """A login's look-up, and its password check handed to the hashing thread: waiting for
        `checked` takes no database worker.  urgent: ahead of the other checks (see passwords).

        Raises LoginFailed at once for a computer player or a door player (no password).
        """

        def lookup(s: Session) -> tuple[int, str, str | None, str] | None:
            p = player_by_handle(s, handle)
            return None if p is None else (p.id, p.handle, p.password_hash, no_password(p))

        found = self.transaction(lookup, write=False)
        if found is not None and found[2] is None:
            raise LoginFailed(found[3])
        # Checked even for an unknown handle, so the time taken does not tell which handles exist.
        typed = password if isinstance(password, str) else ""
        checked = passwords.start_check(typed, found[2] if found else None, urgent)
        return PendingLogin(checked, None if found is None else found[0])

    def finish_login(self, pending: PendingLogin) -> PlayerInfo:
        """The login's outcome once its check is done: the player, now seen.

        Raises LoginFailed (wrong handle or password), NotFound (the player went meanwhile).
        """
        if pending.player_id is None or not pending.checked.result():
            raise LoginFailed("wrong handle or password")
        player_id = pending.player_id

        def fn(s: Session) -> PlayerInfo:
            p = self._player(s, player_id)
            p.last_seen = self.clock()
            return self._info(p)

        try:
            # The last-seen time is not worth making the player wait for a busy database.
            return self.transaction(fn, patience=SEEN_PATIENCE)
        except StorageError:
            # The password was right: a database that cannot take the last-seen time right
            # now (read-only, full, busy) still lets the player in to look around.
            return self.player(player_id)

    def handle_exists(self, handle: str) -> bool:
        """Whether a player has `handle` (without regard to case).  Raises nothing of its own."""
        return self.transaction(lambda s: player_by_handle(s, handle) is not None, write=False)

    def login_problem(self, handle: str) -> str | None:
        """Why the player `handle` cannot log in with a password (a computer player, or one who
        plays through the BBS door), said before a password is asked; None if they can, or if
        there is no such player.  Raises nothing of its own."""

        def lookup(s: Session) -> str | None:
            p = player_by_handle(s, handle)
            if p is None or p.password_hash is not None:
                return None
            return no_password(p)

        return self.transaction(lookup, write=False)

    def enter_from_door(self, alias: str) -> PlayerInfo:
        """A caller of the local BBS, found by their alias as the drop file has it (case aside, as
        BBSes treat names), and created on their first visit.

        Raises BadHandle when the BBS gave no usable name.
        """
        return self._enter("door", "", alias)

    def enter_from_bbs(self, tag: str, alias: str) -> PlayerInfo:
        """A caller of the remote BBS `tag`, found by (tag, alias): one alias on two BBSes is two
        players; created on their first visit.

        Raises BadHandle for a malformed tag or a BBS that gave no usable name.
        """
        if not isinstance(tag, str) or not tag or len(tag) > MAX_BBS_TAG or not tag.isprintable() or tag != tag.strip():
            raise BadHandle(f"a BBS tag is 1 to {MAX_BBS_TAG} printable characters, without spaces around them")
        return self._enter("bbs", tag, alias)

    def _enter(self, origin: str, tag: str, alias: str) -> PlayerInfo:
        """The player (origin, tag, alias), created on first visit with a unique drawable handle.

        The handle is the alias cleaned (see store.handles.clean) and cut to 16 characters; when
        that is taken by, or looks like, another player's handle, the newcomer gets a numbered one
        (LongAliasName1~2).  Either way the first visit's PlayerInfo says so in handle_note.
        """
        if not isinstance(alias, str) or not alias:
            raise BadHandle("the BBS gave no name for this caller; tell the sysop")
        if len(alias) > MAX_LOGIN_NAME:
            raise BadHandle(f"the BBS name of this caller is over {MAX_LOGIN_NAME} characters long; tell the sysop")
        if "\0" in alias:
            # PostgreSQL keeps no NUL in text; refused everywhere, so every database agrees.
            raise BadHandle("your BBS name contains a NUL character, which cannot be stored; ask the sysop for another")
        base = handles.clean(alias)
        if not base:
            raise BadHandle(
                f"your BBS name {alias!r} has no character a terminal can draw, so it cannot be shown "
                "to other players; ask the sysop for another"
            )

        def fn(s: Session) -> PlayerInfo:
            p = _identity(s, origin, tag, alias)
            note = ""
            if p is None and origin == "door":
                p = self._legacy_door_player(s, alias)
                if p is not None:
                    note = f"Your games from before are kept: you play as {p.handle}, as before."
            if p is not None:
                p.last_seen, p.legacy_login = self.clock(), False
                return replace(self._info(p), handle_note=note or _note_again(s, p, alias, tag))
            handle, holder = self._free_handle(s, base)
            blocker = (holder.handle, holder.bbs_tag, holder.login_name) if holder is not None else None
            p = self._new_player(s, handle, None, origin=origin, login_name=alias, bbs_tag=tag)
            if blocker is not None:
                self._handle_cache.clear()  # the alias's holder shows with their board's tag now
            note = _handle_note(alias, handle, blocker, tag)
            if note:
                # Kept until the menu is reached (see Notice): a caller who hung up on the note had
                # never been told again why they were carol~2.
                s.flush()
                s.add(Notice(player_id=p.id, kind="handle", game_id=holder.id if holder is not None else 0,
                             length=0, other=holder.handle if holder is not None else "", now=handle,
                             created=self.clock()))
            return replace(self._info(p), first_visit=True, handle_note=note)

        # A returning caller is let in by a read, like a login: a busy database does not hold
        # them at the door while the last-seen time waits.
        known = self.transaction(lambda s: _identity(s, origin, tag, alias), write=False)
        if known is not None:
            try:
                return self.transaction(fn, patience=SEEN_PATIENCE)
            except StorageError:
                return self._info(known)
        return self.transaction(fn)

    def _free_handle(self, s: Session, base: str) -> tuple[str, Player | None]:
        """The first free handle of base, base~2, base~3, ...; and the player holding base, if any."""
        blocker: Player | None = None
        for n in range(1, 10_000):
            handle = base if n == 1 else handles.numbered(base, n)
            if handles.problem(handle) is not None:
                continue
            other = lookalike_player(s, handle)
            if other is None:
                return handle, blocker
            if blocker is None:
                blocker = other
        raise HandleTaken(f"no free handle is left for {base!r}; tell the sysop")

    @staticmethod
    def _legacy_door_player(s: Session, alias: str) -> Player | None:
        """A door player made before identities were kept exactly, whose alias the door cut or cleaned.

        Such a player's login name is the handle the door made of the alias (control characters
        removed, cut to 16), and legacy_login is set until someone enters as it.  The first
        caller whose exact alias makes that handle takes the player over, and their exact alias
        becomes its login name, so no second caller can; nor can anyone once the caller with
        that very alias has entered.
        """
        legacy = _LEGACY_CONTROL.sub("", alias).strip()[:16].strip()
        if not legacy or legacy == alias:
            return None
        p = s.scalars(
            select(Player).where(
                Player.origin == "door", Player.bbs_tag == "", Player.login_name == legacy, Player.legacy_login
            )
        ).one_or_none()
        if p is None:
            return None
        p.login_name, p.legacy_login = alias, False
        return p

    def ensure_bot_player(self, handle: str) -> PlayerInfo:
        """The computer player called `handle`, created if missing (for the bot layer's levels).

        Raises BadHandle (not a usable handle), HandleTaken (a human player has it).
        """
        problem = handles.problem(handle)
        if problem:
            raise BadHandle(problem)

        def fn(s: Session) -> PlayerInfo:
            p = player_by_handle(s, handle)
            if p is None:
                return self._info(self._new_player(s, handle, None, is_bot=True))
            if not p.is_bot:
                raise HandleTaken(f"the handle {p.handle!r} belongs to a human player")
            return self._info(p)

        return self.transaction(fn)

    def player(self, player_id: int) -> PlayerInfo:
        """The player `player_id`.  Raises AccountClosed (no such player, or one the sysop deleted)."""
        return self.transaction(lambda s: self._info(self._player(s, player_id)), write=False)

    def set_preferences(self, player_id: int, prefs: Preferences) -> PlayerInfo:
        """Store the player's preferences (sound, theme, charset, board orientation); the player
        after.

        Raises IllegalAction (a malformed preference), AccountClosed (no such player, or deleted).
        """
        if not isinstance(prefs.theme, str) or not 1 <= len(prefs.theme) <= 32:
            raise IllegalAction("a theme name is 1 to 32 characters")
        if prefs.orientation not in ("own", "table"):
            raise IllegalAction("the board is turned 'own' or 'table'")
        if prefs.charset is not None and (not isinstance(prefs.charset, str) or not 1 <= len(prefs.charset) <= 16):
            raise IllegalAction("a character set name is 1 to 16 characters")

        def fn(s: Session) -> PlayerInfo:
            p = self._player(s, player_id)
            p.sound, p.theme, p.charset = bool(prefs.sound), prefs.theme, prefs.charset
            p.orientation = prefs.orientation
            p.notes = bool(prefs.notes)
            return self._info(p)

        return self.transaction(fn)

    # ------------------------------------------------------------------- views

    @staticmethod
    def _color_of(g: Game, player_id: int | None) -> Color | None:
        if player_id is None:
            return None
        if g.white_id == player_id:
            return Color.WHITE
        if g.black_id == player_id:
            return Color.BLACK
        return None

    def _handles(self, s: Session, *ids: int | None) -> dict[int, str]:
        # Handles change only when a sysop renames one, so each process may remember them a while.
        if time.monotonic() - self._handle_cache_at > HANDLE_CACHE_SECONDS:
            self._handle_cache.clear()
            self._handle_cache_at = time.monotonic()
        wanted = [i for i in ids if i is not None and i not in self._handle_cache]
        if wanted:
            self._handle_cache.update(player_names(s, wanted, self.always))
        return {i: self._handle_cache[i] for i in ids if i is not None and i in self._handle_cache}

    def _view(self, s: Session, g: Game, viewer_id: int | None, state: MatchState | None = None) -> GameView:
        mark = self._game_marks.get(g.id)
        if mark is not None and g.version > mark[0] and (g.event_count == mark[1] or g.status in OVER):
            # Changed with nothing played: a sysop's rename (which bumps the version of the
            # player's games for every process's feed); or ended, perhaps by a player's deletion.
            # The names are read again: a board had shown the old name until the cache's time
            # ran out (after a deletion, the opponent's board one way or the other by timing).
            for pid in (g.white_id, g.black_id):
                self._handle_cache.pop(pid or 0, None)
        self._game_marks[g.id] = (g.version, g.event_count)
        names = self._handles(s, g.white_id, g.black_id)
        return GameView(
            id=g.id,
            status=g.status,
            version=g.version,
            white=names.get(g.white_id) if g.white_id else None,
            black=names.get(g.black_id) if g.black_id else None,
            white_id=g.white_id,
            black_id=g.black_id,
            state=state or state_from_dict(g.state),
            viewer_color=self._color_of(g, viewer_id),
            updated=g.updated,
            created=g.created,
        )

    def game(self, game_id: int, viewer_id: int | None = None) -> GameView:
        """Game `game_id` as `viewer_id` (None: a watcher) sees it.  Raises NotFound."""
        return self.transaction(lambda s: self._view(s, game_row(s, game_id), viewer_id), write=False)

    def game_version(self, game_id: int) -> int:
        """Game `game_id`'s version, which every change moves on: a cheap look for news.

        Raises NotFound.
        """
        def fn(s: Session) -> int:
            v = s.scalar(select(Game.version).where(Game.id == game_id)) if isinstance(game_id, int) else None
            if v is None:
                raise NotFound(f"there is no game {game_id}")
            return v

        return self.transaction(fn, write=False)

    def games_in_progress(self, limit: int = 50) -> list[GameSummary]:
        """Active and open games, most recent first (at most `limit`).  Raises nothing of its own."""
        return self.transaction(
            lambda s: game_summaries(s, Game.status.in_((OPEN, ACTIVE)), limit=limit, always=self.always), write=False
        )

    def open_games(self, player_id: int | None = None) -> list[GameSummary]:
        """Games with a free seat (not begun by `player_id`), most recent first.

        Raises nothing of its own.
        """
        where: list[Any] = [Game.status == OPEN]
        if player_id is not None:
            where.append(Game.creator_id != player_id)
        return self.transaction(lambda s: game_summaries(s, *where, always=self.always), write=False)

    def my_turn_games(self, player_id: int) -> list[GameSummary]:
        """The player's games waiting for them to act (the opening roll is either player's), by
        game number.  Raises nothing of its own.
        """
        seated = or_(Game.white_id == player_id, Game.black_id == player_id)
        # The opening roll is either player's to make.
        mine = or_(Game.to_act_id == player_id, and_(Game.phase == Phase.OPENING.value, seated))
        games = self.transaction(
            lambda s: game_summaries(s, Game.status == ACTIVE, mine, always=self.always), write=False
        )
        # Not most recently changed first: the player's own roll moved a game to the top, and a
        # line number read on P)lay's list opened another game on the next look.
        return sorted(games, key=lambda g: g.id)

    def my_games(self, player_id: int) -> list[GameSummary]:
        """All unfinished games the player sits in, most recent first.  Raises nothing of its own."""
        seated = or_(Game.white_id == player_id, Game.black_id == player_id)
        return self.transaction(
            lambda s: game_summaries(s, Game.status.in_((OPEN, ACTIVE)), seated, always=self.always), write=False
        )

    # --------------------------------------------------------- starting games

    def begin_game(
        self, player_id: int, length: int, color: Color | None = None, opponent: str | None = None
    ) -> GameView:
        """A new match of `length` points for the player: their colour `color` (None: random),
        against `opponent` (None: an open seat for anyone; a handle; or a bot player's handle).

        Raises IllegalAction (a length the rules refuse, playing oneself), AccountClosed (no
        such player, or one the sysop deleted), NotFound (no such opponent).
        """
        try:
            state = rules.new_match(length)
        except RuleError as err:
            raise IllegalAction(str(err)) from None
        if color is None:
            color = secrets.choice((Color.WHITE, Color.BLACK))
        color = Color(color)

        def fn(s: Session) -> GameView:
            me = self._player(s, player_id)
            other_id = None
            if opponent is not None:
                other = player_by_name(s, opponent)
                if other is None:
                    raise NotFound(f"there is no player called {opponent!r}")
                if other.id == me.id:
                    raise IllegalAction("you cannot play against yourself")
                other_id = other.id
            now = self.clock()
            g = Game(
                status=OPEN if other_id is None else ACTIVE,
                length=length,
                creator_id=me.id,
                white_id=me.id if color is Color.WHITE else other_id,
                black_id=me.id if color is Color.BLACK else other_id,
                to_act_id=None,
                phase=state.phase.value,
                game_no=state.game,
                score_white=0,
                score_black=0,
                cube=1,
                crawford=False,
                crawford_done=False,
                version=1,
                event_count=0,
                state=state_to_dict(state),
                created=now,
                updated=now,
            )
            s.add(g)
            s.flush()
            # -1: who sits down (a joiner, or the creator who invited them) is news to the other.
            s.add(ReadMark(player_id=me.id, game_id=g.id, seq=-1 if other_id is None else 0))
            if other_id is not None:
                s.add(ReadMark(player_id=other_id, game_id=g.id, seq=-1))
            self._notify(s, g.id, g.version, g.white_id, g.black_id)
            return self._view(s, g, player_id, state)

        return self.transaction(fn)

    def join_game(self, player_id: int, game_id: int) -> GameView:
        """The player takes the free seat of open game `game_id`; the match begins.

        Raises NotFound (no such game), AccountClosed (the player deleted), IllegalAction (the
        match is over, they already sit in it), GameChanged (someone else took the seat first).
        """
        def fn(s: Session) -> GameView:
            g = game_row(s, game_id)
            me = self._player(s, player_id)
            if g.status in OVER:
                raise IllegalAction("that match is over")
            if self._color_of(g, me.id) is not None:
                raise IllegalAction("you are already seated in that game")
            if g.status != OPEN:
                raise GameChanged("someone else took that seat first")
            seat = "white_id" if g.white_id is None else "black_id"
            self._bump(s, g, g.version, {seat: me.id, "status": ACTIVE, "updated": self.clock()})
            self._set_mark(s, me.id, g.id, g.event_count)
            return self._view(s, g, player_id)

        return self.transaction(fn)

    def withdraw_game(self, player_id: int, game_id: int, version: int | None = None) -> tuple[int, ...]:
        """Take back an open game the player began and nobody has joined, or call off a match
        of the player's own that nobody has rolled in yet (either player may: one named in a
        game they did not want had no other way out).  The game goes, as if never begun; the
        other player is left a notice (see notices).  The game's players.

        `version`: the game as the player saw it when they chose to (a seat taken meanwhile had
        let 'Nobody has joined it' withdraw a game just joined).

        Raises NotFound, IllegalAction (not theirs, or under way), GameChanged (not at `version`).
        """

        def fn(s: Session) -> tuple[int, ...]:
            g = game_row(s, game_id)
            if version is not None:
                if g.version != version:
                    raise GameChanged("the game has changed since you last looked; look again")
                # Held against a join racing this (its update checks the version too).
                held = s.execute(update(GAMES).where(GAMES.c.id == g.id, GAMES.c.version == version)
                                 .values(version=version + 1))
                if db.rowcount(held) != 1:
                    raise GameChanged("someone else acted on this game first; look again")
            if g.status == OPEN:
                if g.creator_id != player_id:
                    raise IllegalAction("only the player who began a game can withdraw it")
            elif player_id not in (g.white_id, g.black_id):
                raise IllegalAction("only a player of a game can withdraw from it")
            elif g.status != ACTIVE or g.event_count:
                raise IllegalAction("the match is under way: it can be withdrawn only before its first roll")
            s.execute(delete(ReadMark).where(ReadMark.game_id == g.id))
            s.execute(delete(GameEvent).where(GameEvent.game_id == g.id))
            seats = tuple(pid for pid in (g.white_id, g.black_id) if pid is not None)
            me = s.get(Player, player_id)
            for other in seats:
                if other != player_id and me is not None:
                    self.leave_notice(s, other, "withdrawn", g, me.handle)
            s.delete(g)
            self._notify(s, g.id, None, g.white_id, g.black_id)
            return seats

        return self.transaction(fn)

    def leave_notice(self, s: Session, player_id: int, kind: str, g: Game, other: str, now: str = "") -> None:
        """A notice for `player_id` of what became of game `g` (see Notice), in the caller's
        transaction.  Raises nothing of its own."""
        s.add(Notice(player_id=player_id, kind=kind, game_id=g.id, length=g.length, other=other, now=now,
                     created=self.clock()))

    def touch_game(self, s: Session, g: Game) -> None:
        """A change to game `g` with nothing played (a sysop's rename), in the caller's
        transaction: its version moves, so every process's change feed wakes the screens on it.
        Raises GameChanged when another writer moved it first."""
        self._bump(s, g, g.version, {})

    def notices(self, player_id: int) -> list[GameNotice]:
        """The player's notices, oldest first, until clear_notices.  Raises nothing of its own."""

        def fn(s: Session) -> list[GameNotice]:
            rows = s.scalars(select(Notice).where(Notice.player_id == player_id).order_by(Notice.id))
            return [GameNotice(r.id, r.kind, r.game_id, r.length, r.other, r.now) for r in rows]

        return self.transaction(fn, write=False)

    def clear_notices(self, player_id: int, upto: int) -> None:
        """The player has been told their notices up to (and including) the one numbered `upto`.
        Raises nothing of its own."""
        self.transaction(
            lambda s: s.execute(delete(Notice).where(Notice.player_id == player_id, Notice.id <= upto)) and None
        )

    # ---------------------------------------------------------------- playing

    def _bump(self, s: Session, g: Game, version: int, values: dict[str, Any]) -> None:
        """UPDATE the game WHERE version is still the one read; of racing writers, one wins."""
        values = {**values, "version": version + 1}
        # Core, not ORM: this runs on every action
        result = s.execute(update(GAMES).where(GAMES.c.id == g.id, GAMES.c.version == version).values(**values))
        if db.rowcount(result) != 1:
            raise GameChanged("someone else acted on this game first; look again")
        for key, value in values.items():
            set_committed_value(g, key, value)
        self._notify(s, g.id, version + 1, values.get("white_id", g.white_id), values.get("black_id", g.black_id))

    @staticmethod
    def _notify(s: Session, game_id: int, version: int | None, white_id: int | None, black_id: int | None) -> None:
        """PostgreSQL: tell every process's change feed, in the committing transaction (sent on commit)."""
        if s.get_bind().dialect.name == "postgresql":
            payload = feed.notify_payload(game_id, version or 0, white_id, black_id)
            # One channel per schema: installations sharing a database do not hear each other.
            notify = text("SELECT pg_notify(:channel || current_schema(), :payload)")
            s.execute(notify, {"channel": feed.CHANNEL, "payload": payload})

    def _act(
        self,
        player_id: int,
        game_id: int,
        version: int,
        make: Callable[[MatchState, Color], list[Event]],
        anyone: bool = False,
        note: str | None = None,
    ) -> GameView:
        """Apply the events make() returns for the player, recording them and everything they cause.

        anyone: either seated player may act, not only the one the rules wait for.
        """

        def fn(s: Session) -> GameView:
            g = game_row(s, game_id)
            if g.status in OVER:
                raise IllegalAction("this match is over")
            if g.status == OPEN:
                raise IllegalAction("this game is still waiting for an opponent")
            if g.version != version:
                raise GameChanged("the game has changed since you last looked; look again")
            color = self._color_of(g, player_id)
            if color is None:
                raise NotYourTurn("you are not playing in this game")
            state = state_from_dict(g.state)
            if not anyone and state.actor is not None and state.actor is not color:
                raise NotYourTurn("it is your opponent's turn")
            try:
                submitted = make(state, color)
            except RuleError as err:
                raise IllegalAction(str(err)) from None
            state = self.record_events(s, g, version, state, [(e, player_id, color) for e in submitted], note=note)
            if note is not None:
                # Sent: no longer a draft for the player's next look (another door node of theirs
                # had shown it as waiting, and sent it again with their next turn).
                mark = s.get(ReadMark, (player_id, game_id))
                if mark is not None:
                    mark.draft_note = None
            return self._view(s, g, player_id, state)

        return self.transaction(fn)

    def record_events(
        self,
        s: Session,
        g: Game,
        version: int,
        state: MatchState,
        submitted: list[tuple[Event, int | None, Color | None]],
        note: str | None = None,
    ) -> MatchState:
        """Within transaction `s`: apply and append events, update the games row (checking its
        version), rate a finished match; the state after.  A building block of the operations
        here and in service.sysop.  Raises IllegalAction when the rules refuse an event and
        GameChanged when the row is no longer at `version`.

        note: the actor's note to the opponent, kept with the first event they made (a play, a
        double, a take, a drop, a resignation or its answer), not one the rules derived."""
        now = self.clock()
        was_over = state.over
        rows: list[dict[str, Any]] = []
        last_play: dict[Color, dict[str, Any]] = {}
        seq = g.event_count
        for event, pid, color in submitted:
            before = state
            try:
                state, out = rules.apply(state, event)
            except RuleError as err:
                raise IllegalAction(str(err)) from None
            for recorded in out:
                if isinstance(recorded, rules.Move) and before.turn is not None:
                    last_play[before.turn] = {"seq": seq, "before": state_to_dict(before)}
                noted = None
                if note and not recorded.derived and pid is not None:
                    noted, note = note, None
                rows.append(
                    dict(
                        game_id=g.id,
                        seq=seq,
                        type=recorded.type,
                        payload=recorded.to_dict(),
                        player_id=pid,
                        color=color and color.value,
                        created=now,
                        note=noted,
                    )
                )
                seq += 1
        actor = state.actor
        ended = state.over and not was_over
        forfeited = any(isinstance(e, rules.Forfeit) for e, _, _ in submitted)
        values: dict[str, Any] = {
            "phase": state.phase.value,
            "to_act_id": None if actor is None else (g.white_id if actor is Color.WHITE else g.black_id),
            "game_no": state.game,
            "score_white": state.score[0],
            "score_black": state.score[1],
            "cube": state.cube,
            "cube_owner": state.cube_owner and state.cube_owner.value,
            "crawford": state.crawford,
            "crawford_done": state.crawford_done,
            "event_count": seq,
            "state": state_to_dict(state),
            "updated": now,
        }
        for color, data in last_play.items():
            values[f"last_play_{color.value}"] = data
        if ended:
            values["status"] = ABANDONED if forfeited else FINISHED
            values["winner_id"] = g.white_id if state.winner is Color.WHITE else g.black_id
        self._bump(s, g, version, values)
        if rows:
            s.execute(insert(EVENTS), rows)
        self._count_wins(s, g, rows)
        if ended:
            self._rate(s, g, state, now)
        return state

    @staticmethod
    def _count_wins(s: Session, g: Game, rows: list[dict[str, Any]]) -> None:
        for row in rows:
            if row["type"] != rules.GameWon.type:
                continue
            win = row["payload"]["win"]
            if win == Win.SINGLE.value:
                continue
            winner = g.white_id if row["payload"]["winner"] == Color.WHITE.value else g.black_id
            counts: dict[str, Any] = {"gammons": Player.gammons + 1}
            if win == Win.BACKGAMMON.value:
                counts["backgammons"] = Player.backgammons + 1
            s.execute(update(Player).where(Player.id == winner).values(**counts))

    @staticmethod
    def _rate(s: Session, g: Game, state: MatchState, now: datetime) -> None:
        """FIBS ratings for a finished match, each player with their own experience."""
        winner_id = g.white_id if state.winner is Color.WHITE else g.black_id
        loser_id = g.black_id if state.winner is Color.WHITE else g.white_id
        assert winner_id is not None and loser_id is not None  # a finished match has both seats filled
        # Locked in id order (PostgreSQL), so two matches ending together cannot deadlock or lose an update.
        players = {
            p.id: p
            for p in s.scalars(
                select(Player).where(Player.id.in_([winner_id, loser_id])).order_by(Player.id).with_for_update()
            )
        }
        w, lo = players[winner_id], players[loser_id]
        change = rating_change(w.rating, lo.rating, g.length, w.experience, lo.experience)
        for p, other, won, new in (
            (w, lo, True, w.rating + change.winner_gain),
            (lo, w, False, lo.rating - change.loser_loss),
        ):
            s.add(
                RatingEntry(
                    player_id=p.id,
                    game_id=g.id,
                    opponent_id=other.id,
                    won=won,
                    rating_before=p.rating,
                    rating=new,
                    experience=p.experience + g.length,
                    created=now,
                )
            )
            p.rating = new
            p.experience += g.length
            p.last_played = now
            if won:
                p.wins += 1
            else:
                p.losses += 1

    def roll(self, player_id: int, game_id: int, version: int) -> GameView:
        """Roll the dice (the opening roll too).  The dice are committed before they are returned.

        Raises NotFound, NotYourTurn, GameChanged (`version` is not the game's), IllegalAction
        (the rules do not allow a roll now).
        """

        def make(state: MatchState, color: Color) -> list[Event]:
            if state.phase is Phase.OPENING:
                rolls: list[Event] = []
                while True:  # a tie is rolled again, in this same transaction; each roll is recorded
                    white, black = self.dice.die(), self.dice.die()
                    rolls.append(rules.OpeningRoll(white, black))
                    if white != black:
                        return rolls
            if state.phase is not Phase.ROLL:
                rules.apply(state, rules.Roll((1, 1)))  # raises the rules' own reason; no dice drawn
            return [rules.Roll((self.dice.die(), self.dice.die()))]

        # The opening roll has no actor, so either seated player passes the turn check for it.
        return self._act(player_id, game_id, version, make)

    def submit_turn(
        self,
        player_id: int,
        game_id: int,
        version: int,
        play: str,
        note: str | None = None,
        path: Sequence[tuple[int, int]] = (),
    ) -> GameView:
        """A whole turn, as notation or a resulting Position ID; "" passes a turn with no legal play.

        note: up to NOTE_LENGTH printable characters for the opponent, kept with the turn.
        path: the moves as the player made them (source and destination, 25 the bar, 0 off), for
        V)iew last to replay in that order (else the order notation writes them in); ignored where
        they do not make the play.
        Raises NotFound, NotYourTurn, GameChanged (`version` is not the game's), IllegalAction
        (not a legal play of the roll, saying why; a malformed note).
        """
        note = check_note(note)

        def make(state: MatchState, color: Color) -> list[Event]:
            if state.phase is not Phase.MOVE:
                rules.apply(state, rules.Move("", state.position.id))  # raises the rules' own reason
            found = find_play(state, play)
            after = state.position.swap() if found is None else found.position
            made: tuple[tuple[int, int], ...] = ()
            hops = path or written_hops(play)  # a typed play's order is the order it is written in
            if found is not None and hops and state.dice is not None:
                moves = as_played(state.position, state.dice, hops, found)
                made = tuple((m.src, m.dst) for m in moves or ())
            return [rules.Move("" if found is None else str(found), after.id, made)]

        return self._act(player_id, game_id, version, make, note=note)

    def double(self, player_id: int, game_id: int, version: int, note: str | None = None) -> GameView:
        """Offer the cube.  Raises NotFound, NotYourTurn, GameChanged, IllegalAction (the rules do not
        allow a double now: the Crawford game, a cube the opponent owns, ...; a malformed note).

        note: for the opponent, kept with the double (as with a turn; so for take, drop,
        resign and answer_resign).
        """
        note = check_note(note)
        return self._act(player_id, game_id, version, lambda state, color: [rules.Double()], note=note)

    def take(self, player_id: int, game_id: int, version: int, note: str | None = None) -> GameView:
        """Take the double offered.  Raises NotFound, NotYourTurn, GameChanged, IllegalAction (no
        double is offered; a malformed note).
        """
        note = check_note(note)
        return self._act(player_id, game_id, version, lambda state, color: [rules.Take()], note=note)

    def drop(self, player_id: int, game_id: int, version: int, note: str | None = None) -> GameView:
        """Drop the double offered, losing the game at the cube's old value.  Raises NotFound,
        NotYourTurn, GameChanged, IllegalAction (no double is offered; a malformed note).
        """
        note = check_note(note)
        return self._act(player_id, game_id, version, lambda state, color: [rules.Drop()], note=note)

    def resign(
        self, player_id: int, game_id: int, version: int, win: Win = Win.SINGLE, note: str | None = None
    ) -> GameView:
        # Either player may offer to resign while a turn is under way, not only the one on roll.
        """Offer to resign, giving up `win` (a single game, a gammon or a backgammon); either player
        may while a turn is under way.  Raises NotFound, NotYourTurn (not seated), GameChanged,
        IllegalAction (the rules do not allow it now; a malformed note).
        """
        note = check_note(note)

        def make(state: MatchState, color: Color) -> list[Event]:
            return [rules.Resign(color, Win(win))]

        return self._act(player_id, game_id, version, make, anyone=True, note=note)

    def answer_resign(
        self, player_id: int, game_id: int, version: int, accept: bool, note: str | None = None
    ) -> GameView:
        """Accept (the match goes on with the points given) or reject the opponent's resignation.

        Raises NotFound, NotYourTurn, GameChanged, IllegalAction (no resignation is offered; a
        malformed note).
        """
        note = check_note(note)

        def make(state: MatchState, color: Color) -> list[Event]:
            return [rules.AcceptResign() if accept else rules.RejectResign()]

        return self._act(player_id, game_id, version, make, note=note)

    def last_turn(self, game_id: int, viewer_id: int | None = None) -> LastTurn | None:
        """The last turn played by the viewer's opponent (or by anyone, for a watcher); None before
        any.  Raises NotFound.
        """

        def fn(s: Session) -> LastTurn | None:
            g = game_row(s, game_id)
            seat = self._color_of(g, viewer_id)
            plays = {Color.WHITE: g.last_play_white, Color.BLACK: g.last_play_black}
            if seat is not None:
                by = seat.other
            else:
                seen = {c: p["seq"] for c, p in plays.items() if p is not None}
                if not seen:
                    return None
                by = max(seen, key=seen.__getitem__)
            data = plays[by]
            if data is None:
                return None
            row = s.scalars(select(GameEvent).where(GameEvent.game_id == g.id, GameEvent.seq == data["seq"])).one()
            before = state_from_dict(data["before"])
            assert before.dice is not None
            moves: tuple[Move, ...] = ()
            if row.payload["notation"]:
                # The record keeps the resulting position; the single moves come back from the rules,
                # in the order the notation reads (the news's and the replay's caption's).
                after = row.payload["position"]
                play = next(p for p in legal_plays(before.position, before.dice) if p.position.id == after)
                # As the player made them where the record says (a replay in another order had shown
                # a checker land where it never did), else in the notation's order.
                path = [(int(a), int(b)) for a, b in row.payload.get("path", ())]
                moves = (path and as_played(before.position, before.dice, path, play)) or \
                    in_notation_order(before.position, before.dice, play)
            return LastTurn(
                by=by,
                dice=before.dice,
                before=before,
                moves=moves,
                notation=row.payload["notation"],
                when=row.created,
                note=row.note if seat is not None else None,  # a note is for the opponent, not a watcher
                seq=row.seq,
            )

        return self.transaction(fn, write=False)

    # -------------------------------------------------------------------- news

    @staticmethod
    def _set_mark(s: Session, player_id: int, game_id: int, seq: int) -> bool:
        """Whether the mark moved."""
        mark = s.get(ReadMark, (player_id, game_id))
        if mark is None:
            s.add(ReadMark(player_id=player_id, game_id=game_id, seq=seq))
            return True
        if seq > mark.seq:
            mark.seq = seq
            return True
        return False

    def mark_read(self, player_id: int, game_id: int, upto: int) -> None:
        """The player has seen the game's record up to (not including) event `upto`.

        Raises NotFound.
        """

        def fn(s: Session) -> None:
            g = game_row(s, game_id)
            if self._color_of(g, player_id) is None:
                return
            if self._set_mark(s, player_id, g.id, min(upto, g.event_count)):
                if s.get_bind().dialect.name == "postgresql":
                    # The player's menus in other processes count it (see ChangeFeed.follow_reads).
                    notify = text("SELECT pg_notify(:channel || current_schema(), :payload)")
                    s.execute(notify, {"channel": feed.CHANNEL, "payload": feed.read_payload(player_id)})

        self.transaction(fn)

    def game_log(self, game_id: int, viewer_id: int | None = None) -> GameLog:
        """The whole record of a game, for news and review, with what `viewer_id` has read.

        Raises NotFound.
        """

        def fn(s: Session) -> GameLog:
            g = game_row(s, game_id)
            rows = s.execute(
                select(GameEvent.seq, GameEvent.payload, GameEvent.player_id, GameEvent.created, GameEvent.note)
                .where(GameEvent.game_id == g.id)
                .order_by(GameEvent.seq)
            ).all()
            viewer = s.get(Player, viewer_id) if viewer_id is not None else None
            # A note is for the opponent: a watcher sees none, nor does a player who turned notes
            # off (their own stay theirs to see).
            seated = self._color_of(g, viewer_id) is not None
            hidden = viewer is not None and (not seated or not viewer.notes)
            events = tuple(
                LoggedEvent(
                    seq, rules.event_from_dict(payload), pid, when, None if hidden and pid != viewer_id else note
                )
                for seq, payload, pid, when, note in rows
            )
            mark = s.get(ReadMark, (viewer_id, g.id)) if viewer_id is not None else None
            read = (
                g.event_count
                if viewer_id is None or self._color_of(g, viewer_id) is None
                else (mark.seq if mark else 0)
            )
            rated = s.execute(
                select(Player.id, Player.handle, RatingEntry.rating_before, RatingEntry.rating)
                .join(Player, Player.id == RatingEntry.player_id)
                .where(RatingEntry.game_id == g.id)
                .order_by(RatingEntry.id)
            ).all()
            # Named as the board names them ('carol~2@DP'), not by the bare handle beside it.
            shown = self._handles(s, *(pid for pid, *_ in rated))
            ratings = [(shown.get(pid, handle), before, after) for pid, handle, before, after in rated]
            return GameLog(
                game=self._view(s, g, viewer_id),
                creator_id=g.creator_id,
                events=events,
                read_upto=read,
                ratings=tuple(MatchRating(h, before, after) for h, before, after in ratings),
            )

        return self.transaction(fn, write=False)

    def unread(self, player_id: int) -> list[Unread]:
        """The player's games with news: events someone else caused, or a seating not yet seen.

        Raises nothing of its own.
        """

        def fn(s: Session) -> list[Unread]:
            seated = or_(Game.white_id == player_id, Game.black_id == player_id)
            mark = func.coalesce(ReadMark.seq, 0)
            rows = s.execute(
                select(Game.id, mark, Game.event_count, Game.status)
                .outerjoin(ReadMark, and_(ReadMark.game_id == Game.id, ReadMark.player_id == player_id))
                .where(seated, or_(Game.event_count > mark, and_(mark < 0, Game.status != OPEN)))
                .order_by(Game.updated.desc())
            ).all()
            found = []
            for gid, since, count, status in rows:
                if since < 0 and status != OPEN:
                    found.append(Unread(gid, since, count))
                    continue
                other = s.scalar(
                    select(GameEvent.id)
                    .where(
                        GameEvent.game_id == gid,
                        GameEvent.seq >= since,
                        or_(GameEvent.player_id.is_(None), GameEvent.player_id != player_id),
                    )
                    .limit(1)
                )
                if other is not None:
                    found.append(Unread(gid, since, count))
            return found

        return self.transaction(fn, write=False)

    def finished_games(self, player_id: int, limit: int = 100) -> list[GameSummary]:
        """The player's finished matches, most recent first (at most `limit`).  Raises nothing of
        its own.
        """
        seated = or_(Game.white_id == player_id, Game.black_id == player_id)
        return self.transaction(
            lambda s: game_summaries(s, Game.status.in_(OVER), seated, limit=limit, always=self.always), write=False
        )

    def forfeit_stale(self, days: float, reason: str = "time") -> list[int]:
        """Forfeit games whose player to act has not acted for `days` (they lose the match, rated);
        their ids.  `reason` is recorded with each forfeit ("sysop": the sysop ended every game
        waiting, however briefly it had).  Raises nothing of its own: a game that moved meanwhile
        is left alone.
        """

        def fn(s: Session) -> list[int]:
            cutoff = self.clock() - timedelta(days=days)
            stale = s.scalars(
                select(Game)
                .where(Game.status == ACTIVE, Game.to_act_id.is_not(None), Game.updated < cutoff)
                .order_by(Game.id)
            ).all()
            done = []
            for g in stale:
                state = state_from_dict(g.state)
                if state.actor is None:
                    continue
                self.record_events(s, g, g.version, state, [(rules.Forfeit(state.actor, reason), None, None)])
                done.append(g.id)
            return done

        return self.transaction(fn)

    # ---------------------------------------------------------------- rankings

    def rankings(
        self, limit: int | None = 20, include_unrated: bool = False, board: str | None = None
    ) -> list[RankRow]:
        """The top `limit` players by rating (None: all of them); players who have finished no
        match only with include_unrated.  board: None for the whole league; "" for this system's own players
        (telnet and door); a member BBS's tag for its players only.  Raises nothing of its own.
        """

        def fn(s: Session) -> list[RankRow]:
            query = select(Player).order_by(Player.rating.desc(), Player.id).limit(limit)
            if not include_unrated:
                query = query.where(Player.experience > 0)
            if board == "":
                query = query.where(Player.origin != "bbs")
            elif board is not None:
                query = query.where(Player.origin == "bbs", Player.bbs_tag == board.upper())
            always = self.always
            found = list(s.scalars(query))
            shared = shared_aliases(s, [(p.id, p.handle) for p in found if p.origin == "bbs" and p.bbs_tag
                                        and p.handle == p.login_name and not always])
            return [
                RankRow(
                    rank=i,
                    handle=display_name(p.handle, p.origin, p.bbs_tag, p.login_name, always or p.id in shared),
                    rating=p.rating,
                    wins=p.wins,
                    losses=p.losses,
                    experience=p.experience,
                    gammons=p.gammons,
                    last_played=p.last_played,
                    is_bot=p.is_bot,
                    board=p.bbs_tag if p.origin == "bbs" else "",
                )
                for i, p in enumerate(found, 1)
            ]

        return self.transaction(fn, write=False)

    def player_page(self, handle: str) -> PlayerPage:
        """A player's page: their counts and rating history.  Raises NotFound (no player called
        `handle`).
        """
        def fn(s: Session) -> PlayerPage:
            p = player_by_name(s, handle)
            if p is None:
                raise NotFound(f"there is no player called {handle!r}")
            history = s.execute(
                select(RatingEntry.created, RatingEntry.rating)
                .where(RatingEntry.player_id == p.id)
                .order_by(RatingEntry.id)
            ).all()
            return PlayerPage(
                player=self._info(p),
                games=p.wins + p.losses,
                wins=p.wins,
                losses=p.losses,
                gammons=p.gammons,
                backgammons=p.backgammons,
                # From the rating every player starts with: one match's change is a step, not a level.
                rating_history=[(p.created, START_RATING)] + [(when, rating) for when, rating in history]
                if history else [],
            )

        return self.transaction(fn, write=False)
