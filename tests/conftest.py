"""Shared fixtures of the test suite.

``symdp check`` reuses what it checked before from a cache (issue #30, ``symdp/proof/cache.py``,
default ``~/.cache/symdp``).  The tests never read or write the user's cache: each test gets an
empty cache directory of its own (``SYMDP_CACHE_DIR``, inherited by the ``symdp`` processes a
test starts), so that what one test checked is never reused by another, in any order and under
pytest-xdist.  Fixtures wider than a test use the session's directory; a test that compares two
runs passes ``--no-cache``.
"""

import os
import shutil
import tempfile

import pytest

#: the cache directory symdp would use without the tests' override (the README's first
#: command, `symdp check`, fills it; tests/test_readme_examples.py reads the check from it)
USER_CACHE = os.environ.get("SYMDP_CACHE_DIR")


_SESSION_CACHE = []


def pytest_configure(config):
    # one directory per process (an xdist worker is a process): never the user's
    _SESSION_CACHE.append(tempfile.mkdtemp(prefix="symdp-test-cache-"))
    os.environ["SYMDP_CACHE_DIR"] = _SESSION_CACHE[-1]


def pytest_unconfigure(config):
    for directory in _SESSION_CACHE:
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(autouse=True)
def _own_cache_directory(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("SYMDP_CACHE_DIR", str(tmp_path_factory.mktemp("symdp-cache")))
