"""Built-in texts, which a sysop may replace with files of the same name."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def load_text(name: str, override_dir: str | None = None) -> str:
    if override_dir:
        path = Path(override_dir) / f"{name}.txt"
        try:
            return path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            pass
    return resources.files("bgdoor").joinpath("texts", f"{name}.txt").read_text(encoding="utf-8")
