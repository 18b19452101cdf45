"""``bezique compare --scheduler``: a Dask cluster of two workers gives the games of one process.

The workers are forked from the test process (Dask spawns them by default, which
takes seconds more to start two interpreters): they are still processes of their
own, which get the tasks pickled and play them as a remote worker does.
"""

from __future__ import annotations

import dask
from distributed import LocalCluster

from bezique.compare.comparison import compare


def test_a_dask_cluster_gives_the_result_of_one_process() -> None:
    variants = ("eb1875", "hoyle1909")
    with dask.config.set({"distributed.worker.multiprocessing-method": "fork"}):
        cluster = LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        )
    with cluster:
        spread = compare(variants, 4, 3, players="random", scheduler=cluster.scheduler_address)
    alone = compare(variants, 4, 3, players="random")
    assert spread.result == alone.result
    assert spread.games == alone.games
    assert spread.result["games"] == 4 and not spread.result["interrupted"]
