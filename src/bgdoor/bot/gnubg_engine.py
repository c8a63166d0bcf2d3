"""GNU Backgammon's engine, run in a child process.

gnubg's Python module keeps its engine state per thread: calling it from any
thread but the one that imported it crashes the process, and a call holds
the GIL for as long as it thinks (a 2-ply search takes a good fraction of a
second).  A server runs its bots on worker threads and must stay responsive,
so the engine lives in a child process that imports gnubg itself and answers
one JSON request per line; the parent only asks and waits.

The child is `python -m bgdoor.bot.gnubg_engine`.  Requests carry gnubg
boards: (side not on roll, side on roll), 25 counts each, bar last.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
from dataclasses import dataclass
from typing import Any

_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
# No request takes near this long (a close world-class cube decision takes about a second);
# a child that does is stuck, and is killed so the bots can carry on with the built-in net.
REQUEST_TIMEOUT = 60.0


class GnubgError(RuntimeError):
    """The engine could not answer."""


@dataclass(frozen=True)
class CubeSpec:
    """A cube and match from the view of the side on roll, as gnubg's cubeinfo wants it."""

    value: int = 1
    owner: int = -1  # -1 centred, 0 the side on roll, 1 the other
    length: int = 0  # 0 for money
    score: tuple[int, int] = (0, 0)  # side on roll, other
    crawford: bool = False

    def to_json(self) -> list[Any]:
        return [self.value, self.owner, self.length, list(self.score), int(self.crawford)]


# ===================================================================== client


class GnubgEngine:
    """One child process, shared by every bot in this process; calls are serialised."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[str] | None = None
        self.version = ""

    def _start(self) -> subprocess.Popen[str]:
        env = dict(os.environ)
        env.setdefault("OPENBLAS_NUM_THREADS", "1")
        proc = subprocess.Popen(
            [sys.executable, "-m", "bgdoor.bot.gnubg_engine"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
            env=env,
        )
        self._proc = proc
        try:
            reply = self._exchange({"op": "hello"})
        except GnubgError:
            self._kill()
            raise
        self.version = str(reply.get("version", ""))
        return proc

    def _exchange(self, request: dict[str, Any]) -> dict[str, Any]:
        proc = self._proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(json.dumps(request) + "\n")
            proc.stdin.flush()
            # The child writes each answer as one whole line, so once it is readable readline will not wait long.
            ready, _, _ = select.select([proc.stdout], [], [], REQUEST_TIMEOUT)
            if not ready:
                self._kill()
                raise GnubgError(f"the gnubg engine did not answer in {REQUEST_TIMEOUT:.0f}s")
            line = proc.stdout.readline()
        except (OSError, ValueError) as exc:
            self._kill()
            raise GnubgError(f"the gnubg engine stopped: {exc}") from exc
        if not line:
            self._kill()
            raise GnubgError("the gnubg engine stopped")
        reply = json.loads(line)
        if "error" in reply:
            raise GnubgError(reply["error"])
        return dict(reply)

    def request(self, request: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            for attempt in (1, 2):
                if self._proc is None or self._proc.poll() is not None:
                    self._start()
                try:
                    return self._exchange(request)
                except GnubgError:
                    # A crashed child gets one fresh start; a request it rejects fails at once.
                    if self._proc is not None or attempt == 2:
                        raise
            raise GnubgError("unreachable")

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            try:
                proc.kill()
                proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass

    def close(self) -> None:
        with self._lock:
            proc, self._proc = self._proc, None
            if proc is not None and proc.stdin is not None:
                try:
                    proc.stdin.close()
                    proc.wait(timeout=5)
                except (OSError, subprocess.TimeoutExpired):
                    proc.kill()

    # ------------------------------------------------------------ questions

    def best_move(self, board: Any, dice: tuple[int, int], plies: int, cube: CubeSpec | None) -> tuple[int, ...] | None:
        """gnubg's move as (from, to, ...) pairs, 1-based; None when nothing is legal.

        gnubg's tuple stops at the first checker borne off (it reads "off" as
        its end marker), so a tuple of odd length is incomplete.
        """
        board_json, cube_json = _json_board(board), _cube_json(cube)
        reply = self.request({"op": "best", "board": board_json, "dice": list(dice), "plies": plies, "cube": cube_json})
        move = reply.get("move")
        return None if move is None else tuple(int(x) for x in move)

    def rank(self, boards: list[Any], plies: int) -> list[float]:
        """Cubeless equity, for the side that just moved, of each result board (the other side on roll).

        All are screened at 0-ply; the best few are searched at `plies`.
        """
        reply = self.request({"op": "rank", "boards": [_json_board(b) for b in boards], "plies": plies})
        return [float(x) for x in reply["equities"]]

    def probabilities(self, board: Any, plies: int = 0) -> tuple[float, ...]:
        reply = self.request({"op": "eval", "board": _json_board(board), "plies": plies})
        return tuple(float(x) for x in reply["probs"])

    def cube_values(self, board: Any, cube: CubeSpec, plies: int) -> tuple[float, float, float]:
        """(no double, double/take, double/pass) for the side on roll: points for money, match chances for a match."""
        reply = self.request({"op": "cube", "board": _json_board(board), "cube": cube.to_json(), "plies": plies})
        return float(reply["nd"]), float(reply["dt"]), float(reply["dp"])


def _json_board(board: Any) -> list[list[int]]:
    return [[int(x) for x in board[0]], [int(x) for x in board[1]]]


def _cube_json(cube: CubeSpec | None) -> list[Any] | None:
    return None if cube is None else cube.to_json()


# ===================================================================== worker


class _Worker:
    def __init__(self, gnubg: Any) -> None:
        self.g = gnubg

    def cubeinfo(self, spec: list[Any] | None) -> Any:
        if spec is None:
            return self.ci(1, -1, 0, (0, 0), False)
        value, owner, length, score, crawford = spec
        return self.ci(int(value), int(owner), int(length), (int(score[0]), int(score[1])), bool(crawford))

    def ci(self, value: int, owner: int, length: int, score: tuple[int, int], crawford: bool) -> Any:
        """gnubg's cubeinfo with the side on roll as player 0."""
        info = self.g.cubeinfo(value, owner, 0, length, score, int(crawford))
        if length == 0:
            # gnubg plays money with the Jacoby rule (no gammons before the cube is turned); bgdoor does not.
            info = dict(info)
            info["jacoby"] = 0
        return info

    def context(self, plies: int, cubeful: bool) -> Any:
        return self.g.evalcontext(int(cubeful), int(plies), 1, 0, 0.0)

    @staticmethod
    def filters(extra: int, threshold: float) -> list[dict[str, Any]]:
        """Screen every play at 0-ply and search the best plus `extra` more within `threshold`.

        gnubg's "world class" setting uses 8 within 0.16 and no pass at the
        plies in between, which keeps a 2-ply play to a few tenths of a second.
        """
        out = []
        for ply in range(1, 5):
            for level in range(ply):
                if level == 0:
                    out.append({"ply": ply, "level": 0, "acceptmoves": 0, "extramoves": extra, "threshold": threshold})
                else:
                    out.append({"ply": ply, "level": level, "acceptmoves": -1, "extramoves": 0, "threshold": 0.0})
        return out

    def find(
        self, board: Any, ci: Any, plies: int, dice: tuple[int, int], cubeful: bool = True, for_cube: bool = False
    ) -> list[dict[str, Any]]:
        ec = self.context(plies, cubeful)
        if plies == 0 or for_cube:
            # gnubg's own filters keep several plays to the full depth; a narrower filter that leaves
            # one play skips the search and returns its 0-ply score, which a cube decision cannot use.
            return list(self.g.findbestmoves(board, ci, ec, dice))
        return list(self.g.findbestmoves(board, ci, ec, dice, self.filters(8, 0.16)))

    # ------------------------------------------------------------ requests

    def best(self, req: dict[str, Any]) -> dict[str, Any]:
        board = _board(req["board"])
        spec = req.get("cube")
        moves = self.find(board, self.cubeinfo(spec), int(req["plies"]), tuple(req["dice"]), cubeful=spec is not None)
        if not moves:
            return {"move": None}
        return {"move": list(moves[0]["move"]), "score": moves[0]["score"]}

    def rank(self, req: dict[str, Any]) -> dict[str, Any]:
        plies = int(req["plies"])
        ci = self.ci(1, -1, 0, (0, 0), False)
        boards = [_board(b) for b in req["boards"]]
        eq = [-self.g.evaluate(b, ci, self.context(0, False))[5] for b in boards]
        if plies > 0:
            order = sorted(range(len(eq)), key=lambda i: -eq[i])
            best = eq[order[0]]
            for i in [i for i in order[:9] if eq[i] >= best - 0.16]:
                eq[i] = -self.g.evaluate(boards[i], ci, self.context(plies, False))[5]
        return {"equities": eq}

    def evaluate(self, req: dict[str, Any]) -> dict[str, Any]:
        out = self.g.evaluate(
            _board(req["board"]), self.ci(1, -1, 0, (0, 0), False), self.context(int(req["plies"]), False)
        )
        return {"probs": list(out[:5])}

    def cube(self, req: dict[str, Any]) -> dict[str, Any]:
        value, owner, length, score, crawford = req["cube"]
        nd, dt, dp = self._cube(
            _board(req["board"]),
            int(value),
            int(owner),
            int(length),
            tuple(score),
            bool(crawford),
            int(req["plies"]),
            0,
        )
        return {"nd": nd, "dt": dt, "dp": dp}

    def _cube(
        self, board: Any, value: int, owner: int, length: int, score: tuple[int, int], crawford: bool, plies: int,
        depth: int
    ) -> tuple[float, float, float]:
        """No double, double/take, double/pass for the side on roll, averaged over its 36 rolls.

        Each roll's value is gnubg's cubeful score of its best play, which
        already counts the opponent's cube chances after it.  Values are
        points for money and match-winning chances for a match.
        """
        g = self.g
        nd_ci = self.ci(value, owner, length, score, crawford)
        dt_ci = self.ci(2 * value, 1, length, score, crawford)

        def unit(eq: float, ci: Any, cube: int) -> float:
            return eq * cube if length == 0 else float(g.eq2mwc(eq, ci))

        nd = dt = 0.0
        for d1, d2 in _ROLLS:
            weight = 1 if d1 == d2 else 2
            nd += weight * self._roll_value(board, nd_ci, value, owner, length, score, crawford, plies, (d1, d2), depth)
            dt += weight * self._roll_value(board, dt_ci, 2 * value, 1, length, score, crawford, plies, (d1, d2), depth)
        nd /= 36.0
        dt /= 36.0
        return unit(nd, nd_ci, value), unit(dt, dt_ci, 2 * value), unit(1.0, nd_ci, value)

    def _roll_value(
        self,
        board: Any,
        ci: Any,
        value: int,
        owner: int,
        length: int,
        score: tuple[int, int],
        crawford: bool,
        plies: int,
        dice: tuple[int, int],
        depth: int,
    ) -> float:
        """gnubg's normalised cubeful equity after the best play of this roll, for the side that rolled."""
        moves = self.find(board, ci, plies, dice, for_cube=True)
        if moves:
            return float(moves[0]["score"])
        # The roll cannot be played: the opponent is on roll in the same position, with its own cube choice.
        flipped = (board[1], board[0])
        their_owner = {-1: -1, 0: 1, 1: 0}[owner]
        their_score = (score[1], score[0])
        if depth >= 1:
            # Both sides dancing in turn: a cubeless estimate is close enough this deep.
            return -float(self.g.evaluate(flipped, self.ci(1, -1, 0, (0, 0), False), self.context(0, False))[5])
        nd, dt, dp = self._cube(flipped, value, their_owner, length, their_score, crawford, 0, depth + 1)
        may_double = their_owner != 1 and not crawford and length != 1 and value < 64
        best = max(nd, min(dt, dp)) if may_double else nd
        # Back to a normalised equity of this cube for the side that rolled.
        if length == 0:
            return -best / value
        their_ci = self.ci(value, their_owner, length, their_score, crawford)
        return -float(self.g.mwc2eq(best, their_ci))


def _board(b: list[list[int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return (tuple(int(x) for x in b[0]), tuple(int(x) for x in b[1]))


def worker_main() -> int:
    # Keep the protocol on a private copy of stdout: gnubg prints chatter of its own on fd 1.
    channel = os.fdopen(os.dup(1), "w", buffering=1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    try:
        import gnubg  # noqa: PLC0415 - the child exists to import it
    except Exception as exc:  # noqa: BLE001 - any failure means no engine
        for _ in sys.stdin:
            channel.write(json.dumps({"error": f"cannot import gnubg: {exc}"}) + "\n")
        return 1
    worker = _Worker(gnubg)
    handlers = {
        "hello": lambda req: {"version": getattr(gnubg, "version", "")},
        "best": worker.best,
        "rank": worker.rank,
        "eval": worker.evaluate,
        "cube": worker.cube,
    }
    for line in sys.stdin:
        try:
            req = json.loads(line)
            reply = handlers[req["op"]](req)
        except Exception as exc:  # noqa: BLE001 - report it to the parent, keep serving
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        channel.write(json.dumps(reply) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(worker_main())
