"""The built-in evaluator: a small neural net run with numpy.

It maps a position (side on roll) to five cubeless probabilities for the
side on roll, as GNU Backgammon's nets do: win, win a gammon (or more), win
a backgammon, lose a gammon (or more), lose a backgammon.  The weights were
fitted to GNU Backgammon's own evaluations by scripts/train_bot.py, so the
computer plays well without needing gnubg's native library at run time.

Boards here are integer arrays of 50 counts: the side on roll's 25 counts
then the other side's, each from its own view, as in `Position`.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bgdoor.rules.position import Position

Boards = npt.NDArray[np.integer]
Floats = npt.NDArray[np.float32]

WIN, WIN_G, WIN_BG, LOSE_G, LOSE_BG = range(5)
N_INPUTS = 2 * (24 * 4 + 3 + 1 + 1) + 2
_PIP_WEIGHTS = np.arange(1, 26, dtype=np.float32)


def boards_of(positions: list[Position]) -> npt.NDArray[np.int8]:
    return np.array([p.player + p.opponent for p in positions], dtype=np.int8).reshape(len(positions), 50)


def encode(boards: Boards) -> Floats:
    """Net inputs, one row per board.

    Per side: for each point, truncated unary (1+, 2+, 3+, and the excess over
    3 halved), as Tesauro's nets; the bar likewise; checkers off; the pip
    count.  Then whether the sides are still in contact, and the pip lead.
    """
    b = boards.reshape(-1, 2, 25).astype(np.float32)
    n = b.shape[0]
    pts = b[:, :, :24]
    unary = np.stack([pts >= 1, pts >= 2, pts >= 3, np.maximum(pts - 3, 0) * 0.5], axis=-1).astype(np.float32)
    bar = b[:, :, 24]
    bar_units = np.stack([bar >= 1, bar >= 2, np.maximum(bar - 2, 0) * 0.5], axis=-1).astype(np.float32)
    off = (15 - b.sum(axis=2)) / 15.0
    pips = (b * _PIP_WEIGHTS).sum(axis=2)
    # Furthest-back point of each side (0 when none left); they meet unless the sum is at most 25.
    occupied = b > 0
    back = np.where(occupied.any(axis=2), 25 - np.argmax(occupied[:, :, ::-1], axis=2), 0)
    contact = (back[:, 0] + back[:, 1] > 25).astype(np.float32)
    per_side = np.concatenate([unary.reshape(n, 2, 96), bar_units, off[:, :, None], (pips / 100.0)[:, :, None]], axis=2)
    return np.concatenate(
        [per_side.reshape(n, -1), contact[:, None], np.tanh((pips[:, 0] - pips[:, 1]) / 40.0)[:, None]], axis=1
    ).astype(np.float32)


class Net:
    """A multi-layer perceptron: ReLU hidden layers, five sigmoid outputs."""

    def __init__(self, layers: list[tuple[Floats, Floats]], mean: Floats, scale: Floats) -> None:
        self.layers = layers
        self.mean = mean
        self.scale = scale

    @classmethod
    def load(cls, path: str | Path | None = None) -> Net:
        if path is None:
            with resources.files("bgdoor.bot").joinpath("weights.npz").open("rb") as f:
                data = dict(np.load(f))
        else:
            data = dict(np.load(path))
        count = int(data["n_layers"])
        layers = [(data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32)) for i in range(count)]
        return cls(layers, data["mean"].astype(np.float32), data["scale"].astype(np.float32))

    def forward(self, inputs: Floats) -> Floats:
        x = (inputs - self.mean) * self.scale
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            # einsum rather than @: BLAS would spread these small products over threads, and on a
            # busy machine waiting for them costs far more than the arithmetic.
            x = np.einsum("ij,jk->ik", x, w) + b
            if i < last:
                np.maximum(x, 0.0, out=x)
        np.clip(x, -30.0, 30.0, out=x)  # far beyond any probability that matters; avoids exp overflow
        return np.asarray(1.0 / (1.0 + np.exp(-x)), dtype=np.float32)

    def probabilities(self, boards: Boards) -> Floats:
        """Five probabilities per board for its side on roll; finished games are exact."""
        boards = np.asarray(boards).reshape(-1, 50)
        out = self.forward(encode(boards))
        _fix_finished(boards, out)
        _tidy(out)
        return out


def _tidy(p: Floats) -> None:
    """Keep the outputs consistent: a backgammon is a gammon is a win."""
    np.minimum(p[:, WIN_G], p[:, WIN], out=p[:, WIN_G])
    np.minimum(p[:, WIN_BG], p[:, WIN_G], out=p[:, WIN_BG])
    np.minimum(p[:, LOSE_G], 1.0 - p[:, WIN], out=p[:, LOSE_G])
    np.minimum(p[:, LOSE_BG], p[:, LOSE_G], out=p[:, LOSE_BG])


def outcome(boards: Boards) -> Floats:
    """The five probabilities of finished games, from the side on roll's view (nan rows if unfinished).

    Only the side not on roll can have just finished: it bore off its last checker.
    """
    b = np.asarray(boards).reshape(-1, 2, 25)
    out = np.full((b.shape[0], 5), np.nan, dtype=np.float32)
    done = b[:, 1].sum(axis=1) == 0
    if done.any():
        loser = b[done, 0]
        gammon = loser.sum(axis=1) == 15
        # The winner's home board is the loser's points 19..24; the bar counts too.
        backgammon = gammon & (loser[:, 18:25].sum(axis=1) > 0)
        rows = np.zeros((int(done.sum()), 5), dtype=np.float32)
        rows[:, LOSE_G] = gammon
        rows[:, LOSE_BG] = backgammon
        out[done] = rows
    return out


def _fix_finished(boards: Boards, probs: Floats) -> None:
    exact = outcome(boards)
    done = ~np.isnan(exact[:, 0])
    if done.any():
        probs[done] = exact[done]
