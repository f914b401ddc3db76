"""The TCP sockets a process tree listens on, read from /proc (Linux): for the tests of what a JVM flinkx starts opens.

A socket a process holds is a `socket:[inode]` link among its file descriptors; /proc/net/tcp and tcp6 list every
TCP socket of the machine with its inode, local address and state (0A: LISTEN).
"""
from __future__ import annotations

import ipaddress
import os
import subprocess
import time
from pathlib import Path

LISTEN = "0A"


def _children(pid: int) -> set[int]:
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def tree(pid: int) -> set[int]:
    """`pid` and every process below it."""
    seen, todo = set(), [pid]
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo.extend(_children(current))
    return seen


def _inodes(pid: int) -> set[str]:
    inodes = set()
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if link.startswith("socket:["):
                inodes.add(link[len("socket:["):-1])
    except OSError:
        pass
    return inodes


def _address(hex_address: str) -> tuple[str, int]:
    host, port = hex_address.split(":")
    raw = bytes.fromhex(host)
    if len(raw) == 4:
        ip = ipaddress.IPv4Address(raw[::-1])
    else:  # four little-endian 32-bit words
        ip = ipaddress.IPv6Address(b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4)))
        if ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
    return str(ip), int(port, 16)


def listening(pids: set[int]) -> set[tuple[str, int]]:
    """(address, port) of every TCP socket in LISTEN state that one of `pids` holds."""
    inodes = set().union(*(_inodes(pid) for pid in pids)) if pids else set()
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if len(fields) > 9 and fields[3] == LISTEN and fields[9] in inodes:
                found.add(_address(fields[1]))
    return found


def watch(process: subprocess.Popen, timeout: float) -> set[tuple[str, int]]:
    """Every listening TCP socket the process tree held at some moment until it ended (polled)."""
    seen: set[tuple[str, int]] = set()
    deadline = time.monotonic() + timeout
    while process.poll() is None and time.monotonic() < deadline:
        seen |= listening(tree(process.pid) - {os.getpid()})
        time.sleep(0.05)
    return seen
