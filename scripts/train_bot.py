"""Train the built-in bot's net by distilling GNU Backgammon's evaluations.

The shipped src/bgdoor/bot/weights.npz came from these three steps (gnubg
installed; about 12 minutes, a few seconds and 7 minutes on one core):

    python scripts/train_bot.py generate --games 20000 --data DIR --seed 1
    python scripts/train_bot.py races --count 400000 --data DIR --seed 2
    python scripts/train_bot.py train --data DIR --out src/bgdoor/bot/weights.npz

`generate` plays seeded self-play games with varied strength (gnubg's 0-ply
choice with noise, some random plays, some games against a random player)
so the positions cover what the bot will meet, including the poor plays it
must rank below the good ones.  It keeps every position reached plus a few
of the plays not chosen, each labelled with gnubg's 0-ply cubeless
probabilities.  `races` adds random race positions, which self-play meets
in too few shapes.  `train` fits the net with plain numpy (Adam,
cross-entropy on the five probabilities, cosine learning-rate decay) and
writes the weights the package ships.

Everything is seeded, so a run can be repeated.  numpy uses one thread
unless told otherwise, to leave the machine's other core free.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from bgdoor.bot.net import N_INPUTS, encode  # noqa: E402
from bgdoor.rules.moves import legal_plays  # noqa: E402
from bgdoor.rules.position import Position  # noqa: E402

# ------------------------------------------------------------------ generate


def _gnubg():  # type: ignore[no-untyped-def]
    import gnubg  # noqa: PLC0415 - only the data steps need it

    return gnubg


def _board(pos: Position) -> bytes:
    return bytes(pos.player + pos.opponent)


def generate(games: int, data: Path, seed: int) -> None:
    gnubg = _gnubg()
    cube = gnubg.cubeinfo()
    ctx = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    rng = random.Random(seed)
    seen: dict[bytes, tuple[float, ...]] = {}  # kept for training
    t0 = time.time()

    def label(pos: Position, keep: bool = True) -> tuple[float, ...]:
        key = _board(pos)
        got = seen.get(key)
        if got is None:
            got = tuple(gnubg.evaluate(pos.to_gnubg(), cube, ctx)[:5])
            if keep:
                seen[key] = got
        return got

    for g in range(games):
        # Each side gets its own style for the game: how often it plays at random, how noisy its choice.
        styles = []
        for _ in range(2):
            if rng.random() < 0.08:
                styles.append((1.0, 0.0))
            else:
                styles.append((rng.choice((0.0, 0.0, 0.03, 0.1, 0.25)), rng.choice((0.0, 0.01, 0.03, 0.06, 0.12))))
        pos = Position.start()
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        while d1 == d2:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        side = 0 if d1 > d2 else 1
        dice = (d1, d2)
        for _turn in range(400):
            plays = legal_plays(pos, dice)
            if plays:
                eps, sigma = styles[side]
                finished = [p for p in plays if p.position.opponent_off == 15]
                if finished:
                    break
                if rng.random() < eps:
                    choice = rng.choice(plays)
                else:
                    best, best_eq = plays[0], -99.0
                    for p in plays:
                        pr = label(p.position, keep=False)
                        eq = -(2 * pr[0] - 1 + pr[1] + pr[2] - pr[3] - pr[4]) + (rng.gauss(0, sigma) if sigma else 0.0)
                        if eq > best_eq:
                            best, best_eq = p, eq
                    choice = best
                # A few plays not chosen: the net must rank them too.
                others = [p for p in plays if p is not choice]
                for p in rng.sample(others, min(3, len(others))):
                    label(p.position)
                pos = choice.position
                label(pos)
            else:
                pos = pos.swap()
            side = 1 - side
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        if (g + 1) % 500 == 0:
            print(f"{g + 1} games, {len(seen)} positions, {time.time() - t0:.0f}s", file=sys.stderr, flush=True)
    boards = np.frombuffer(b"".join(seen.keys()), dtype=np.int8).reshape(-1, 50)
    labels = np.array(list(seen.values()), dtype=np.float32)
    data.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(data / f"positions-{seed}.npz", boards=boards, labels=labels)
    print(f"wrote {len(boards)} positions in {time.time() - t0:.0f}s", file=sys.stderr)


def races(count: int, data: Path, seed: int) -> None:
    """Random race positions (no contact), from short bear-offs to long races.

    Self-play meets races late and in few shapes, so the net needs these
    to judge races, and the cube in them, well.
    """
    gnubg = _gnubg()
    cube = gnubg.cubeinfo()
    ctx = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    rng = random.Random(seed)
    seen: dict[bytes, tuple[float, ...]] = {}
    t0 = time.time()
    while len(seen) < count:
        # The two furthest-back checkers together span `reach` points; mostly long races.
        reach = rng.randint(8, 24) if rng.random() < 0.7 else rng.randint(2, 12)
        mine = rng.randint(1, reach - 1)
        sides = []
        for top in (mine, reach - mine):
            n = 15 if rng.random() < 0.6 else rng.randint(1, 14)
            # Checkers pile up towards home: weight point k by a random power of its distance from the top.
            power = rng.uniform(0.0, 1.2)
            weights = [(top - k) ** power for k in range(top)]
            picks = rng.choices(range(top), weights=weights, k=n)
            picks[0] = top - 1  # someone is on the furthest point
            counts = [0] * 25
            for k in picks:
                counts[k] += 1
            sides.append(tuple(counts))
        try:
            pos = Position(sides[0], sides[1])
        except ValueError:
            continue
        if sum(pos.player) == 0 or sum(pos.opponent) == 0:
            continue
        key = _board(pos)
        if key not in seen:
            seen[key] = tuple(gnubg.evaluate(pos.to_gnubg(), cube, ctx)[:5])
    boards = np.frombuffer(b"".join(seen.keys()), dtype=np.int8).reshape(-1, 50)
    labels = np.array(list(seen.values()), dtype=np.float32)
    data.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(data / f"positions-race-{seed}.npz", boards=boards, labels=labels)
    print(f"wrote {len(boards)} race positions in {time.time() - t0:.0f}s", file=sys.stderr)


def _load(data: Path) -> tuple[np.ndarray, np.ndarray]:
    """Every labelled position in `data`, each once."""
    table: dict[bytes, np.ndarray] = {}
    for f in sorted(data.glob("positions-*.npz")):
        z = np.load(f)
        for b, y in zip(z["boards"], z["labels"]):
            table[b.tobytes()] = y
    boards = np.frombuffer(b"".join(table.keys()), dtype=np.int8).reshape(-1, 50)
    labels = np.array(list(table.values()), dtype=np.float32)
    return boards, labels


# --------------------------------------------------------------------- train


def train(data: Path, out: Path, hidden: list[int], epochs: int, seed: int, batch: int, lr: float) -> None:
    boards, labels = _load(data)
    print(f"{len(boards)} positions", file=sys.stderr)
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(boards))
    boards, labels = boards[order], labels[order]
    x = encode(boards)
    assert x.shape[1] == N_INPUTS
    n_val = min(20000, len(x) // 20)
    xv, yv = x[:n_val], labels[:n_val]
    xt, yt = x[n_val:], labels[n_val:]
    mean = xt.mean(axis=0).astype(np.float32)
    std = xt.std(axis=0)
    scale = np.where(std > 1e-6, 1.0 / np.maximum(std, 1e-6), 0.0).astype(np.float32)

    sizes = [N_INPUTS, *hidden, 5]
    ws = [(rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32) for a, b in zip(sizes, sizes[1:])]
    bs = [np.zeros(b, dtype=np.float32) for b in sizes[1:]]
    params = [*ws, *bs]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    step = 0
    # Equity weights: errors in the probabilities that move equity most matter most.
    out_weight = np.array([2.0, 1.0, 1.0, 1.0, 1.0], dtype=np.float32)

    def forward(xb: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
        acts = [(xb - mean) * scale]
        h = acts[0]
        for i in range(len(ws)):
            h = h @ ws[i] + bs[i]
            if i < len(ws) - 1:
                h = np.maximum(h, 0.0)
                acts.append(h)
        return acts, 1.0 / (1.0 + np.exp(-h))

    def equity_error(xb: np.ndarray, yb: np.ndarray) -> float:
        _, p = forward(xb)
        e = lambda q: 2 * q[:, 0] - 1 + q[:, 1] + q[:, 2] - q[:, 3] - q[:, 4]  # noqa: E731
        return float(np.mean(np.abs(e(p) - e(yb))))

    t0 = time.time()
    for epoch in range(epochs):
        rate = lr * 0.5 * (1 + np.cos(np.pi * epoch / epochs))  # cosine decay
        perm = rng.permutation(len(xt))
        for start in range(0, len(xt) - batch + 1, batch):
            idx = perm[start : start + batch]
            xb, yb = xt[idx], yt[idx]
            acts, p = forward(xb)
            # Cross-entropy with sigmoid outputs: the gradient at the logits is p - y.
            delta = (p - yb) * out_weight / len(xb)
            grads_w: list[np.ndarray] = [None] * len(ws)  # type: ignore[list-item]
            grads_b: list[np.ndarray] = [None] * len(ws)  # type: ignore[list-item]
            for i in range(len(ws) - 1, -1, -1):
                grads_w[i] = acts[i].T @ delta
                grads_b[i] = delta.sum(axis=0)
                if i:
                    delta = (delta @ ws[i].T) * (acts[i] > 0)
            step += 1
            for k, g in enumerate([*grads_w, *grads_b]):
                m[k] = beta1 * m[k] + (1 - beta1) * g
                v[k] = beta2 * v[k] + (1 - beta2) * g * g
                mh = m[k] / (1 - beta1**step)
                vh = v[k] / (1 - beta2**step)
                params[k] -= (rate * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        print(
            f"epoch {epoch + 1}/{epochs} lr {rate:.5f} val |equity error| {equity_error(xv, yv):.4f} "
            f"train {equity_error(xt[:n_val], yt[:n_val]):.4f} {time.time() - t0:.0f}s",
            file=sys.stderr,
            flush=True,
        )
    save: dict[str, np.ndarray] = {"n_layers": np.array(len(ws)), "mean": mean, "scale": scale}
    for i, (w, b) in enumerate(zip(ws, bs)):
        # float16 halves the file; the rounding is far below what the net can resolve.
        save[f"w{i}"] = w.astype(np.float16)
        save[f"b{i}"] = b.astype(np.float32)
    np.savez_compressed(out, **save)
    print(f"wrote {out} ({out.stat().st_size} bytes)", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--games", type=int, default=20000)
    g.add_argument("--data", type=Path, required=True)
    g.add_argument("--seed", type=int, default=1)
    r = sub.add_parser("races")
    r.add_argument("--count", type=int, default=300000)
    r.add_argument("--data", type=Path, required=True)
    r.add_argument("--seed", type=int, default=2)
    t = sub.add_parser("train")
    t.add_argument("--data", type=Path, required=True)
    t.add_argument("--out", type=Path, default=Path("src/bgdoor/bot/weights.npz"))
    t.add_argument("--hidden", type=int, nargs="+", default=[192, 96])
    t.add_argument("--epochs", type=int, default=16)
    t.add_argument("--batch", type=int, default=512)
    t.add_argument("--lr", type=float, default=0.002)
    t.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    if a.cmd == "generate":
        generate(a.games, a.data, a.seed)
    elif a.cmd == "races":
        races(a.count, a.data, a.seed)
    else:
        train(a.data, a.out, a.hidden, a.epochs, a.seed, a.batch, a.lr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
