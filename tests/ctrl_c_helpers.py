"""A simulated Ctrl-C at a chosen point of a search, for the tests of its stop."""

from __future__ import annotations

import signal


def ctrl_c_on_call(monkeypatch, owner, name: str, call: int = 1) -> list[int]:
    """Ctrl-C (a real SIGINT to this process) when ``owner.name`` is called the ``call``-th
    time, just before it runs. Returns the list of calls (one item each)."""
    real = getattr(owner, name)
    calls: list[int] = []

    def pressed_here(*args, **kwargs):
        calls.append(1)
        if len(calls) == call:
            signal.raise_signal(signal.SIGINT)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, pressed_here)
    return calls
