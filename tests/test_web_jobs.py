"""The job queue's line: as long as the wait it promises allows, judged by how long jobs take."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest

from patchwork_opt.apps.web.jobs import JobQueue, QueueFullError


def _sleeper(seconds: float) -> Callable[[], None]:
    return lambda: time.sleep(seconds)


def test_quick_jobs_make_a_long_line_and_the_refusal_says_when_to_come_back() -> None:
    async def scenario() -> None:
        queue = JobQueue(1, 50, 1, 5, retry_after=10, max_wait=1.0, first_job_seconds=0.2)
        jobs = [asyncio.ensure_future(queue.run(f"c{i}", _sleeper(0.2))) for i in range(6)]
        await asyncio.sleep(0.05)
        # one running, five waiting: (5 / 1 + 1) * 0.2 s = 1.2 s expected for a seventh, over 1 s
        assert queue.stats.running == 1 and queue.stats.queued == 5
        with pytest.raises(QueueFullError) as refused:
            await queue.run("late", _sleeper(0.2))
        assert refused.value.retry_after == 2  # the expected wait, rounded up
        await asyncio.gather(*jobs)
        assert queue.job_seconds == pytest.approx(0.2, abs=0.05)  # the mean follows the jobs' times
        queue.close()

    asyncio.run(scenario())


def test_long_jobs_make_a_short_line() -> None:
    async def scenario() -> None:
        queue = JobQueue(1, 50, 1, 5, retry_after=10, max_wait=1.0, first_job_seconds=0.8)
        jobs = [asyncio.ensure_future(queue.run(f"c{i}", _sleeper(0.3))) for i in range(2)]
        await asyncio.sleep(0.05)
        # one running and one waiting (a slot's worth always may): a third would wait (1 + 1) * 0.8 s
        with pytest.raises(QueueFullError):
            await queue.run("third", _sleeper(0.3))
        await asyncio.gather(*jobs)
        queue.close()

    asyncio.run(scenario())


def test_the_count_still_bounds_the_line_without_a_wait_bound() -> None:
    async def scenario() -> None:
        queue = JobQueue(1, 2, 1, 5, retry_after=3)
        jobs = [asyncio.ensure_future(queue.run(f"c{i}", _sleeper(0.1))) for i in range(3)]
        await asyncio.sleep(0.05)
        with pytest.raises(QueueFullError) as refused:
            await queue.run("fourth", _sleeper(0.1))
        assert 1 <= refused.value.retry_after <= 3
        await asyncio.gather(*jobs)
        queue.close()

    asyncio.run(scenario())
