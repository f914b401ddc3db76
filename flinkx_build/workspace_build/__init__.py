"""The whole-workspace build, above the features it draws on: every task's summary and compiled SQL
with the graph, the cycle and workspace findings (`compile_all.py`), and the parses a build starts
before the meta tables load (`early_parse.py`). The command line (`commands/build.py`, `validate`,
`deploy`) calls it; `compile/` below compiles one task."""
