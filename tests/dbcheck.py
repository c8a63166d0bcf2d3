"""Is a database whole?  Every game's events replay to the state its row stores."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from bgdoor.rules.game import Color
from bgdoor.service import Service
from bgdoor.service.core import derive
from bgdoor.store.models import Game, GameEvent


@dataclass
class GameRecord:
    version: int
    events: list[tuple[int, str, dict]]  # (seq, type, payload)


def sqlite_integrity(path: str) -> str:
    conn = sqlite3.connect(path)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()


def records(url: str | Service) -> dict[int, GameRecord]:
    """Every game's version and events, read straight from the tables (through `url`'s own Service if given one)."""
    own = isinstance(url, str)
    svc = Service(url) if isinstance(url, str) else url
    try:
        return _records(svc)
    finally:
        if own:
            svc.close()


def _records(svc: Service) -> dict[int, GameRecord]:
    with Session(svc.engine) as s:
        out = {}
        for g in s.scalars(select(Game).order_by(Game.id)):
            rows = s.scalars(select(GameEvent).where(GameEvent.game_id == g.id).order_by(GameEvent.seq)).all()
            out[g.id] = GameRecord(g.version, [(r.seq, r.type, r.payload) for r in rows])
        return out


def check_games(url: str) -> int:
    """Assert every game is whole; returns how many games were checked."""
    with Service(url) as svc, Session(svc.engine) as s:
        games = s.scalars(select(Game).order_by(Game.id)).all()
        for g in games:
            rows = s.scalars(select(GameEvent).where(GameEvent.game_id == g.id).order_by(GameEvent.seq)).all()
            assert [r.seq for r in rows] == list(range(len(rows))), f"game {g.id}: gaps in the event record"
            assert g.event_count == len(rows), f"game {g.id}: event_count {g.event_count}, {len(rows)} events"
            state, last = derive(g.length, [r.payload for r in rows])
            stored = svc.game(g.id).state
            assert state == stored, f"game {g.id}: replay gives {state}, the row stores {stored}"
            assert last.get(Color.WHITE) == g.last_play_white, f"game {g.id}: White's last play cache"
            assert last.get(Color.BLACK) == g.last_play_black, f"game {g.id}: Black's last play cache"
        return len(games)


def is_prefix(before: GameRecord, after: GameRecord) -> bool:
    """`after` holds everything `before` held, in order, and perhaps more."""
    return after.version >= before.version and after.events[: len(before.events)] == before.events
