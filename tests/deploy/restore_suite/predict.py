"""Both sides of every edit of the restore suite, compiled as `flinkx deploy --plan` compiles them."""
from __future__ import annotations

from typing import Any
from typing import Iterator

from flinkx_build.deploy.compat import CompiledJob
from tests.deploy.restore_suite.cases import BASES
from tests.deploy.restore_suite.cases import CASES
from tests.deploy.restore_suite.cases import Case
from tests.deploy.restore_suite.cases import statements


def compiled_cases(client: Any) -> Iterator[tuple[Case, CompiledJob, CompiledJob]]:
    """(case, base job, edited job) for every case; `client` is a deploy client (DriverFlink), each SQL compiled once."""
    jobs: dict[str, CompiledJob] = {}

    def job(sql: str) -> CompiledJob:
        if sql not in jobs:
            jobs[sql] = client.compile_job(statements(sql))
        return jobs[sql]

    for case in CASES:
        yield case, job(BASES[case.base]), job(case.edited)
