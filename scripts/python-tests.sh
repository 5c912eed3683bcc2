#!/usr/bin/env bash
# scripts/python-tests.sh - the Python module's tests (tests/python, pytest): installs the
# module with `pip install .` into a fresh virtual environment, as a user would, and
# checks it against mappy, minimap2's own binding:
#   - mappy 2.24: Debian's python3-mappy (scripts/install-deps.sh installs it), seen
#     through the environment's system site packages, for Debian's python3 (/usr/bin/python3);
#   - mappy 2.31: built from PyPI's mappy 2.31 sdist (pinned by sha256,
#     scripts/mappy-sdist.sh) into an environment of its own; without network the 2.31
#     tests skip, saying why.
# Usage: scripts/python-tests.sh [PYTEST ARGS...]   (environments under build/python)
# Environment (optional): PYTHON=/usr/bin/python3 (python3 where it is missing)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=$ROOT/build/python
PYTHON=${PYTHON:-/usr/bin/python3}
[[ -x $PYTHON ]] || PYTHON=python3
note() { echo "python-tests.sh: $*" >&2; }
die() { echo "python-tests.sh: error: $*" >&2; exit 1; }
mkdir -p "$OUT"

# agatha, installed from the source tree as `pip install .` installs it.
rm -rf "$OUT/venv"
"$PYTHON" -m venv --system-site-packages "$OUT/venv"
note "pip install $ROOT"
(cd "$ROOT" && "$OUT/venv/bin/python" -m pip install --quiet --disable-pip-version-check .) || die "pip install . failed"

# mappy 2.31 from its sdist, once.
export MAPPY231_PYTHON=""
if [[ ! -x $OUT/mappy231/bin/python ]] || ! "$OUT/mappy231/bin/python" -c 'import mappy' 2>/dev/null; then
  (
    CACHE=$OUT/cache MAPPY_SDIST_VERSION=2.31
    # shellcheck source=scripts/mappy-sdist.sh
    source "$ROOT/scripts/mappy-sdist.sh"
    fetch_mappy_sdist
    rm -rf "$OUT/mappy231"
    "$PYTHON" -m venv "$OUT/mappy231"
    note "building mappy 2.31 from $TARBALL"
    "$OUT/mappy231/bin/python" -m pip install --quiet --disable-pip-version-check "$TARBALL" >"$OUT/mappy231.log" 2>&1 ||
      { tail -n 20 "$OUT/mappy231.log" >&2; die "mappy 2.31 did not build"; }
  ) || { note "no mappy 2.31: its tests skip"; echo "mappy 2.31 could not be built (see the log above)" > "$OUT/mappy231.why"; }
fi
if "$OUT/mappy231/bin/python" -c 'import mappy' 2>/dev/null; then
  MAPPY231_PYTHON=$OUT/mappy231/bin/python
  rm -f "$OUT/mappy231.why"
fi
cd "$ROOT"
exec "$OUT/venv/bin/python" -m pytest -q -p no:cacheprovider tests/python "$@"
