"""Ray, for work spread over a cluster (matches, self-play, the puzzle bank): the one place that starts it.

Ray is the ``ray`` extra; a caller imports this only once the user asked for ``--backend ray``, so a
missing Ray is the CLI boundary's one line naming the extra.
"""

from __future__ import annotations

from typing import Any


def started_ray(workers: int, address: str | None) -> Any:
    """The ``ray`` module, connected to the cluster at ``address``, else to a local one of ``workers``
    CPUs started now (once per process: a running one is used as it is)."""
    import ray

    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, log_to_driver=False, include_dashboard=False)
    return ray
