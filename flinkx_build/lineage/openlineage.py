"""OpenLineage run events: one per task, its meta tables as datasets named by connector.

Built with the `openlineage-python` client's own classes (the `lineage` extra) and
serialised with its `Serde`, one JSON event per line. Everything comes from the
session's analysed task (`session.analysed`): dataset names from each table's effective
options, column lineage and types from its statements' column facts.

Names follow the OpenLineage naming spec through the client's `naming` helpers
(kafka://host:port + topic, mysql://host:port + db.table, ...). A table whose
connector the spec does not name (datagen, print, blackhole, odps, ...), or whose
naming options are missing, hold a `${...}` placeholder or would show a credential,
is named `flinkx://<workspace>` + its meta table key instead: stable, and never a secret.
"""
from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote
from urllib.parse import urlsplit

from openlineage.client.event_v2 import InputDataset
from openlineage.client.event_v2 import Job
from openlineage.client.event_v2 import OutputDataset
from openlineage.client.event_v2 import Run
from openlineage.client.event_v2 import RunEvent
from openlineage.client.event_v2 import RunState
from openlineage.client.generated import column_lineage_dataset as cl
from openlineage.client.generated import job_type_job
from openlineage.client.generated import schema_dataset
from openlineage.client.naming import dataset as naming
from openlineage.client.serde import Serde

from flinkx_build import __version__
from flinkx_build.credentials import has_literal_credential
from flinkx_build.credentials import is_credential_key
from flinkx_build.pipeline import Session
from flinkx_build.resolve.analysed import AnalysedStatement
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.resolve.analysed import ColumnId
from flinkx_build.resolve.analysed import LineageInput
from flinkx_build.resolve.analysed import TableDef
from flinkx_build.workspace_model import Task

PRODUCER = f"https://github.com/your-org/flinkx/tree/{__version__}/flinkx_build/lineage/openlineage.py"
# runIds are UUID5s in this namespace: the same task and content give the same id on every run
RUN_ID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://github.com/your-org/flinkx/openlineage/run")


@dataclass(frozen=True, order=True)
class DatasetName:
    namespace: str
    name: str


class _Unnamable(Exception):
    """The options cannot give a spec name without guessing or showing a secret."""


_Names = list["naming.DatasetNaming | DatasetName"]


def flinkx_namespace(workspace: str) -> str:
    return "flinkx://" + quote(workspace, safe="-._~")


def _option(options: dict[str, str], key: str) -> str:
    value = str(options.get(key, "")).strip()
    if not value or "${" in value or is_credential_key(key):
        raise _Unnamable(key)
    return value


def _authority(text: str) -> tuple[str, str | None]:
    """host and port of `host:port` (or `[v6]:port`), without any user info."""
    parts = urlsplit("//" + text.strip())
    if not parts.hostname:
        raise _Unnamable(text)
    try:
        port = parts.port
    except ValueError as exc:
        raise _Unnamable(text) from exc
    return parts.hostname, None if port is None else str(port)


def _kafka(options: dict[str, str]) -> _Names:
    # the spec names a cluster by its first bootstrap server
    host, port = _authority(_option(options, "properties.bootstrap.servers").split(",")[0])
    topics = [t.strip() for t in _option(options, "topic").split(";") if t.strip()]
    return [naming.Kafka(host, port or "9092", topic) for topic in topics]


def _database(scheme: str, host: str, port: str | None, database: str, table: str) -> naming.DatasetNaming | DatasetName:
    if scheme == "mysql":
        return naming.MySQL(host, port or "3306", database, table)
    if scheme in ("postgresql", "postgres"):
        schema, _, name = table.rpartition(".")
        return naming.Postgres(host, port or "5432", database, schema or "public", name)
    authority = f"{host}:{port}" if port else host
    return DatasetName(f"{scheme}://{authority}", f"{database}.{table}")


def _jdbc(options: dict[str, str]) -> _Names:
    url = _option(options, "url")
    if not url.lower().startswith("jdbc:"):
        raise _Unnamable(url)
    parts = urlsplit(url[5:])  # only scheme, host, port and path: never user info or query parameters
    database = parts.path.strip("/")
    if not parts.scheme or not parts.netloc or not database or "/" in database:
        raise _Unnamable(url)
    host, port = _authority(parts.netloc.rpartition("@")[2])
    return [_database(parts.scheme.lower(), host, port, database, _option(options, "table-name"))]


def _cdc(scheme: str, default_port: str) -> Callable[[dict[str, str]], _Names]:
    def name(options: dict[str, str]) -> _Names:
        host = _option(options, "hostname")
        port = str(options.get("port") or default_port)
        if "${" in port:
            raise _Unnamable("port")
        table = _option(options, "table-name")
        if scheme == "postgres" and options.get("schema-name"):
            table = f"{_option(options, 'schema-name')}.{table}"
        return [_database(scheme, host, port, _option(options, "database-name"), table)]
    return name


def _hbase(options: dict[str, str]) -> _Names:
    return [DatasetName(f"hbase://{_option(options, 'zookeeper.quorum')}", _option(options, "table-name"))]


def _filesystem(options: dict[str, str]) -> _Names:
    path = _option(options, "path")
    parts = urlsplit(path)
    scheme = parts.scheme.lower()
    if scheme in ("", "file"):
        return [naming.RemoteFileSystem(parts.netloc, parts.path) if parts.netloc else naming.LocalFileSystem(parts.path)]
    if scheme in ("s3", "s3a", "s3n"):
        return [naming.S3(parts.netloc, parts.path.lstrip("/"))]
    if scheme == "gs":
        return [naming.GCS(parts.netloc, parts.path.lstrip("/"))]
    if scheme == "hdfs" and parts.netloc:
        host, port = _authority(parts.netloc)
        return [naming.HDFS(host, port or "8020", parts.path)]
    return [DatasetName(f"{scheme}://{parts.netloc}", parts.path)]


_NAMERS: dict[str, Callable[[dict[str, str]], _Names]] = {
    "kafka": _kafka, "upsert-kafka": _kafka, "jdbc": _jdbc,
    "mysql-cdc": _cdc("mysql", "3306"), "postgres-cdc": _cdc("postgres", "5432"),
    "hbase-1.4": _hbase, "hbase-2.2": _hbase, "hbase": _hbase, "filesystem": _filesystem,
}


def dataset_names(options: dict[str, str], key: str, workspace: str) -> list[DatasetName]:
    """The spec names of a table with these effective options, else `flinkx://<workspace>` + `key`."""
    namer = _NAMERS.get(str(options.get("connector", "")).strip().lower())
    fallback = [DatasetName(flinkx_namespace(workspace), key)]
    if namer is None:
        return fallback
    try:
        found = [n if isinstance(n, DatasetName) else DatasetName(n.get_namespace(), n.get_name()) for n in namer(options)]
    except (_Unnamable, ValueError, TypeError):  # the client's validators refuse empty parts
        return fallback
    # a literal credential value that found its way into a host, path or topic option stays hidden
    secrets = [str(v) for k, v in options.items() if has_literal_credential(k, v)]
    if not found or any(s in f"{n.namespace}/{n.name}" for n in found for s in secrets):
        return fallback
    return sorted(set(found))


@dataclass
class _TaskDatasets:
    names: dict[str, list[DatasetName]]  # meta table key or task-local id -> dataset names
    schemas: dict[str, list[tuple[str, str | None]]]  # -> (column, type)


def _definitions(rt: AnalysedTask) -> dict[str, list[TableDef]]:
    return {key: [d for d, _ in use.variants] for key, use in rt.tables.items()}


def _task_datasets(rt: AnalysedTask, workspace: str) -> _TaskDatasets:
    names: dict[str, list[DatasetName]] = {}
    schemas: dict[str, list[tuple[str, str | None]]] = {}
    for key, definitions in _definitions(rt).items():
        names[key] = sorted({n for d in definitions for n in dataset_names(d.options, key, workspace)})
        if definitions:
            schemas[key] = [(c.name, c.type or None) for c in definitions[0].columns]
    # task-local tables (`<project>/<task>#<name>`) are named under the flinkx namespace
    local = flinkx_namespace(workspace)
    for statement in rt.statements:
        if statement.sink and statement.sink not in names:
            names[statement.sink] = [DatasetName(local, statement.sink)]
            if statement.sink_columns is not None:
                schemas[statement.sink] = [(c, t.format() if t else None) for c, t in statement.sink_columns]
        for column in _columns_read(statement):
            names.setdefault(column.table, [DatasetName(local, column.table)])
    return _TaskDatasets(names, schemas)


def _columns_read(statement: AnalysedStatement) -> set[ColumnId]:
    """Every column the statement reads: into its written columns, or in filters, joins and grouping."""
    read = set(statement.indirect)
    for inputs in statement.lineage().values():
        read.update(i.column for i in inputs)
    return read


_DIRECT = {"IDENTITY", "TRANSFORMATION", "AGGREGATION"}


def _input_fields(datasets: _TaskDatasets, column: ColumnId, transformation: cl.Transformation) -> list[cl.InputField]:
    return [cl.InputField(n.namespace, n.name, column.column, [transformation]) for n in datasets.names.get(column.table, [])]


def _column_lineage(rt: AnalysedTask, sink: str, datasets: _TaskDatasets) -> cl.ColumnLineageDatasetFacet:
    fields: dict[str, set[LineageInput]] = {}
    indirect: set[ColumnId] = set()
    for statement in rt.statements:
        if statement.sink != sink:
            continue
        for name, inputs in statement.lineage().items():
            fields.setdefault(name, set()).update(inputs)
        indirect.update(statement.indirect)

    def direct(item: LineageInput) -> list[cl.InputField]:
        subtype = item.transformation if item.transformation in _DIRECT else None
        return _input_fields(datasets, item.column, cl.Transformation("DIRECT", subtype))

    # filters, join keys and grouping: the model does not say which one, so no subtype
    whole = [f for column in sorted(indirect) for f in _input_fields(datasets, column, cl.Transformation("INDIRECT"))]
    return cl.ColumnLineageDatasetFacet(
        fields={name: cl.Fields([f for item in sorted(inputs) for f in direct(item)]) for name, inputs in sorted(fields.items())},
        dataset=whole, producer=PRODUCER,
    )


def _schema(columns: list[tuple[str, str | None]]) -> schema_dataset.SchemaDatasetFacet:
    return schema_dataset.SchemaDatasetFacet(
        fields=[schema_dataset.SchemaDatasetFacetFields(name, type_, ordinal_position=i) for i, (name, type_) in enumerate(columns, 1)],
        producer=PRODUCER,
    )


def task_event(session: Session, task: Task, workspace: str, event_time: str) -> RunEvent:
    """The task's COMPLETE run event (a static description of the job as built)."""
    rt = session.analysed(task)
    datasets = _task_datasets(rt, workspace)
    writes = set(rt.writes) | {s.sink for s in rt.statements if s.sink}
    reads = (set(rt.reads) | {c.table for s in rt.statements for c in _columns_read(s)}) - writes

    def facets(key: str) -> dict[str, schema_dataset.SchemaDatasetFacet]:
        schema = datasets.schemas.get(key)
        return {"schema": _schema(schema)} if schema else {}

    inputs = sorted((InputDataset(n.namespace, n.name, facets=facets(key)) for key in reads for n in datasets.names.get(key, [])),
                    key=lambda d: (d.namespace, d.name))
    outputs = sorted((OutputDataset(n.namespace, n.name, facets={**facets(key), "columnLineage": _column_lineage(rt, key, datasets)})
                      for key in writes for n in datasets.names.get(key, [])), key=lambda d: (d.namespace, d.name))
    processing = "STREAMING" if session.mode == "stream" else "BATCH"
    job = Job(workspace, task.key, facets={"jobType": job_type_job.JobTypeJobFacet(processing, "FLINK", "JOB", producer=PRODUCER)})
    # runId: UUID5 of the task and everything the event says, so re-runs over the same workspace agree
    body = task.content_hash + "".join(Serde.to_json(part) for part in (job, *inputs, *outputs))
    run_id = str(uuid.uuid5(RUN_ID_NAMESPACE, f"{workspace}/{task.key}#{hashlib.sha256(body.encode()).hexdigest()}"))
    return RunEvent(eventType=RunState.COMPLETE, eventTime=event_time, run=Run(runId=run_id), job=job,
                    producer=PRODUCER, inputs=inputs, outputs=outputs)


def events_jsonl(session: Session, tasks: list[Task], workspace: str, event_time: str) -> str:
    """One serialised event per task, one per line, in task order."""
    return "".join(Serde.to_json(task_event(session, task, workspace, event_time)) + "\n" for task in tasks)
