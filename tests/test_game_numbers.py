"""A deleted game's number is never given to another game, on a new database or an upgraded one."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color
from bgdoor.service import Service
from bgdoor.service.sysop import Sysop
from bgdoor.store import db
from bgdoor.store.models import Game, GameEvent


def games_sql(svc: Service) -> str:
    with svc.engine.connect() as conn:
        return str(conn.execute(text("SELECT sql FROM sqlite_master WHERE name = 'games'")).scalar())


def three_games(svc: Service) -> tuple[int, int]:
    ann = svc.register("ann", "secret1").id
    svc.register("bob", "secret1")
    for _ in range(3):
        view = svc.begin_game(ann, 3, Color.WHITE, "bob")
        svc.roll(ann, view.id, view.version)
    return ann, view.id


def test_a_deleted_game_number_is_not_reused(tmp_path: Path) -> None:
    with Service(f"sqlite:///{tmp_path / 'bg.db'}", dice=ScriptedDice([3, 1] * 20)) as svc:
        assert "AUTOINCREMENT" in games_sql(svc)
        ann, last = three_games(svc)
        Sysop(svc).delete_game(last)
        assert svc.begin_game(ann, 1, Color.WHITE, "bob").id == last + 1


def test_an_upgraded_database_keeps_its_games_and_stops_reusing_numbers(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    with Service(url, dice=ScriptedDice([3, 1] * 20)) as svc:
        ann, last = three_games(svc)
    engine = db.make_engine(url)
    with engine.begin() as conn:
        command.downgrade(db.alembic_config(conn), "0003")
    engine.dispose()
    with Service(url) as svc:  # opening it upgrades it again
        assert "AUTOINCREMENT" in games_sql(svc)
        with Session(svc.engine) as s:
            assert s.scalar(select(func.count()).select_from(Game)) == 3
            assert s.scalar(select(func.count()).select_from(GameEvent)) > 0
        assert svc.game(last, ann).state.dice == (3, 1)
        Sysop(svc).delete_game(last)
        assert svc.begin_game(ann, 1, Color.WHITE, "bob").id == last + 1
