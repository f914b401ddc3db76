"""The secret that proves a cache entry was written by flinkx, for this user, on this machine.

Every cache key is computable from a workspace's own bytes, and a pull request
can commit the cache folder (`git add -f .flinkx-cache`), so a checksum over an
entry proves nothing about who wrote it: a forged run memo made `flinkx lint`
pass a broken task, a forged YAML entry changed a built sink. Each entry
therefore carries an HMAC-SHA256 (`entry_mac`) under a random key kept in the
user's own cache folder (`cache_root.user_cache_dir`, a real folder only its
user can write), which no workspace can name, read or plant. An entry whose MAC
does not verify is a miss and is rewritten.

The key file is made once, 0600, by writing a temporary file (O_EXCL) and
hard-linking it into place, so a concurrent run sees either no key or a whole
one; it is read without following a link and used only when it is a regular
file of this user that nobody else can read. When it cannot be made or read,
`cache_secret` is None and nothing is cached for the run (only slower).
"""
from __future__ import annotations

import hmac
import os
import stat
import tempfile
from pathlib import Path

from flinkx_build.cache_root import HOME_ENV
from flinkx_build.cache_root import private_folder
from flinkx_build.cache_root import user_cache_dir

SECRET_FILE = "cache-key"
SECRET_BYTES = 32
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
# by what names the user cache folder (`user_cache_dir`): tests may change it within a process,
# and every cache read asks, so the memo key is three lookups, not the folder's path
_secrets: dict[tuple[str | None, str | None, str | None], bytes | None] = {}


def cache_secret() -> bytes | None:
    """This user's cache key (made on first use), or None when it cannot be made or trusted."""
    env = os.environ
    named_by = (env.get(HOME_ENV), env.get("XDG_CACHE_HOME"), env.get("HOME"))
    found = _secrets.get(named_by, b"")
    if found == b"":
        try:
            found = _read_or_make(private_folder(user_cache_dir()) / SECRET_FILE)
        except OSError:
            found = None
        _secrets[named_by] = found
    return found


def entry_mac(secret: bytes, header: bytes, body: bytes) -> str:
    """HMAC-SHA256 over an entry's header (format, version, key) and data bytes."""
    return hmac.digest(secret, header + body, "sha256").hex()  # OpenSSL's one-shot: a third of `hmac.new`'s cost


def _read_or_make(path: Path) -> bytes:
    try:
        return _read(path)
    except FileNotFoundError:
        _make(path)
        return _read(path)


def _read(path: Path) -> bytes:
    """The key's bytes; OSError unless `path` is a regular file of this user, private, of the right size."""
    fd = os.open(path, _OPEN_FLAGS)
    with open(fd, "rb", buffering=0) as fh:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size != SECRET_BYTES:
            raise OSError(f"{path} is not a cache key")
        if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o077):
            raise OSError(f"{path} belongs to another user or others can read it")
        data = fh.read(SECRET_BYTES + 1)
    if len(data) != SECRET_BYTES:
        raise OSError(f"{path} is not a cache key")
    return data


def _make(path: Path) -> None:
    """Write a new key; a key another run made first is kept (`os.link` never replaces)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".cache-key-", suffix=".tmp")  # O_EXCL, 0600
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(os.urandom(SECRET_BYTES))
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
    finally:
        os.unlink(tmp)
