"""A save written on a thread (PostgreSQL's ThreadWriter) lets go of what it wrote once its answer is
back on the loop, without waiting for the cycle collector: a save's entry holds a whole table's
JSON or the log it copied, and a server makes thousands of saves a minute under a crowd (the
collector, tuned to run rarely, kept them for minutes: app/serving.py's tune_collector)."""
from __future__ import annotations

import asyncio
import gc
import threading
import weakref
from collections.abc import Iterator

import pytest

from app.tables.services import ThreadWriter


class Entry:
    """Stands for what a save holds until it is written (services.Entry, saving.Written)."""


@pytest.fixture
def no_cycle_collector() -> Iterator[None]:
    was = gc.isenabled()
    gc.collect()   # what earlier tests left is not counted here
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def test_a_finished_thread_write_is_freed_by_reference_counting(no_cycle_collector: None) -> None:
    async def write_one() -> tuple[weakref.ref, list[str]]:
        writer, landed, outcomes = ThreadWriter(threads=1), asyncio.Event(), []
        entry = Entry()

        def done(outcome: str, held: Entry = entry) -> None:   # as Saving's callback holds its entry
            outcomes.append(outcome)
            landed.set()
        go = threading.Event()   # the write lasts until the loop has registered its return
        writing = writer.run(lambda: go.wait() and 'written', done)
        entry_gone = weakref.ref(entry)
        go.set()
        del entry, done
        await landed.wait()
        writing.wait()   # after the answer: nothing left to wait for
        del writing
        return entry_gone, outcomes

    entry_gone, outcomes = asyncio.run(write_one())
    assert outcomes == ['written']
    assert entry_gone() is None, 'the entry is held until a collection finds a cycle'
