"""Every program flinkx starts (pip, java, javac, git) is started here, and always the same way.

flinkx usually runs with a workspace from a pull request as its working folder. A child started
plainly inherits three things from there that the pull request controls:

- the working folder: `python -m pip` puts it first on `sys.path`, so a committed `pip/__main__.py`
  would run instead of pip; a JVM writes its crash files there;
- a relative entry of PATH (`''`, `.`, `bin`): the program looked up there is a committed file;
- whatever the environment says (`PYTHONPATH`, `JAVA_TOOL_OPTIONS`, `GIT_DIR`, `FLINK_CONF_DIR`, ...).

So a child here runs in flinkx's own folder in the user cache (never a workspace), is looked up on
PATH's absolute entries only, gets a minimal environment (`environment`), and a Python child runs
isolated (`-I`: no working folder or script folder on `sys.path`, no `PYTHON*` variables, no user
site-packages). The paths a caller passes in arguments must be absolute: the working folder is not
the caller's.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any
from typing import Mapping
from typing import Sequence

from flinkx_build.cache_root import private_folder
from flinkx_build.cache_root import user_cache_dir

# what a child needs from flinkx's environment: where programs are, the user's home and language, the JDK,
# and how the network and the package index are reached (proxies, certificates, pip's own configuration)
KEPT = frozenset({
    "PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TZ", "TMPDIR",
    "JAVA_HOME",
    "http_proxy", "https_proxy", "no_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY",
    "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "NETRC",
    "XDG_CONFIG_HOME", "XDG_CONFIG_DIRS", "XDG_CACHE_HOME",
    # where git's own configuration is (CI marks checkouts safe there); never which repository it reads
    "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM",
})
KEPT_PREFIXES = ("PIP_",)  # pip's configuration: index, extra index, find-links, certificates, timeout


def absolute_path(value: str) -> str:
    """PATH without its relative entries (`''` and `.` mean the working folder: a workspace)."""
    return os.pathsep.join(entry for entry in value.split(os.pathsep) if entry and os.path.isabs(entry))


def environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a child: the `KEPT` variables of flinkx's own (PATH's absolute entries only),
    then `extra`."""
    env = {key: value for key, value in os.environ.items() if key in KEPT or key.startswith(KEPT_PREFIXES)}
    env["PATH"] = absolute_path(env.get("PATH", os.defpath))
    env.update(extra or {})
    return env


def find_program(name: str) -> str | None:
    """`name` on PATH's absolute entries, as an absolute path; None when it is not there."""
    for folder in absolute_path(os.environ.get("PATH", os.defpath)).split(os.pathsep):
        candidate = os.path.join(folder, name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def java_tool(name: str) -> str | None:
    """`java` or `javac`: `$JAVA_HOME/bin/<name>` when JAVA_HOME is set (an absolute folder), else PATH's."""
    java_home = os.environ.get("JAVA_HOME")
    if java_home and os.path.isabs(java_home):
        candidate = Path(java_home, "bin", name)
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return find_program(name)


def python_command(*args: str) -> list[str]:
    """This interpreter, isolated (`-I`), with `args` (e.g. "-m", "pip", ...)."""
    return [sys.executable, "-I", *args]


def working_folder() -> str:
    """flinkx's own folder in the user cache (0700, this user's): never a workspace. The system's temporary
    folder only when the user cache cannot be had (a Python child is isolated all the same)."""
    try:
        return str(private_folder(user_cache_dir()).resolve())
    except OSError:
        return tempfile.gettempdir()


def _checked(cmd: Sequence[str]) -> list[str]:
    if not cmd or not os.path.isabs(cmd[0]):
        raise FileNotFoundError(f"{cmd[0] if cmd else 'a program'}: flinkx starts programs by absolute path only")
    return list(cmd)


def run(cmd: Sequence[str], *, env: Mapping[str, str] | None = None, **kwargs: Any) -> subprocess.CompletedProcess:
    """`subprocess.run` of `cmd` (its program an absolute path) in flinkx's working folder, with the minimal
    environment plus `env`. Other keyword arguments are subprocess.run's (stdin defaults to nothing)."""
    kwargs.setdefault("stdin", subprocess.DEVNULL if kwargs.get("input") is None else None)
    return subprocess.run(_checked(cmd), cwd=working_folder(), env=environment(env), **kwargs)


def popen(cmd: Sequence[str], *, env: Mapping[str, str] | None = None, **kwargs: Any) -> subprocess.Popen:
    """`subprocess.Popen` of `cmd` the same way as `run`."""
    return subprocess.Popen(_checked(cmd), cwd=working_folder(), env=environment(env), **kwargs)
