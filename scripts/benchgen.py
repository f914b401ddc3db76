"""Generate a realistic large workspace for the benchmark (scripts/bench.py), in one of two shapes.

Few big projects (`--shape big`, the default of `generate`): the example workspace's four projects (ods -> dim / dwd -> dws: SETs, hints,
cross-project references, lookup joins, windows, UDFs, a mirror table) are
copied as many times as needed into the SAME four projects, every meta table
and task of copy k renamed with the suffix `_c<k>`, and every reference to
one of the example's table names in the copied SQL renamed the same way. So
copy k is the example's warehouse over its own tables, the projects hold tens
to hundreds of tasks each, and the workspace builds and lints clean like the
example does.

Many small projects (`--shape small`, `generate_small`), the shape of real
Dataphin tenants: copy k of the example becomes four projects of its own
(`ods_c<k>`, `dim_c<k>`, `dwd_c<k>`, `dws_c<k>`, about three tasks each) with
their own functions; references to another project (`ods.users`,
`${dim_project}.dim_user`, `dim:mask_phone`) name copy k's project, so every
project reads meta tables of other projects. Consumer groups and CDC
server-id ranges stay distinct per copy, so the workspace lints clean.

Many tasks (`--shape large`, `generate_large`): the many-small-projects shape
grown to a tenant of `--tasks` tasks (10,000 by default), as many whole copies
as that takes: 770 copies, 3,080 projects, 10,010 tasks.

    python3 scripts/benchgen.py OUT_DIR --tasks 1000
    python3 scripts/benchgen.py OUT_DIR --shape small --projects 400
    python3 scripts/benchgen.py OUT_DIR --shape large --tasks 10000
"""
from __future__ import annotations

import argparse
import math
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "example-workspace"
TABLE_NAME = re.compile(r"^name:\s*(\w+)\s*$", re.MULTILINE)
# Strings that must stay unique per task in a workspace (consumer groups,
# mysql-cdc server ids, print identifiers): the workspace checks flag repeats.
GROUP_ID = re.compile(r"'(\w+)_\$\{env\}'")
SERVER_ID = re.compile(r"(['\"])(\d+)-(\d+)\1")


@dataclass(frozen=True)
class Template:
    """One file of the example workspace, relative to projects/."""

    relative: Path
    text: str


def _templates(kind: str) -> list[Template]:
    projects = EXAMPLE / "projects"
    return [
        Template(path.relative_to(projects), path.read_text(encoding="utf-8"))
        for path in sorted(projects.glob(f"*/{kind}/**/*"))
        if path.is_file() and path.suffix in (".sql", ".yaml")
    ]


def _table_names(tables: list[Template]) -> list[str]:
    names = {match.group(1) for table in tables for match in TABLE_NAME.finditer(table.text)}
    # Longest first, so dwd_refunds_mirror is not renamed as dwd_refunds + _mirror.
    return sorted(names, key=len, reverse=True)


def _rename_tables(sql: str, names: list[str], suffix: str) -> str:
    pattern = re.compile(r"(?<![\w.'-])(?:(\w+|\$\{\w+\})\.)?(" + "|".join(map(re.escape, names)) + r")\b(?!')")
    return pattern.sub(lambda m: (f"{m.group(1)}." if m.group(1) else "") + m.group(2) + suffix, sql)


def _suffixed(path: Path, suffix: str) -> Path:
    return path.with_name(f"{path.stem}{suffix}{path.suffix}")


def _shift_server_ids(text: str, copy: int) -> str:
    # The example's ranges all lie within 5401-5434: copy k moves them by 100 k.
    def shift(m: re.Match[str]) -> str:
        return f"{m.group(1)}{int(m.group(2)) + 100 * copy}-{int(m.group(3)) + 100 * copy}{m.group(1)}"

    return SERVER_ID.sub(shift, text)


def _task_text(template: Template, names: list[str], copy: int, suffix: str) -> str:
    text = _rename_tables(template.text, names, suffix)
    text = GROUP_ID.sub(lambda m: f"'{m.group(1)}{suffix}_${{env}}'", text)
    text = _shift_server_ids(text, copy)
    return text.replace("'peek-order-events'", f"'peek-order-events{suffix}'")


def generate(out: Path, tasks: int) -> Path:
    """Write a workspace of exactly `tasks` tasks into `out` (created) and return it."""
    task_templates, table_templates = _templates("tasks"), _templates("tables")
    names = _table_names(table_templates)
    out.mkdir(parents=True)
    shutil.copy2(EXAMPLE / "flinkx.yaml", out / "flinkx.yaml")
    for project in sorted((EXAMPLE / "projects").iterdir()):
        (out / "projects" / project.name).mkdir(parents=True)
        shutil.copy2(project / "project.yaml", out / "projects" / project.name / "project.yaml")
        if (project / "functions").is_dir():
            shutil.copytree(project / "functions", out / "projects" / project.name / "functions")
    written = 0
    for copy in range(math.ceil(tasks / len(task_templates))):
        suffix = f"_c{copy:03d}"
        for table in table_templates:
            target = out / "projects" / _suffixed(table.relative, suffix)
            target.parent.mkdir(parents=True, exist_ok=True)
            renamed = TABLE_NAME.sub(lambda m: f"name: {m.group(1)}{suffix}", table.text)
            target.write_text(_shift_server_ids(renamed, copy), encoding="utf-8")
        for task in task_templates:
            if written == tasks:
                break
            target = out / "projects" / _suffixed(task.relative, suffix)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(_task_text(task, names, copy, suffix), encoding="utf-8")
            written += 1
    return out


def _project_names() -> list[str]:
    return sorted(p.name for p in (EXAMPLE / "projects").iterdir() if p.is_dir())


def _rename_projects(text: str, projects: list[str], suffix: str) -> str:
    """`ods.t`, `dim:f` and the `dim_project` variable's value name copy k's project."""
    pattern = re.compile(r"(?<![\w.'/-])(" + "|".join(map(re.escape, projects)) + r")(?=[.:][`\w$])")
    return pattern.sub(lambda m: m.group(1) + suffix, text)


def _project_yaml(text: str, project: str, suffix: str) -> str:
    """The project's own name, and `dim_project` (a workspace variable naming a project) as its own variable."""
    text = re.sub(r"^name:\s*\w+\s*$", f"name: {project}{suffix}", text, count=1, flags=re.MULTILINE)
    dim_project = f"  dim_project: dim{suffix}\n"
    if re.search(r"^variables:\s*$", text, flags=re.MULTILINE):
        return re.sub(r"^variables:\s*$\n", "variables:\n" + dim_project, text, count=1, flags=re.MULTILINE)
    return text.rstrip("\n") + "\nvariables:\n" + dim_project


def generate_small(out: Path, projects: int) -> Path:
    """Write a workspace of `projects` projects (rounded up to whole copies of the example's four) into `out`."""
    task_templates, table_templates = _templates("tasks"), _templates("tables")
    names, example_projects = _table_names(table_templates), _project_names()
    out.mkdir(parents=True)
    shutil.copy2(EXAMPLE / "flinkx.yaml", out / "flinkx.yaml")
    for copy in range(math.ceil(projects / len(example_projects))):
        suffix = f"_c{copy:03d}"
        for project in example_projects:
            source, target = EXAMPLE / "projects" / project, out / "projects" / f"{project}{suffix}"
            target.mkdir(parents=True)
            (target / "project.yaml").write_text(
                _project_yaml((source / "project.yaml").read_text(encoding="utf-8"), project, suffix), encoding="utf-8")
            if (source / "functions").is_dir():
                shutil.copytree(source / "functions", target / "functions")
        for template in [*table_templates, *task_templates]:
            project, *rest = template.relative.parts
            target = out / "projects" / f"{project}{suffix}" / _suffixed(Path(*rest), suffix)
            target.parent.mkdir(parents=True, exist_ok=True)
            if template in table_templates:
                text = _shift_server_ids(TABLE_NAME.sub(lambda m: f"name: {m.group(1)}{suffix}", template.text), copy)
            else:
                text = _task_text(template, names, copy, suffix)
            target.write_text(_rename_projects(text, example_projects, suffix), encoding="utf-8")
    return out


def copies_for_tasks(tasks: int) -> int:
    """How many copies of the example (each four projects) hold at least `tasks` tasks."""
    return max(1, math.ceil(tasks / len(_templates("tasks"))))


def generate_large(out: Path, tasks: int) -> Path:
    """The many-small-projects shape with at least `tasks` tasks (whole copies of the example's four projects)."""
    return generate_small(out, 4 * copies_for_tasks(tasks))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--shape", choices=("big", "small", "large"), default="big")
    parser.add_argument("--tasks", type=int, default=None, help="tasks of the big shape (1,000) or the large one (10,000)")
    parser.add_argument("--projects", type=int, default=400, help="projects of the small shape")
    opts = parser.parse_args()
    if opts.shape == "small":
        print(generate_small(opts.out, opts.projects))
    elif opts.shape == "large":
        print(generate_large(opts.out, opts.tasks or 10_000))
    else:
        print(generate(opts.out, opts.tasks or 1000))


if __name__ == "__main__":
    main()
