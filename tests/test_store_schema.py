"""The store: migrations (twice, concurrently, interrupted), models against migrations, SQLite settings, snapshots."""

from __future__ import annotations

import json
import multiprocessing
import os
import sqlite3
import subprocess
import sys
import textwrap
from datetime import UTC, datetime

import alembic.op
import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from hypothesis import given, settings, strategies as st
from sqlalchemy import exc, inspect, select
from sqlalchemy.orm import Session
from sqlalchemy.pool import StaticPool

from bgdoor.rules import game as rules
from bgdoor.rules.game import Color, Phase, Win
from bgdoor.service import Service
from bgdoor.store import db
from bgdoor.store.models import Base, Player
from bgdoor.store.snapshot import state_from_dict, state_to_dict

TABLES = {"players", "games", "events", "rating_history", "alembic_version"}


def test_migrate_creates_then_does_nothing(db_url):
    engine = db.make_engine(db_url)
    assert db.migrate(engine) is True
    assert db.migrate(engine) is False
    assert db.current_revision(engine) == db.head_revision()
    assert TABLES <= set(inspect(engine).get_table_names())
    engine.dispose()


def test_models_agree_with_migrations(db_url):
    engine = db.make_engine(db_url)
    db.migrate(engine)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []
    engine.dispose()


def test_failed_migration_rolls_back_whole(db_url, monkeypatch):
    engine = db.make_engine(db_url)
    real = alembic.op.create_index
    calls = []

    def failing(*args, **kwargs):
        calls.append(args)
        if len(calls) == 2:
            raise RuntimeError("interrupted")
        return real(*args, **kwargs)

    monkeypatch.setattr(alembic.op, "create_index", failing)
    with pytest.raises(RuntimeError):
        db.migrate(engine)
    # Tables were created before the failure, inside the same transaction: all gone again.
    assert set(inspect(engine).get_table_names()) == set()
    monkeypatch.setattr(alembic.op, "create_index", real)
    assert db.migrate(engine) is True
    assert TABLES <= set(inspect(engine).get_table_names())
    engine.dispose()


KILL_MID_MIGRATION = textwrap.dedent(
    """
    import os, signal, sys
    import alembic.op
    from bgdoor.store import db
    real = alembic.op.create_index
    def crash(*args, **kwargs):
        real(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGKILL)   # a node killed mid-migration: no cleanup at all
    alembic.op.create_index = crash
    db.migrate(db.make_engine(sys.argv[1]))
    """
)


def test_killed_migration_leaves_a_working_database(shared_db_url):
    done = subprocess.run([sys.executable, "-c", KILL_MID_MIGRATION, shared_db_url], capture_output=True, timeout=60)
    assert done.returncode == -9, done.stderr
    engine = db.make_engine(shared_db_url)
    assert db.current_revision(engine) is None
    assert not ({"players", "games"} & set(inspect(engine).get_table_names()))
    engine.dispose()
    with Service(shared_db_url) as svc:
        assert svc.enter_from_door("after crash").handle == "after crash"


def _start_service(url: str) -> None:
    Service(url).enter_from_door(f"node{os.getpid()}")


def test_nodes_starting_together_on_a_new_file(tmp_path):
    url = f"sqlite:///{tmp_path}/new.db"
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_start_service, args=(url,)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0, 0, 0]
    engine = db.make_engine(url)
    with Session(engine) as s:
        assert len(s.scalars(select(Player)).all()) == 4
    engine.dispose()


def test_default_url_makes_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert db.DEFAULT_URL == "sqlite:///data/bgdoor.db"
    with Service() as svc:
        svc.enter_from_door("sysop")
    assert (tmp_path / "data" / "bgdoor.db").exists()


def test_sqlite_connections_are_set_up(tmp_path):
    engine = db.make_engine(f"sqlite:///{tmp_path}/x.db")
    with engine.connect() as conn:

        def pragma(name: str) -> object:
            return conn.exec_driver_sql(f"PRAGMA {name}").scalar()

        assert pragma("journal_mode") == "wal"
        assert pragma("busy_timeout") == db.DEFAULTS.busy_timeout_ms
        assert pragma("foreign_keys") == 1
    engine.dispose()


def test_in_memory_shares_one_connection():
    engine = db.make_engine("sqlite://")
    assert isinstance(engine.pool, StaticPool)
    db.migrate(engine)
    with engine.connect() as a, engine.connect() as b:
        assert a.connection.dbapi_connection is b.connection.dbapi_connection
    assert "players" in inspect(engine).get_table_names()


def _player(origin: str, login: str, handle: str, key: str, skeleton: str, when: datetime) -> Player:
    return Player(
        origin=origin, login_name=login, handle=handle, handle_key=key, handle_skeleton=skeleton, created=when
    )


def test_handles_are_unique_without_regard_to_case_in_the_database(db_url):
    engine = db.make_engine(db_url)
    db.migrate(engine)
    now = datetime.now(UTC)
    with Session(engine) as s:
        s.add(_player("telnet", "Ann", "Ann", "ann", "ann", now))
        s.commit()
        s.add(_player("telnet", "ANN", "ANN", "ann", "ann2", now))
        with pytest.raises(exc.IntegrityError):
            s.commit()
        s.rollback()
        # By look: another key, the same skeleton.
        s.add(_player("telnet", "Ann2", "Ann2", "ann2", "ann", now))
        with pytest.raises(exc.IntegrityError):
            s.commit()
        s.rollback()
        # By identity: one door alias is one player, whatever its handle.
        s.add(_player("door", "Ann", "Ann3", "ann3", "ann3", now))
        s.commit()
        s.add(_player("door", "Ann", "Ann4", "ann4", "ann4", now))
        with pytest.raises(exc.IntegrityError):
            s.commit()
    engine.dispose()


def test_times_come_back_as_aware_utc(db_url):
    engine = db.make_engine(db_url)
    db.migrate(engine)
    when = datetime(2024, 5, 6, 7, 8, 9, 123456, tzinfo=UTC)
    with Session(engine) as s:
        s.add(_player("telnet", "t", "t", "t", "t", when))
        s.commit()
    with Session(engine) as s:
        got = s.scalars(select(Player.created)).one()
    assert got == when and got.tzinfo is not None
    engine.dispose()


def test_classify_sorts_errors():
    assert db.classify(sqlite3.OperationalError("database is locked")) == db.BUSY
    assert db.classify(sqlite3.OperationalError("attempt to write a readonly database")) == db.READ_ONLY
    assert db.classify(sqlite3.OperationalError("database or disk is full")) == db.FULL
    assert db.classify(exc.IntegrityError("x", {}, Exception("UNIQUE constraint failed"))) == db.CONFLICT
    assert db.classify(sqlite3.OperationalError("no such table: x")) == db.OTHER


# ---------------------------------------------------------------- snapshots


@st.composite
def matches(draw: st.DrawFn) -> list[rules.MatchState]:
    """A match played with drawn dice and choices, as its list of states."""
    state = rules.new_match(draw(st.sampled_from([1, 3, 5])))
    states = [state]
    event: rules.Event
    for _ in range(draw(st.integers(0, 120))):
        if state.over:
            break

        def die() -> int:
            return draw(st.integers(1, 6))

        if state.phase is Phase.OPENING:
            event = rules.OpeningRoll(die(), die())
        elif state.phase is Phase.ROLL:
            assert state.turn is not None  # someone is always to roll
            choice = draw(st.sampled_from(["roll", "roll", "roll", "double", "resign"]))
            if choice == "double" and state.can_double():
                event = rules.Double()
            elif choice == "resign":
                event = rules.Resign(state.turn, draw(st.sampled_from(list(Win))))
            else:
                event = rules.Roll((die(), die()))
        elif state.phase is Phase.MOVE:
            plays = state.plays()
            play = plays[draw(st.integers(0, len(plays) - 1))] if plays else None
            event = rules.Move(str(play) if play else "", play.position.id if play else state.position.swap().id)
        elif state.phase is Phase.DOUBLED:
            event = draw(st.sampled_from([rules.Take(), rules.Take(), rules.Drop()]))
        else:
            event = draw(st.sampled_from([rules.AcceptResign(), rules.RejectResign()]))
        state, _ = rules.apply(state, event)
        states.append(state)
    return states


@settings(max_examples=40, deadline=None)
@given(matches())
def test_snapshot_round_trips_every_state(states):
    for state in states:
        data = json.loads(json.dumps(state_to_dict(state)))
        assert state_from_dict(data) == state


def test_snapshot_refuses_an_unknown_format():
    data = state_to_dict(rules.new_match(3))
    data["format"] = 99
    with pytest.raises(ValueError):
        state_from_dict(data)


def test_snapshot_keeps_who_is_on_roll():
    state, _ = rules.apply(rules.new_match(1), rules.OpeningRoll(2, 5))
    assert state.turn is Color.BLACK
    assert state_from_dict(state_to_dict(state)).position == state.position
