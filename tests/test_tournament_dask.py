"""``bezique tournament --scheduler``: a Dask cluster of two workers gives the games of one process.

The workers are forked from the test process (Dask spawns them by default, which
takes seconds more to start two interpreters): they are still processes of their
own, which get the tasks pickled and play them as a remote worker does.  The games
are short (ordinary bezique to 300, as an override the workers get with the task).
"""

from __future__ import annotations

import dask
from distributed import LocalCluster

from bezique.simulation.tournament import tournament

SHORT = {"game": {"target": 300}}
"""Games to 300: a random game of ordinary bezique is then a few dozen tricks."""


def test_a_dask_cluster_gives_the_result_of_one_process() -> None:
    specs = ["random", "heuristic", "random"]
    with dask.config.set({"distributed.worker.multiprocessing-method": "fork"}):
        cluster = LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        )
    with cluster:
        spread = tournament(
            "ordinary", specs, 4, 5, scheduler=cluster.scheduler_address, overrides=SHORT
        )
    alone = tournament("ordinary", specs, 4, 5, overrides=SHORT)
    assert spread == alone
    assert [pair["games"] for pair in spread["pairs"]] == [4, 4, 4]
