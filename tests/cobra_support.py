"""What the Cobra test modules share: a plain test unit of the engine's shape."""

from __future__ import annotations

from normandy_lab.engine.state import Unit


def cobra_unit(uid: str, side: str, hex_id: str, **kw) -> Unit:
    """Return an infantry regiment of two steps at ``hex_id`` (US or German by side), ``kw`` overriding."""
    base = dict(
        id=uid, name=uid, side=side, nationality="US" if side == "allied" else "DE", type="infantry",
        mechanized=False, size="regiment", formation=None, corps=None, hq=None, hex=hex_id, steps=2,
    )  # fmt: skip
    base.update(kw)
    return Unit(**base)
