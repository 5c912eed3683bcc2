#!/usr/bin/env bash
# Installs what agatha needs to build and test on Debian (bookworm or later).
# Runs apt-get directly as root, through sudo otherwise. The CUDA toolkit is optional
# and not installed here: with nvcc on PATH the GPU backend builds too. samtools is for
# the e2e tests, which check the SAM and BAM output with it (and skip that without it),
# and for the workflow's sorted BAM; snakemake for the workflow (below). minimap2
# (Debian's 2.24) is the first compatibility oracle (the `oracles` suite, bench/mapping.sh);
# make, gcc, zlib1g-dev and python3-pip build the second, minimap2 2.31, from PyPI's mappy
# sdist (scripts/minimap2-231.sh). python3-dev and python3-venv build the Python module
# (`pip install .`); python3-mappy (minimap2 2.24's binding) and python3-pytest test it
# (scripts/python-tests.sh).
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  g++ meson ninja-build pkg-config python3 \
  libhts-dev zlib1g-dev libcli11-dev libgtest-dev samtools \
  minimap2 make gcc python3-pip python3-dev python3-venv python3-mappy python3-pytest >/dev/null
# Snakemake runs the scatter-gather workflow (workflow/) and its test (which skips
# without it): Debian's package, or where apt has none, PyPI's (7.19 to 8.x) in a
# virtual environment of its own, linked into /usr/local/bin.
if ! command -v snakemake >/dev/null 2>&1; then
  if ! $SUDO apt-get install -y -qq --no-install-recommends snakemake >/dev/null 2>&1; then
    venv=/opt/agatha-snakemake
    { $SUDO python3 -m venv "$venv" &&
      $SUDO "$venv/bin/pip" install --quiet --disable-pip-version-check 'snakemake>=7.19,<9' &&
      $SUDO ln -sf "$venv/bin/snakemake" /usr/local/bin/snakemake; } ||
      echo "install-deps: snakemake not installed; the workflow test will skip"
  fi
fi
# With nvcc present (on PATH or in /usr/local/cuda): cuobjdump and nvdisasm where the
# toolkit lacks them, pinned by hash (scripts/cuda-tools.txt). The build test reads the
# kernel images in the binary with cuobjdump; scripts/gpu-static.sh counts the kernels'
# SASS with both, and fails under CI (CI=true) without them.
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/local/cuda/bin/$1" ] ||
    python3 -c 'import glob, sys, nvidia
sys.exit(not any(glob.glob(p + "/*/bin/" + sys.argv[1]) for p in nvidia.__path__))' "$1" 2>/dev/null; }
  if ! have cuobjdump || ! have nvdisasm; then
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --require-hashes \
      -r "$(dirname "$0")/cuda-tools.txt" ||
      echo "install-deps: cuobjdump and nvdisasm not installed; the fat-binary test and scripts/gpu-static.sh will skip"
  fi
fi
echo "install-deps: done"
