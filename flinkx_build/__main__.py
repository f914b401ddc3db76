"""`python -m flinkx_build` runs the `flinkx` command line."""
from flinkx_build.cli import run

run()
