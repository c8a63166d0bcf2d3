"""The gateway: the service's operations, typed, with the same names and parameters; screens use nothing else."""

from __future__ import annotations

import ast
import asyncio
import gc
import inspect
import logging
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bgdoor.config import Config
from bgdoor.rules.game import Color
from bgdoor.service import GameSummary, GameView, PlayerInfo, Preferences, RankRow, Service, StorageError
from bgdoor.ui.gateway import Gateway, InternalError
from bgdoor.ui.guard import LoginGuard
from bgdoor.ui.runtime import Runtime

SRC = Path(__file__).resolve().parent.parent / "src" / "bgdoor"
# start_login and finish_login: login in halves, which the gateway itself uses.
# record_events, remember_handle, leave_notice, touch_game, transaction: the building blocks
# service.sysop composes.
NOT_OPERATIONS = {
    "leave_notice",
    "touch_game",
    "close",
    "patience",
    "statement_count",
    "start_login",
    "finish_login",
    "record_events",
    "remember_handle",
    "transaction",
}


def operations() -> list[str]:
    return sorted(
        name
        for name, member in inspect.getmembers(Service, inspect.isfunction)
        if not name.startswith("_") and name not in NOT_OPERATIONS
    )


def test_every_operation_with_the_same_parameters() -> None:
    for name in operations():
        ours = getattr(Gateway, name, None)
        assert ours is not None, f"the gateway lacks {name}"
        assert inspect.iscoroutinefunction(ours), f"Gateway.{name} is not async"
        theirs = inspect.signature(getattr(Service, name))
        mine = inspect.signature(ours)
        assert [(p.name, p.kind, p.default, p.annotation) for p in mine.parameters.values()] == [
            (p.name, p.kind, p.default, p.annotation) for p in theirs.parameters.values()
        ], name
        assert mine.return_annotation == theirs.return_annotation, name


def test_mypy_gateway_matches_service(tmp_path: Path) -> None:
    """A Protocol written from the service's own signatures, made async; mypy checks the gateway is one."""
    lines = [
        "from __future__ import annotations",
        "from collections.abc import Sequence",
        "from typing import Protocol",
        "from bgdoor.rules.game import Color, Win",
        "from bgdoor.service import *  # noqa: F403 - the service's own names, as its signatures spell them",
        "from bgdoor.ui.gateway import Gateway",
        "",
        "class AsyncService(Protocol):",
    ]
    for name in operations():
        sig = inspect.signature(getattr(Service, name))
        params = [
            p.name
            if p.annotation is p.empty
            else f"{p.name}: {p.annotation}" + ("" if p.default is p.empty else " = ...")
            for p in sig.parameters.values()
        ]
        lines.append(f"    async def {name}({', '.join(params)}) -> {sig.return_annotation}: ...")
    lines += ["", "def check(gateway: Gateway) -> AsyncService:", "    return gateway", ""]
    # A deliberately wrong gateway must fail, so the check is known to bite.
    lines += [
        "class Wrong(Gateway):",
        "    async def roll(self, player_id: int, game_id: int) -> GameView:  # type: ignore[override]  # on purpose",
        "        raise NotImplementedError",
        "",
        "def bites(wrong: Wrong) -> AsyncService:",
        "    return wrong  # expect-error",
        "",
    ]
    path = tmp_path / "gateway_types.py"
    path.write_text("\n".join(lines))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--follow-imports=silent",
            "--no-incremental",
            "--no-error-summary",
            str(path),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    wrong_line = next(i for i, line in enumerate(lines, 1) if "expect-error" in line)
    assert errors, f"mypy found nothing, not even the wrong gateway:\n{result.stdout}{result.stderr}"
    unexpected = [e for e in errors if f"gateway_types.py:{wrong_line}:" not in e]
    assert not unexpected, "\n".join(unexpected)


def test_screens_reach_the_service_only_through_the_gateway() -> None:
    """No ui/ module but the gateway (and the runtime that builds it) imports the service class, the store or
    SQLAlchemy, or runs anything on a thread of its own."""
    allowed = {"gateway.py", "runtime.py"}
    banned_modules = ("bgdoor.store", "bgdoor.service.core", "sqlalchemy", "concurrent.futures", "threading")
    problems = []
    for path in sorted((SRC / "ui").glob("*.py")):
        if path.name in allowed:
            continue
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith(banned_modules):
                    problems.append(f"{path.name}:{node.lineno} imports {node.module}")
                if node.module.startswith("bgdoor.service") and any(a.name == "Service" for a in node.names):
                    problems.append(f"{path.name}:{node.lineno} imports the Service class")
            elif isinstance(node, ast.Import):
                problems += [
                    f"{path.name}:{node.lineno} imports {a.name}"
                    for a in node.names
                    if a.name.startswith(banned_modules)
                ]
            elif isinstance(node, ast.Attribute) and node.attr in ("run_in_executor", "to_thread", "sync"):
                problems.append(f"{path.name}:{node.lineno} uses .{node.attr}")
            elif (
                isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "game_changed"
            ):
                problems.append(f"{path.name}:{node.lineno} announces a change by hand")
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------------ behaviour


@pytest.fixture
def service(tmp_path: Path) -> Service:
    svc = Service(f"sqlite:///{tmp_path / 'g.db'}")
    yield svc
    svc.close()


def two_players(service: Service) -> tuple[int, int]:
    a = service.register("alice", "secret1")
    b = service.register("bob", "secret2")
    return a.id, b.id


async def test_writes_are_announced_once(service: Service) -> None:
    seen: list[tuple[int, int]] = []
    gateway = Gateway(service, LoginGuard(20, 0.01), lambda game_id, version, players: seen.append((game_id, version)))
    try:
        a, _ = two_players(service)
        view = await gateway.begin_game(a, 1, None, "bob")
        view = await gateway.roll(a, view.id, view.version)
        assert seen == [(view.id, 1), (view.id, view.version)]
        await gateway.game(view.id, a)
        await gateway.rankings()
        assert len(seen) == 2, "a read announced something"
    finally:
        gateway.close()


async def test_runtime_wakes_the_game_and_the_players_once_per_version(service: Service) -> None:
    runtime = Runtime(service, Config())
    try:
        a, b = two_players(service)
        woken: list[str] = []
        view = await runtime.service.begin_game(a, 1, None, "bob")
        runtime.watch(view.id, lambda: woken.append("game"))
        runtime.watch_player(b, lambda: woken.append("bob's menu"))
        view = await runtime.service.roll(b, view.id, view.version)
        assert woken == ["game", "bob's menu"]
        runtime.announce(view)  # the same version again (the feed, say): nobody is woken twice
        assert woken == ["game", "bob's menu"]
        # A board watches its game and its player's other games: woken once a change, not twice.
        # The opening roll decides who moves, so the board is the mover's.
        mover = view.white_id if view.state.actor is Color.WHITE else view.black_id
        assert mover is not None

        def board() -> None:
            woken.append("the mover's board")

        runtime.watch(view.id, board)
        runtime.watch_player(mover, board)
        view = await runtime.service.submit_turn(mover, view.id, view.version, str(view.state.plays()[0]))
        assert woken[2:] == ["game", "the mover's board", "bob's menu"], woken
    finally:
        runtime.close()


async def test_a_programming_error_is_shown_as_one(
    service: Service, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    gateway = Gateway(service, LoginGuard(20, 0.01), lambda game_id, version, players: None)

    def broken(game_id: int, viewer_id: int | None = None) -> GameView:
        raise KeyError("oops")

    monkeypatch.setattr(service, "game", broken)
    try:
        with caplog.at_level(logging.ERROR, "bgdoor.gateway"), pytest.raises(InternalError) as err:
            await gateway.game(1)
        assert "KeyError" in str(err.value) and "database" not in str(err.value)
        assert "Traceback" in caplog.text and "KeyError: 'oops'" in caplog.text
    finally:
        gateway.close()


async def test_a_storage_error_is_the_database_message(service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    gateway = Gateway(service, LoginGuard(20, 0.01), lambda game_id, version, players: None)

    def broken(limit: int = 20, include_unrated: bool = False, board: str | None = None) -> list[RankRow]:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(service, "rankings", broken)
    try:
        with pytest.raises(StorageError) as err:
            await gateway.rankings()
        assert "database" in str(err.value)
    finally:
        gateway.close()


async def test_a_session_leaving_after_the_workers_stopped_is_told_the_server_is_going_down(
    service: Service, caplog: pytest.LogCaptureFixture
) -> None:
    """A session ending as the server shut down saved its draft on stopped workers: 'bgdoor itself
    failed (RuntimeError in save_draft)' with a traceback, and asyncio's 'Task exception was
    never retrieved' when the session waiting for it was cancelled."""
    gateway = Gateway(service, LoginGuard(20, 0.01), lambda game_id, version, players: None)
    a, _ = two_players(service)
    view = await gateway.begin_game(a, 1, None, "bob")
    gateway.finish_writes()
    gateway.close()
    with caplog.at_level(logging.INFO, "bgdoor.gateway"):
        with pytest.raises(StorageError, match="shutting down"):
            await gateway.save_draft(a, view.id, view.version, (), "back soon")
        with pytest.raises(StorageError, match="shutting down"):
            await gateway.game(view.id)
    assert "Traceback" not in caplog.text and "internal error" not in caplog.text, caplog.text
    # A write whose waiter is cancelled: its outcome is still taken.
    loop = asyncio.get_running_loop()
    unretrieved: list[dict[str, object]] = []
    loop.set_exception_handler(lambda _, context: unretrieved.append(context))
    try:
        async def notice(text: str | None) -> None:
            pass

        # A caller's gateway: its writes are waited for beside 'Saving...', not awaited directly.
        waiter = asyncio.ensure_future(gateway.caller("192.0.2.1", notice).save_draft(a, view.id, view.version, (),
                                                                                     "back soon"))
        await asyncio.sleep(0)
        waiter.cancel()
        await asyncio.gather(waiter, return_exceptions=True)
        await asyncio.sleep(0.05)
        del waiter  # with it, the write's task: an exception never taken is said as it goes
        gc.collect()
        assert not unretrieved, unretrieved
    finally:
        loop.set_exception_handler(None)


async def test_reads_do_not_queue_behind_writes(service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every write worker stuck (as behind another process's write lock): reads still answer at once."""
    gateway = Gateway(service, LoginGuard(20, 0.01), lambda game_id, version, players: None)
    release = threading.Event()
    real = service.set_preferences

    def stuck(player_id: int, prefs: Preferences) -> PlayerInfo:
        release.wait(10)
        return real(player_id, prefs)

    monkeypatch.setattr(service, "set_preferences", stuck)
    try:
        a, _ = two_players(service)
        prefs = service.player(a).preferences
        writes = [asyncio.ensure_future(gateway.set_preferences(a, prefs)) for _ in range(4)]
        await asyncio.sleep(0.1)
        start = time.monotonic()
        await asyncio.gather(
            gateway.rankings(), gateway.my_turn_games(a), gateway.player(a), gateway.handle_exists("bob")
        )
        took = time.monotonic() - start
        print(f"four reads beside four stuck writes: {took * 1000:.0f} ms")
        assert took < 1.0
        release.set()
        await asyncio.gather(*writes)
    finally:
        release.set()
        gateway.close()


async def test_logins_pass_the_guard(service: Service) -> None:
    gateway = Gateway(service, LoginGuard(limit=2, delay=0.0), lambda game_id, version, players: None)
    try:
        two_players(service)
        caller = gateway.caller("10.0.0.9")
        for _ in range(2):
            with pytest.raises(Exception, match="wrong handle or password"):
                await caller.login("alice", "wrong")
        with pytest.raises(Exception, match="too many wrong passwords"):
            await caller.login("alice", "secret1")
        assert (await gateway.caller("10.0.0.10").login("alice", "secret1")).handle == "alice"
    finally:
        gateway.close()


async def test_a_version_one_screen_has_read_still_wakes_the_others(service: Service) -> None:
    """A second window's board read the computer's reply before it was announced; the announcement
    was then taken as old news, and the first window's board stayed on the position before it
    ('Beginner Bot to play', no key to roll) until the player left it."""
    runtime = Runtime(service, Config())
    try:
        a, b = two_players(service)
        view = await runtime.service.begin_game(a, 1, None, "bob")
        woken: list[str] = []
        runtime.watch(view.id, lambda: woken.append("first window"))
        runtime.watch(view.id, lambda: woken.append("second window"))
        runtime.seen(view.id, view.version + 2)  # the second window read it first
        runtime.changed(view.id, view.version + 2, (a, b))
        assert woken == ["first window", "second window"]
        assert runtime.version(view.id) == view.version + 2
        runtime.changed(view.id, view.version + 2, (a, b))  # the feed brings it again: once is enough
        assert woken == ["first window", "second window"]
    finally:
        runtime.close()


async def test_the_lists_of_games_a_change_wakes_read_the_games_once(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every change wakes every V)iew list in the process, and each read up to 100 games afresh:
    one read serves them all, until the next change."""
    runtime = Runtime(service, Config())
    try:
        a, _ = two_players(service)
        reads: list[int] = []
        real = service.games_in_progress

        def counted(limit: int = 50) -> list[GameSummary]:
            reads.append(limit)
            return real(limit)

        monkeypatch.setattr(service, "games_in_progress", counted)
        view = await runtime.service.begin_game(a, 1, None, "bob")  # a change: announced
        lists = await asyncio.gather(*(runtime.games_in_progress() for _ in range(5)))
        assert [[g.id for g in games] for games in lists] == [[view.id]] * 5
        assert len(reads) == 1
        await runtime.service.withdraw_game(a, view.id)
        assert await runtime.games_in_progress() == [] and len(reads) == 2
        assert await runtime.games_in_progress() == [] and len(reads) == 2
    finally:
        runtime.close()


async def test_news_read_while_a_menu_reads_is_not_lost(service: Service) -> None:
    """A board in another window marked its news read while the menu was re-reading its own news,
    before the menu watched again: the menu's look at the count of changes missed it, and it went
    on listing what the board had shown (the flaky menu test)."""
    runtime = Runtime(service, Config())
    try:
        a, _ = two_players(service)
        view = await runtime.service.begin_game(a, 1, None, "bob")
        seen = runtime.changes  # the menu starts reading
        await runtime.service.mark_read(a, view.id, 10**6)  # nobody watches yet: nothing to wake
        assert runtime.changes != seen, "the menu would not look again"
    finally:
        runtime.close()
