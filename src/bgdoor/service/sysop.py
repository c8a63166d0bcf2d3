"""What a sysop does to the database without opening it: list, fix and remove players and games.

Each operation is one transaction through the service's own transaction
helper, so it takes the same locks and retries as a caller's turn and can run
while the door is up.  Operations that change something take `dry_run`: the
change is made, described and rolled back, so the confirmation a sysop is
shown comes from the same code that will do the work.  They return the
description, one line per thing changed.

Deleting a player:
- a player who sits in unfinished games is refused unless `force`; with it,
  each active game is forfeited by them (recorded, rated, the opponent wins,
  as when a player lets a game go stale) and each game still waiting for an
  opponent is deleted;
- a player with no recorded games left is deleted outright;
- otherwise the row stays, as a tombstone: the handle becomes "(deleted)",
  the password and counters are cleared (experience 0 keeps it out of the
  rankings), and the handle is free again.  Finished games, their events and
  the opponents' rating history stay as they were, under "(deleted)".

A process that is already running (a `bgdoor serve`, a door node) keeps the
handles it has seen in memory for up to HANDLE_CACHE_SECONDS (service.core), so
it shows a renamed or deleted player under the old handle until it reads them
again.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import delete, func, or_, select
from sqlalchemy.orm import Session

from bgdoor.rules import game as rules
from bgdoor.rules.game import FORFEIT_WHY, Color
from bgdoor.rules.matchid import match_id
from bgdoor.rules.moves import roll_text
from bgdoor.rules.rating import START_RATING
from bgdoor.service import passwords
from bgdoor.service.core import (
    ACTIVE,
    DELETED_KEY,
    OPEN,
    Service,
    display_name,
    game_row,
    game_summaries,
    handle_refusal,
    normal_handle,
    player_by_name,
    player_names,
)
from bgdoor.service.types import BadHandle, BadPassword, GameSummary, IllegalAction, NotFound
from bgdoor.store import db, handles
from bgdoor.store.models import Game, GameEvent, MemberBBS, Notice, Player, RatingEntry, ReadMark
from bgdoor.store.snapshot import state_from_dict

T = TypeVar("T")

STATUSES = ("open", "active", "finished", "abandoned")
DELETED_NAME = "(deleted)"
# Generated passwords: no 0/O, 1/l/I, so they survive being read out over the phone.
PASSWORD_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
PASSWORD_LENGTH = 12
FORFEIT_REASON = "player deleted"


class PlayerInGames(IllegalAction):
    """The player sits in unfinished games; deleting them needs force."""

    def __init__(self, handle: str, game_ids: list[int]) -> None:
        self.handle = handle
        self.game_ids = game_ids
        listed = ", ".join(str(i) for i in game_ids)
        super().__init__(f"{handle} sits in unfinished game{'s' if len(game_ids) != 1 else ''} {listed}")


class NothingToChange(Exception):
    """What the sysop asked for is so already: nothing to ask about, nothing done.  Not a
    ServiceError: the command did what it was asked, and says why it changed nothing."""


@dataclass(frozen=True)
class PlayerRow:
    id: int
    handle: str
    rating: float
    wins: int
    losses: int
    experience: int
    created: datetime
    last_seen: datetime | None
    login: str  # "password" (telnet), "door" (BBS door only) or "bot"

    @property
    def is_bot(self) -> bool:
        return self.login == "bot"


@dataclass(frozen=True)
class EventRow:
    seq: int
    when: datetime
    player: str | None  # who acted; None for what no player did (a forfeit, and the win it gives)
    color: str | None
    type: str
    text: str


@dataclass(frozen=True)
class GameRecord:
    summary: GameSummary
    created: datetime
    winner: str | None
    cube: int
    phase: str
    position_id: str
    match_id: str
    events: list[EventRow]


@dataclass(frozen=True)
class MatchRecord:
    white: str  # "" for an open seat
    black: str
    length: int
    events: list[rules.Event]
    created: date
    notes: dict[int, str] = field(default_factory=dict)  # players' notes, by index in events


def is_deleted(player: Player) -> bool:
    return player.handle_key.startswith(DELETED_KEY)


def generate_password() -> str:
    return "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(PASSWORD_LENGTH))


@dataclass(frozen=True)
class MemberPlayer:
    """One player of a member BBS, as `sysop bbses` lists them."""

    handle: str
    alias: str  # their alias on the board (the identity's login name)
    last_seen: datetime | None


@dataclass(frozen=True)
class MemberRow:
    """A member BBS: door.cfg's section, its players here, and whether it is suspended."""

    tag: str
    name: str  # from door.cfg; "" when door.cfg no longer has the section
    players: int
    last_activity: datetime | None  # its players' last visit
    suspended: bool
    reason: str
    roster: tuple[MemberPlayer, ...] = ()  # its players, the latest seen first


def _unfinished(s: Session, player_id: int) -> list[Game]:
    """The player's open and active games, oldest first."""
    seated = or_(Game.white_id == player_id, Game.black_id == player_id)
    return list(s.scalars(select(Game).where(seated, Game.status.in_((OPEN, ACTIVE))).order_by(Game.id)))


def _tense(dry_run: bool) -> Callable[[str], str]:
    """`did("deleted")`: "deleted" after the change, "will be deleted" in its preview."""
    return (lambda done: f"will be {done}") if dry_run else (lambda done: done)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# After a forfeit: a bare ", rated" at the end of the line had read as cut off.
RATED = " (rated)"


def days_text(days: float) -> str:
    """A number of days as the sysop reads it: '1 day', '2.5 days', '14 days' (not '14.0')."""
    return f"{days:g} day{'' if days == 1 else 's'}"


def event_text(payload: dict[str, Any], cube: int = 1, decides: bool = False) -> str:
    """One recorded event in words, for the sysop's view of a game; `cube`: its value before the
    event, as the record stood; `decides`: an offer to resign whose points end the match."""
    kind = payload.get("type")
    if kind == "double":
        # As the callers' news says it: 'doubles' alone had not said a redouble, nor to what.
        return f"{'redoubles' if cube > 1 else 'doubles'} to {cube * 2}"
    if kind == "opening_roll":
        return f"opening roll: white {payload['white']}, black {payload['black']}"
    if kind == "roll":
        return f"rolls {roll_text(tuple(payload['dice']))}"  # as every caller's screen says it
    if kind == "play":
        return f"plays {payload['notation']}" if payload["notation"] else "cannot move"
    if kind == "resign":
        # A verb, as the other rows: the row names who; 'white offers to resign a single' had
        # read as cut off.  With the points, as the players read it.
        offered = {"single": "a single game"}.get(payload["win"], f"a {payload['win']}")
        worth = cube * rules.Win(payload["win"]).multiplier
        # '(1 point, the match)', as the players read it.
        return f"offers to resign, giving {offered} ({_plural(worth, 'point')}{', the match' if decides else ''})"
    if kind == "forfeit":
        why = FORFEIT_WHY.get(payload.get("reason", ""), payload.get("reason", ""))
        return f"{payload['loser']} forfeits the match ({why})"
    if kind == "win":
        if payload["how"] == "forfeit":
            # The points are what the match still needed: '3 points (single, forfeit)' read as a
            # single game won, where the players are told only 'wins by forfeit'.
            return f"{payload['winner']} wins by forfeit ({_plural(payload['points'], 'point')} awarded)"
        return f"{payload['winner']} wins {_plural(payload['points'], 'point')} ({payload['win']}, {payload['how']})"
    if kind == "match_won":
        return f"{payload['winner']} wins the match"
    words = {
        "take": "takes",
        "drop": "drops",
        "accept_resign": "accepts the resignation",
        "reject_resign": "refuses the resignation",  # as the players read it
    }
    return words.get(str(kind), str(kind))


class _Rollback(Exception):
    """Raised inside a dry run's transaction so that it rolls back; carries the description."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines


class Sysop:
    def __init__(self, service: Service) -> None:
        self.service = service

    # ------------------------------------------------------------- helpers

    def _read(self, fn: Callable[[Session], T]) -> T:
        return self.service.transaction(fn, write=False)

    def _change(self, fn: Callable[[Session], list[str]], dry_run: bool) -> str:
        def work(s: Session) -> list[str]:
            lines = fn(s)
            if dry_run:
                raise _Rollback(lines)
            return lines

        try:
            lines = self.service.transaction(work)
        except _Rollback as preview:
            lines = preview.lines
        return "\n".join(lines)

    def _find(self, s: Session, handle: str) -> Player:
        # As callers name players: typed in ASCII, by the name an ASCII terminal shows ('Jose_Muller'
        # for José_Müller, where it is one player's), which a sysop on one had no way to type.
        p = player_by_name(s, handle)
        if p is None:
            raise NotFound(f"there is no player called {handle!r}")
        return p

    def _names(self, s: Session, ids: set[int | None]) -> dict[int, str]:
        wanted = [i for i in ids if i is not None]
        if not wanted:
            return {}
        return {pid: handle for pid, handle in s.execute(select(Player.id, Player.handle).where(Player.id.in_(wanted)))}

    # --------------------------------------------------------------- lists

    def players(self) -> list[PlayerRow]:
        """Every player but deleted ones, by handle without regard to case."""

        def fn(s: Session) -> list[PlayerRow]:
            rows = []
            for p in s.scalars(select(Player).order_by(Player.handle_key)):
                if is_deleted(p):
                    continue
                # A member BBS's caller says which BBS (a local door caller has no tag).
                login = ("bot" if p.is_bot else f"RLogin {p.bbs_tag}" if p.origin == "bbs"
                         else "door" if p.password_hash is None else "password")
                rows.append(
                    PlayerRow(p.id, p.handle, p.rating, p.wins, p.losses, p.experience, p.created, p.last_seen, login)
                )
            return rows

        return self._read(fn)

    def any_players(self) -> bool:
        """Whether players() would list anyone, read no further than the first (a served database
        holds the computer players at least)."""
        return self._read(lambda s: any(not is_deleted(p) for p in s.scalars(select(Player))))

    def games(
        self, status: str | None = None, player: str | None = None, stale_days: float | None = None
    ) -> list[GameSummary]:
        """Games, most recently active first; stale_days: unfinished games with no activity for that long."""
        if status is not None and status not in STATUSES:
            raise IllegalAction(f"a game's status is one of {', '.join(STATUSES)}, not {status!r}")
        if stale_days is not None and stale_days < 0:
            raise IllegalAction("a number of days cannot be negative")

        def fn(s: Session) -> list[GameSummary]:
            where: list[Any] = []
            if status is not None:
                where.append(Game.status == status)
            if player is not None:
                p = self._find(s, player)
                where.append(or_(Game.white_id == p.id, Game.black_id == p.id))
            if stale_days is not None:
                cutoff = self.service.clock() - timedelta(days=stale_days)
                where += [Game.status.in_((OPEN, ACTIVE)), Game.updated < cutoff]
            return game_summaries(s, *where)

        return self._read(fn)

    def game(self, game_id: int) -> GameRecord:
        """One game and its whole record, event by event."""

        def fn(s: Session) -> GameRecord:
            g = game_row(s, game_id)
            (summary,) = game_summaries(s, Game.id == g.id)
            rows = list(s.scalars(select(GameEvent).where(GameEvent.game_id == g.id).order_by(GameEvent.seq)))
            # As the header (game_summaries) names them: carol~2 was carol~2@OTHER up there.
            seats = {"white": g.white_id, "black": g.black_id}
            names = player_names(s, {r.player_id for r in rows} | {g.winner_id} | set(seats.values()), always=False)
            state = state_from_dict(g.state)

            def who(r: GameEvent) -> tuple[int | None, str | None]:
                # A win's row names the winner: it had named whoever acted last, the dropper
                # ('alice  white  black wins 1 point (single, drop)').
                if r.type in ("win", "match_won") and r.player_id is not None and r.payload.get("winner") in seats:
                    return seats[r.payload["winner"]], r.payload["winner"]
                return r.player_id, r.color

            events, cube, game, begun = [], 1, 1, True
            scores = {"white": 0, "black": 0}
            for r in rows:
                pid, colour = who(r)
                decides = False
                if r.type == "resign" and g.length:
                    taker = "black" if r.payload.get("by") == "white" else "white"
                    decides = scores[taker] + cube * rules.Win(r.payload["win"]).multiplier >= g.length
                text = event_text(r.payload, cube, decides)
                if r.type == "win" and r.payload.get("winner") in scores:
                    scores[r.payload["winner"]] += int(r.payload.get("points", 0))
                if r.type == "opening_roll" and not begun:
                    text = f"game {game}: {text}"  # where a match's next game begins (the export says it)
                    begun = True
                events.append(EventRow(r.seq, r.created, names.get(pid) if pid else None, colour, r.type, text))
                cube = cube * 2 if r.type == "take" else 1 if r.type == "win" else cube
                if r.type == "win":
                    game, begun = game + 1, False
            return GameRecord(
                summary=summary,
                created=g.created,
                winner=names.get(g.winner_id) if g.winner_id else None,
                cube=g.cube,
                phase=g.phase,
                position_id=state.position.id,
                match_id=match_id(state),
                events=events,
            )

        return self._read(fn)

    def stale_games(self, days: float) -> list[GameSummary]:
        """The games forfeit_stale(days) would forfeit now: active, and the player to act has not for `days`."""
        if days < 0:
            raise IllegalAction("a number of days cannot be negative")

        def fn(s: Session) -> list[GameSummary]:
            cutoff = self.service.clock() - timedelta(days=days)
            found = game_summaries(
                s, Game.status == ACTIVE, Game.to_act_id.is_not(None), Game.updated < cutoff
            )
            return sorted(found, key=lambda g: g.id)

        return self._read(fn)

    # ------------------------------------------------------------- changes

    def set_password(self, handle: str, password: str | None = None, dry_run: bool = False) -> str:
        """Give the player `password`, or a generated one, which the description shows (and nothing keeps)."""
        if password is not None:
            problem = passwords.password_problem(password)
            if problem:
                raise BadPassword(problem)
        chosen = password if password is not None or dry_run else generate_password()
        hashed = passwords.hash_password(chosen) if chosen is not None and not dry_run else None  # slow: outside

        def fn(s: Session) -> list[str]:
            p = self._find(s, handle)
            if p.is_bot:
                raise IllegalAction(f"{p.handle} is a computer player and cannot log in")
            did = _tense(dry_run)
            door_only = p.password_hash is None
            p.password_hash = hashed
            # A door or member BBS player had no password to replace.
            lines = [f"password of {p.handle} (player {p.id}) {did('set' if door_only else 'replaced')}"]
            if door_only:
                # A member BBS's caller came by RLogin, not through this system's door.
                came = f"from member BBS {p.bbs_tag} only" if p.origin == "bbs" else "through the BBS door only"
                lines.append(
                    f"{p.handle} played {came}; from now on they may also log in by telnet with this password"
                )
            if password is None and not dry_run:
                lines.append(f"the new password is: {chosen}")
            return lines

        return self._change(fn, dry_run)

    def rename(self, old: str, new: str, dry_run: bool = False) -> str:
        """Give a player another handle, under the rule a new player's handle follows."""
        asked = new
        renamed: list[tuple[int, str]] = []

        def fn(s: Session) -> list[str]:
            renamed.clear()  # a busy database runs fn again
            # The player first: 'rename nobody x' had said the new handle was too short.
            p = self._find(s, old)
            if isinstance(asked, str) and asked.casefold() == DELETED_NAME:
                raise BadHandle(f"{DELETED_NAME} is the name deleted players are kept under")
            new = normal_handle(asked)
            if p.is_bot:
                raise IllegalAction(f"{p.handle} is a computer player; the bot's levels name those")
            if p.handle == new:
                raise IllegalAction(f"{p.handle} is already called that")
            err = handle_refusal(s, new, exclude=p.id)
            if err is not None:
                raise err
            was = p.handle
            shown_was = display_name(was, p.origin, p.bbs_tag, p.login_name, self.service.always)
            p.handle, p.handle_key, p.handle_skeleton = new, handles.key(new), handles.skeleton(new)[:64]
            # Told at their menu (their own session kept greeting them by the old handle).
            s.add(Notice(player_id=p.id, kind="renamed", game_id=0, length=0, other=was,
                         created=self.service.clock()))
            # And their opponents, at theirs: the board had shown them a stranger's name without a word.
            shown_now = display_name(new, p.origin, p.bbs_tag, p.login_name, self.service.always)
            for g in _unfinished(s, p.id):
                other = g.black_id if g.white_id == p.id else g.white_id
                if other is not None and other != p.id:
                    self.service.leave_notice(s, other, "opponent_renamed", g, shown_was, now=shown_now)
                # A change to the game, for every process's feed: a board open on it had shown
                # the old name until the next move, a ? page and back too, while the opponent's
                # answer was awaited.  Nothing else of the game changes: a turn left half played
                # in it is kept for the version after (the draft had been dropped as stale).
                drafts = select(ReadMark).where(ReadMark.game_id == g.id, ReadMark.draft_version == g.version)
                for mark in s.scalars(drafts):
                    mark.draft_version = g.version + 1
                self.service.touch_game(s, g)
            if p.origin == "telnet":
                p.login_name = new  # a telnet player is known by the handle they log in with
            renamed.append((p.id, new))
            lines = [f"player {was} (player {p.id}) {_tense(dry_run)('renamed')} {new}"]
            if p.origin != "telnet":
                where = "the BBS door" if p.origin == "door" else f"the BBS {p.bbs_tag}"
                lines.append(
                    f"{new} plays through {where} as {p.login_name!r} (in any case), and keeps doing so under the "
                    "new handle"
                )
            return lines

        description = self._change(fn, dry_run)
        if not dry_run:
            for player_id, handle in renamed:
                self.service.remember_handle(player_id, handle)
        return description

    def delete_player(self, handle: str, force: bool = False, dry_run: bool = False) -> str:
        """See the module's docstring for what happens to the player's games."""
        outcome: list[tuple[int, str | None]] = []
        did = _tense(dry_run)

        def fn(s: Session) -> list[str]:
            outcome.clear()  # a busy database runs fn again
            p = self._find(s, handle)
            name = p.handle
            seated = or_(Game.white_id == p.id, Game.black_id == p.id)
            unfinished = _unfinished(s, p.id)
            if unfinished and not force:
                raise PlayerInGames(name, [g.id for g in unfinished])
            # A rename of theirs not yet told to an opponent is stale once they are gone (the forfeit
            # tells what became of the game): 'The sysop renamed bob to Bob' had come after it.
            s.execute(delete(Notice).where(Notice.kind == "opponent_renamed",
                                           Notice.game_id.in_(select(Game.id).where(seated))))
            lines: list[str] = []
            for g in unfinished:
                if g.status == OPEN:
                    # Nobody else has sat down: there is no match to keep.
                    s.execute(delete(GameEvent).where(GameEvent.game_id == g.id))
                    s.execute(delete(ReadMark).where(ReadMark.game_id == g.id))
                    s.delete(g)
                    s.flush()
                    lines.append(f"game {g.id} ({g.length}-point match waiting for an opponent) {did('deleted')}")
                    continue
                lines.append(self._forfeit(s, g, Color.WHITE if g.white_id == p.id else Color.BLACK, did))
            if self._referenced(s, p.id):
                finished = s.scalar(select(func.count()).select_from(Game).where(seated)) or 0
                p.handle, p.handle_key = DELETED_NAME, f"{DELETED_KEY}{p.id}"
                # Nobody enters as a tombstone: its identity and look are its own, and the alias is free.
                p.origin, p.bbs_tag, p.login_name, p.handle_skeleton = "telnet", "", p.handle_key, p.handle_key
                p.legacy_login = False
                p.password_hash, p.charset, p.last_seen, p.last_played = None, None, None, None
                p.rating, p.experience = START_RATING, 0
                p.wins = p.losses = p.gammons = p.backgammons = 0
                lines.append(
                    f"player {name} (player {p.id}) {did('deleted')}: the handle is free again; "
                    f"{_plural(finished, 'finished game')} {'keeps its' if finished == 1 else 'keep their'} record "
                    f"under the name {DELETED_NAME}"
                )
                outcome.append((p.id, DELETED_NAME))
            else:
                s.execute(delete(ReadMark).where(ReadMark.player_id == p.id))
                s.execute(delete(Notice).where(Notice.player_id == p.id))
                s.delete(p)
                lines.append(f"player {name} (player {p.id}) {did('deleted')}; no games of theirs are on record")
                outcome.append((p.id, None))
            return lines

        description = self._change(fn, dry_run)
        if not dry_run:
            for player_id, now_called in outcome:
                self.service.remember_handle(player_id, now_called)
        return description

    def _forfeit(self, s: Session, g: Game, loser: Color, did: Callable[[str], str]) -> str:
        state = state_from_dict(g.state)
        state = self.service.record_events(s, g, g.version, state, [(rules.Forfeit(loser, FORFEIT_REASON), None, None)])
        names = self._names(s, {g.white_id, g.black_id})
        winner = names.get((g.black_id if loser is Color.WHITE else g.white_id) or -1, "?")
        lost = names.get((g.white_id if loser is Color.WHITE else g.black_id) or -1, "?")
        won, other = state.score if loser is Color.BLACK else state.score[::-1]
        return f"game {g.id} {did('forfeited')} by {lost}: {winner} wins the match {won}-{other}{RATED}"

    @staticmethod
    def _referenced(s: Session, player_id: int) -> bool:
        """Whether any game, event or rating entry still names the player."""
        games = select(Game.id).where(
            or_(
                Game.creator_id == player_id,
                Game.white_id == player_id,
                Game.black_id == player_id,
                Game.to_act_id == player_id,
                Game.winner_id == player_id,
            )
        )
        events = select(GameEvent.id).where(GameEvent.player_id == player_id)
        ratings = select(RatingEntry.id).where(
            or_(RatingEntry.player_id == player_id, RatingEntry.opponent_id == player_id)
        )
        return any(s.execute(q.limit(1)).first() is not None for q in (games, events, ratings))

    def delete_game(self, game_id: int, dry_run: bool = False) -> str:
        """The game, its events and its rating-history entries; the ratings it gave stay with the players."""
        did = _tense(dry_run)

        def fn(s: Session) -> list[str]:
            g = game_row(s, game_id)
            names = self._names(s, {g.white_id, g.black_id})
            white = names.get(g.white_id or -1, "(open seat)")
            black = names.get(g.black_id or -1, "(open seat)")
            events = db.rowcount(s.execute(delete(GameEvent).where(GameEvent.game_id == g.id)))
            ratings = db.rowcount(s.execute(delete(RatingEntry).where(RatingEntry.game_id == g.id)))
            s.execute(delete(ReadMark).where(ReadMark.game_id == g.id))
            if g.status in (OPEN, ACTIVE):
                # Its players would find it gone from their lists without a word; the opponent named
                # as the lists name them (a member board's player had lost their @TAG there).
                shown = player_names(s, {g.white_id, g.black_id}, self.service.always)
                for pid, other in ((g.white_id, g.black_id), (g.black_id, g.white_id)):
                    if pid is not None:
                        self.service.leave_notice(s, pid, "removed", g, shown.get(other or -1, ""))
            s.delete(g)
            s.flush()
            had = f" with its {_plural(events, 'event')}" if events else "; no events of it are on record"
            lines = [f"game {g.id} ({g.status} {g.length}-point match, {white} v {black}) {did('deleted')}{had}"]
            if ratings:
                lines.append(
                    f"its {ratings} rating-history entr{'y' if ratings == 1 else 'ies'} {did('deleted')}; "
                    f"the ratings and win/loss counts the match gave {white} and {black} stay as they are"
                )
            return lines

        return self._change(fn, dry_run)

    def forfeit_stale(self, days: float) -> str:
        """Forfeit now what the door forfeits on its own schedule (Service.forfeit_stale)."""
        if days < 0:
            raise IllegalAction("a number of days cannot be negative")
        # With 0 days every game waiting for a move goes, one moved into a minute ago too: its
        # player had been told they took too long to move.
        ids = self.service.forfeit_stale(days, "time" if days else "sysop")

        def fn(s: Session) -> list[str]:
            lines = []
            for g in s.scalars(select(Game).where(Game.id.in_(ids)).order_by(Game.id)):
                names = self._names(s, {g.white_id, g.black_id})
                winner = names.get(g.winner_id or -1, "?")
                white_won = g.winner_id == g.white_id
                loser = names.get((g.black_id if white_won else g.white_id) or -1, "?")
                won, other = (g.score_white, g.score_black) if white_won else (g.score_black, g.score_white)
                # With 0 days every game waiting is forfeited: 'no move for 0 days' said nothing.
                why = f"no move for {days_text(days)}" if days else "waiting for a move"
                lines.append(f"game {g.id} forfeited by {loser} ({why}): {winner} wins the match {won}-{other}{RATED}")
            return lines

        return "\n".join(self._read(fn)) if ids else ""

    # -------------------------------------------------------------- member BBSes

    def member_bbses(self, names: dict[str, str]) -> list[MemberRow]:
        """Every member BBS door.cfg names (`names`: tag -> name) or that has players or a row here."""

        def fn(s: Session) -> list[MemberRow]:
            # Each board's players, not a count alone: README promised the players and their
            # last activity, and the command had shown a number.
            rosters: dict[str, list[MemberPlayer]] = {}
            for tag, handle, alias, seen in s.execute(
                select(Player.bbs_tag, Player.handle, Player.login_name, Player.last_seen).where(Player.origin == "bbs")
            ):
                rosters.setdefault(tag, []).append(MemberPlayer(handle, alias, seen))
            rows = {r.tag: r for r in s.scalars(select(MemberBBS))}
            out = []
            for tag in sorted(set(names) | set(rosters) | set(rows)):
                roster = rosters.get(tag, [])
                # The latest seen first; never seen last; ties by handle.
                roster.sort(key=lambda m: m.handle.casefold())
                roster.sort(key=lambda m: m.last_seen.timestamp() if m.last_seen else float("-inf"), reverse=True)
                row = rows.get(tag)
                out.append(
                    MemberRow(
                        tag=tag,
                        name=names.get(tag, ""),
                        players=len(roster),
                        last_activity=max((m.last_seen for m in roster if m.last_seen), default=None),
                        suspended=bool(row and row.suspended),
                        reason=row.reason if row else "",
                        roster=tuple(roster),
                    )
                )
            return out

        return self._read(fn)

    def suspend_bbs(self, tag: str, reason: str = "", suspend: bool = True, dry_run: bool = False) -> str:
        """Suspend a member BBS (its callers are refused; their players and games stay), or with
        suspend=False let it in again."""
        tag = tag.strip().upper()
        if not tag or len(tag) > 8 or not tag.isprintable():
            raise IllegalAction("a BBS tag is 1 to 8 characters")
        if reason and (len(reason) > 200 or not reason.isprintable()):
            raise IllegalAction("the reason is at most 200 printable characters")

        def fn(s: Session) -> list[str]:
            did = _tense(dry_run)
            row = s.get(MemberBBS, tag)
            if row is None:
                now = self.service.clock()
                row = MemberBBS(tag=tag, suspended=False, reason="", first_seen=now, last_seen=now)
                s.add(row)
            players = s.scalar(select(func.count()).where(Player.origin == "bbs", Player.bbs_tag == tag)) or 0
            if row.suspended == suspend:
                if suspend and reason and reason != row.reason:
                    # A new reason for a suspended board: the one change there is to make.
                    was = f" (it was: {row.reason})" if row.reason else ""
                    row.reason = reason
                    return [f"the reason for BBS {tag}'s suspension {did('changed')} to: {reason}{was}; "
                            "it stays suspended"]
                state = "suspended" if suspend else "admitted"
                raise NothingToChange(f"BBS {tag} is already {state}; nothing to change")
            row.suspended, row.reason = suspend, reason if suspend else ""
            if suspend:
                return [
                    f"BBS {tag} {did('suspended')}: "
                    f"its callers {'will be' if dry_run else 'are'} refused at the RLogin handshake",
                    f"its {_plural(players, 'player')} and their games stay as they are",
                ]
            return [f"BBS {tag} {did('admitted')} again"]

        return self._change(fn, dry_run)

    # -------------------------------------------------------------- export

    def match_record(self, game_id: int) -> MatchRecord:
        """The game's players, length, start date and recorded events (as far as it has gone),
        for an exporter such as records.mat.  Raises NotFound for no such game."""

        def fn(s: Session) -> tuple[str, str, int, list[dict[str, Any]], dict[int, str], date]:
            g = game_row(s, game_id)
            # Read elsewhere, without the league around it: a member BBS's player always with @TAG.
            names = player_names(s, [g.white_id, g.black_id], always=True)
            rows = s.execute(
                select(GameEvent.payload, GameEvent.note).where(GameEvent.game_id == g.id).order_by(GameEvent.seq)
            ).all()
            notes = {i: note for i, (_, note) in enumerate(rows) if note}
            return (
                names.get(g.white_id or -1, ""),
                names.get(g.black_id or -1, ""),
                g.length,
                [p for p, _ in rows],
                notes,
                g.created.date(),
            )

        white, black, length, payloads, notes, created = self._read(fn)
        return MatchRecord(white, black, length, [rules.event_from_dict(p) for p in payloads], created, notes)


__all__ = [
    "DELETED_NAME",
    "days_text",
    "MemberRow",
    "EventRow",
    "GameRecord",
    "MatchRecord",
    "NothingToChange",
    "PlayerInGames",
    "PlayerRow",
    "STATUSES",
    "Sysop",
    "event_text",
    "generate_password",
    "is_deleted",
]
