"""The incremental layer: every fact flinkx derives and keeps, the one store that keeps them, and
the one scheduler that makes them on other cores (issue 45; docs/architecture.md "The incremental layer").

* `facts.py`: the table of derived facts, each with its entry format and version, the folder it is
  kept in, what its key covers (its inputs) and the function that makes it. A stage that makes a
  fact names its row (`FACTS[...]`); no module declares a format or a version of its own.
* `store.py`: the one store (`FactStore`): signed entries below the cache folder's code version
  (`cache_entries.py`, `cache_version.py`: the one code-version key), read and written by fact and
  key, and tallied per fact (what was found, made and stored), which the tests read to prove that a
  fact is made again exactly when one of its inputs changed.
* `scheduler.py`: work on every core (forked workers that inherit the parent's heap).

It is core: it knows no SQL, and the stages above call it. A fact's staleness comes only from its key
(its recorded inputs) and the code version; there is no other scheme.
"""
