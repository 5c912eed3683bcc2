#!/usr/bin/env bash
# The static performance report of the CUDA kernels: what ptxas and the SASS say about
# them, without a GPU.
#
#   scripts/gpu-static.sh [--check] [--before REV] [--keep DIR]
#
# For every kernel of kernels/gpu/dp_cuda.cu compiled for sm_90: registers per thread,
# spill stores/loads, stack frame, static shared memory per block, threads per block
# (the kernel's __launch_bounds__, read from the cubin), and the occupancy these imply on
# sm_90 (65536 registers, 228 KB shared memory, 2048 threads and 32 blocks per SM;
# registers allocated per warp in units of 256, shared memory in units of 128 bytes
# plus the 1 KB the runtime reserves per block).
#
# The interior-tile path. dp_cuda.cu, compiled with -DAGATHA_STATIC_PROBE, adds probe
# kernels that call `__noinline__` wrappers (static_probe_pair_exact,
# static_probe_pair_approx) around exactly the function the main kernel inlines for a
# pair of tiles lying wholly inside the band (2 x 64 cells, the fast path; _exact tracks
# the best cell of every anti-diagonal for the Z-drop test, _approx is the APPROX_MAX
# variant); the probe kernel has the main kernel's __launch_bounds__, so the wrappers
# are compiled under the same register budget. The count is the SASS instructions of
# the wrapper's body as nvdisasm prints it, less the call scaffolding (RET, NOP
# padding, the closing branch-to-self); the
# wrapper's parameter loads stay in, so the count is an upper bound of what the inlined
# path costs. The body must be straight-line code (no backward branch): the static
# count is then the executed count. Instructions per cell = count / 128, and the
# issue-bound ceiling on an H200 is 132 SMs x 4 schedulers x 32 lanes x 1.98 GHz /
# (instructions per cell).
#
# Budgets of the main kernels (tile_dp_kernel, for ksw_extd2 and for splice tasks),
# checked with --check (exit 2 when one is over): 0 spill bytes, 0-byte stack frame, at
# most 24 instructions per cell on the interior path; and at most 30 instructions per
# cell in the task mix of each long-read golden file (below). scripts/run-tests.sh runs
# this with --check where nvcc is present and fails on a budget overrun; a missing
# cuobjdump or nvdisasm is a note, but under CI (CI=true) a failure (exit 2).
#
# The task mix: `agatha dp FILE --backend gpu-sim --profile` counts, per kind of task,
# the fast-path calls (interior pairs and single tiles, the APPROX_MAX variants that
# store u, v or read the border as records), the general-path tiles by reason, the
# anti-diagonals finalized and the tiles the traceback recomputes (on its fast path or
# the general one); each is weighed by its path's static SASS count from the probes
# (the general path's fixed part plus 64 x its per-cell loop, every branch: an upper
# bound), summed, and divided by the band cells. Files: ../shared/golden's pb and ontul
# where present, tests/data/dp's hifi (map-hifi), tests/data/splice's hifi and ont
# (spliced), tests/data/dp/sr (short reads: no target). AGATHA
# names the agatha binary (default build/agatha).
#
# --before REV also measures the kernel of commit REV (read with `git archive`; the
# working tree is not touched). Kernels from before the probe existed are measured with
# a probe around their compute_tile; their per-cell figure is the static size of the
# innermost loop around the cell (the loop body with every branch of the cell rules), a
# lower bound of nothing and an upper bound of the executed path.
set -uo pipefail
cd "$(dirname "$0")/.."

CHECK=0
BEFORE=""
KEEP=""
while [ $# -gt 0 ]; do
  case "$1" in
    --check) CHECK=1 ;;
    --before) BEFORE=$2; shift ;;
    --keep) KEEP=$2; shift ;;
    -h|--help) sed -n '2,56p' "$0"; exit 0 ;;
    *) echo "gpu-static: unknown argument $1" >&2; exit 1 ;;
  esac
  shift
done

# ---- tools ----
find_tool() {  # name: PATH, then beside nvcc, then the nvidia-* PyPI packages
  local t
  t=$(command -v "$1" 2>/dev/null) && { echo "$t"; return 0; }
  if [ -n "${NVCC:-}" ] && [ -x "$(dirname "$NVCC")/$1" ]; then echo "$(dirname "$NVCC")/$1"; return 0; fi
  for d in /usr/local/cuda/bin /opt/cuda/bin; do [ -x "$d/$1" ] && { echo "$d/$1"; return 0; }; done
  t=$(python3 -c 'import glob, os, sys, nvidia
for p in nvidia.__path__:
    for f in sorted(glob.glob(os.path.join(p, "*", "bin", sys.argv[1]))):
        print(f); raise SystemExit' "$1" 2>/dev/null) && [ -n "$t" ] && { echo "$t"; return 0; }
  return 1
}
# A missing tool ends the report; under CI (CI=true) that is a failure (exit 2), so the
# budgets cannot pass unchecked there (.ci/run installs the tools).
missing() {
  if [ "${CI:-}" = true ]; then echo "gpu-static: FAILED: $1 not found ($2)" >&2; exit 2; fi
  echo "gpu-static: $1 not found ($2); no report"; exit 0
}
NVCC=$(find_tool nvcc) || missing nvcc "the CUDA toolkit"
CUOBJDUMP=$(find_tool cuobjdump) || missing cuobjdump "pip install nvidia-cuda-cuobjdump"
NVDISASM=$(find_tool nvdisasm) || missing nvdisasm "pip install nvidia-cuda-nvdisasm"

WORK=${KEEP:-$(mktemp -d)}
mkdir -p "$WORK"
[ -z "$KEEP" ] && trap 'rm -rf "$WORK"' EXIT

# compile SRC_ROOT TAG: cubin, ptxas report, elf and SASS of the tree at SRC_ROOT
compile() {
  local root=$1 tag=$2
  local flags=(-std=c++20 --expt-relaxed-constexpr -I"$root/include" -arch=sm_90 -cubin -Xptxas -v)
  if grep -q AGATHA_STATIC_PROBE "$root/kernels/gpu/dp_cuda.cu"; then
    "$NVCC" "${flags[@]}" -DAGATHA_STATIC_PROBE "$root/kernels/gpu/dp_cuda.cu" -o "$WORK/$tag.cubin" \
      >"$WORK/$tag.ptxas" 2>&1 || { cat "$WORK/$tag.ptxas" >&2; return 1; }
  else
    "$NVCC" "${flags[@]}" "$root/kernels/gpu/dp_cuda.cu" -o "$WORK/$tag.cubin" >"$WORK/$tag.ptxas" 2>&1 ||
      { cat "$WORK/$tag.ptxas" >&2; return 1; }
    # The legacy probe: compute_tile (one 8x8 tile) behind a __noinline__ wrapper.
    cat >"$root/legacy_probe.cu" <<'EOF'
#include "kernels/gpu/tile_task.hpp"
using namespace agatha::gpu;
__device__ __noinline__ void static_probe_legacy_tile(const TaskParams& p, const TileLayout& l, const uint32_t* tp,
    const uint32_t* qp, TaskMem& m, int32_t T, int32_t J, RStat* w) {
  compute_tile(p, l, tp, qp, m, T, J, w, ring_size(3));
}
__global__ void static_probe_legacy(const TaskParams* p, const uint32_t* tp, const uint32_t* qp, TaskMem* m, int T, int J) {
  RStat w[32];
  for (int k = 0; k < 32; ++k) rstat_reset(w[k]);
  TileLayout l = make_layout(*p);
  static_probe_legacy_tile(*p, l, tp, qp, *m, T, J, w);
  m->window[threadIdx.x] = w[threadIdx.x % 32];
}
EOF
    "$NVCC" -std=c++20 --expt-relaxed-constexpr -I"$root" -I"$root/include" -arch=sm_90 -cubin \
      "$root/legacy_probe.cu" -o "$WORK/$tag.legacy.cubin" >/dev/null 2>&1 &&
      "$NVDISASM" -c "$WORK/$tag.legacy.cubin" >"$WORK/$tag.legacy.sass" 2>/dev/null
  fi
  "$CUOBJDUMP" -elf "$WORK/$tag.cubin" >"$WORK/$tag.elf" 2>/dev/null
  "$NVDISASM" -c "$WORK/$tag.cubin" >"$WORK/$tag.sass" 2>/dev/null
}

TAGS=()
if [ -n "$BEFORE" ]; then
  mkdir -p "$WORK/before"
  if git archive "$BEFORE" kernels include | tar -x -C "$WORK/before" && compile "$WORK/before" before; then
    TAGS+=("before:$BEFORE")
  else
    echo "gpu-static: cannot measure $BEFORE" >&2
  fi
fi
compile "$PWD" now || { echo "gpu-static: the kernel does not compile" >&2; exit 1; }
TAGS+=("now:working tree")

# The task mix: gpu-sim's count of the tiles the device computes on each path (agatha
# dp --backend gpu-sim --profile) for the golden files at hand: the PacBio and
# ultra-long ONT files of ../shared/golden where it is present, the HiFi, spliced HiFi
# and ONT cDNA files and the short-read file of tests/data.
AGATHA=${AGATHA:-build/agatha}
MIX=()
if [ -x "$AGATHA" ]; then
  for f in pb:../shared/golden/pb.golden.tsv.gz ontul:../shared/golden/ontul.golden.tsv.gz \
           hifi:tests/data/dp/hifi.golden.tsv.gz splice-hifi:tests/data/splice/hifi.golden.tsv.gz \
           splice-ont:tests/data/splice/ont.golden.tsv.gz sr:tests/data/dp/sr.golden.tsv.gz; do
    name=${f%%:*} path=${f#*:}
    [ -f "$path" ] || continue
    if "$AGATHA" dp --backend gpu-sim --profile -t "$(nproc)" "$path" -o /dev/null 2>"$WORK/mix.$name"; then
      MIX+=("$name")
    else
      echo "gpu-static: agatha dp --profile failed on $path" >&2
    fi
  done
else
  echo "gpu-static: no $AGATHA (set AGATHA=): no task-mix figures"
fi

MIX_FILES="${MIX[*]:-}" python3 - "$WORK" "$CHECK" "${TAGS[@]}" <<'EOF'
import re, sys, os
work, check, tags = sys.argv[1], sys.argv[2] == "1", sys.argv[3:]

# sm_90 limits
REGS_SM, SMEM_SM, THREADS_SM, BLOCKS_SM, SMEM_RESERVED = 65536, 228 * 1024, 2048, 32, 1024
REG_UNIT, SMEM_UNIT = 256, 128
CEILING = 132 * 4 * 32 * 1.98e9
BUDGET_INSTR = 24
MAIN = "tile_dp_kernel"

def ptxas(path):
    """function -> {regs, stack, spill_st, spill_ld, smem}"""
    out, cur = {}, None
    for line in open(path):
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            cur = out.setdefault(m.group(1), {}); continue
        m = re.search(r"Compiling entry function '(\S+)'", line)
        if m:
            cur = out.setdefault(m.group(1), {}); cur["entry"] = True; continue
        if cur is None: continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m: cur.update(stack=int(m.group(1)), spill_st=int(m.group(2)), spill_ld=int(m.group(3)))
        m = re.search(r"Used (\d+) registers", line)
        if m: cur["regs"] = int(m.group(1))
        m = re.search(r"(\d+) bytes smem", line)
        if m: cur["smem"] = int(m.group(1))
    return out

def max_threads(path):
    """kernel -> threads per block from EIATTR_MAX_THREADS (launch bounds)"""
    out, cur, want = {}, None, False
    for line in open(path):
        m = re.search(r"\.nv\.info\.(\S+)", line)
        if m and "CUDA_INFO" not in line: cur = m.group(1)
        if "EIATTR_MAX_THREADS" in line: want = True; continue
        if want:
            m = re.search(r"Value:\s+(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+(0x[0-9a-f]+)", line)
            if m and cur:
                out[cur] = int(m.group(1), 16) * int(m.group(2), 16) * int(m.group(3), 16); want = False
    return out

def occupancy(regs, smem, threads):
    warps = (threads + 31) // 32
    regs_warp = ((max(regs, 1) * 32 + REG_UNIT - 1) // REG_UNIT) * REG_UNIT
    by_regs = REGS_SM // (regs_warp * warps)
    smem_block = ((smem + SMEM_UNIT - 1) // SMEM_UNIT) * SMEM_UNIT + SMEM_RESERVED
    by_smem = SMEM_SM // smem_block
    by_threads = THREADS_SM // (warps * 32)
    blocks = min(by_regs, by_smem, by_threads, BLOCKS_SM)
    limiter = min((by_regs, "registers"), (by_smem, "shared memory"), (by_threads, "threads"), (BLOCKS_SM, "blocks"))[1]
    return blocks, blocks * warps / 64.0, limiter

def functions(path):
    """nvdisasm -c output -> {function symbol: [instructions]}"""
    funcs, cur, text = {}, None, open(path).read().split("\n")
    declared = set(re.findall(r"\.type\s+(\S+),@function", "\n".join(text)))
    labels = {}
    for line in text:
        m = re.match(r"^(\S+):\s*$", line)
        if m:
            name = m.group(1)
            if name in declared:
                cur = funcs.setdefault(name, [])
            elif cur is not None:
                labels[name] = (id(cur), len(cur))
            continue
        m = re.match(r"^\s*/\*([0-9a-f]+)\*/\s+(.*?)\s*;", line)
        if m and cur is not None:
            cur.append(m.group(2))
    return funcs, labels

def body_count(instrs, labels):
    """instructions less RET/EXIT, NOPs and the closing branch-to-self; backward branches"""
    n, back = 0, 0
    for i, s in enumerate(instrs):
        op = s.split()[0] if not s.startswith("@") else s.split()[1]
        if op.startswith(("RET", "EXIT", "NOP")): continue
        m = re.search(r"BRA\S*\s+`\((\.L_x_\d+)\)", s)
        if m and m.group(1) in labels and labels[m.group(1)][0] == id(instrs):
            target = labels[m.group(1)][1]
            if target == i: continue  # branch-to-self padding
            if target < i: back += 1
        n += 1
    return n, back

def innermost_loop(instrs, labels):
    best = None
    for i, s in enumerate(instrs):
        m = re.search(r"BRA\S*\s+`\((\.L_x_\d+)\)", s)
        if m and m.group(1) in labels and labels[m.group(1)][0] == id(instrs):
            t = labels[m.group(1)][1]
            if t < i and (i - t + 1) > 30:  # the cell loop, not a small inner search loop
                if best is None or i - t + 1 < best: best = i - t + 1
    return best

def short(name):
    """the unqualified name of a mangled (nested) function symbol"""
    name = name.split("$")[-1]
    i = name.find("N") if name.startswith("_ZN") else 2
    i = max(i, 0) + 1 if name.startswith("_ZN") else 2
    last = name
    while i < len(name) and name[i].isdigit():
        j = i
        while j < len(name) and name[j].isdigit(): j += 1
        n = int(name[i:j]); last = name[j:j + n]; i = j + n
        if i < len(name) and name[i] == "I":  # template arguments: stop at the name
            break
    return last

def kind_of(name):
    """extd2 or exts2: the kSplice template argument of a kernel, or the probe's name"""
    if "splice" in name: return "exts2"
    m = re.search(r"ILb([01])E", name)
    return "exts2" if m and m.group(1) == "1" else "extd2"

def path_cost(funcs, labels, probe):
    """(fixed, per-cell loop) of a general-path probe: static, every branch"""
    for name, ins in funcs.items():
        if re.search(probe + r"(?![a-z_])", short(name)) and short(name) == probe:
            n, back = body_count(ins, labels)
            loop = innermost_loop(ins, labels) or 0
            return n - loop, loop
    return None

status = 0
costs = {}
for tag in tags:
    key, what = tag.split(":", 1)
    print(f"== {what}: sm_90")
    fn = ptxas(os.path.join(work, key + ".ptxas"))
    mt = max_threads(os.path.join(work, key + ".elf"))
    print(f"{'kernel':28s} {'regs':>5s} {'spill st/ld':>12s} {'stack':>6s} {'smem':>7s} {'threads':>8s} {'blocks/SM':>10s} {'occupancy':>10s}")
    mains = {}
    for name, f in sorted(fn.items()):
        if not f.get("entry") or "static_probe" in name: continue
        thr = mt.get(name, 0)
        occ = ""
        if thr:
            b, o, lim = occupancy(f.get("regs", 0), f.get("smem", 0), thr)
            occ = f"{b:>10d} {o*100:>8.1f}%  ({lim})"
        label = short(name) + (f" ({kind_of(name)})" if "ILb" in name else "")
        print(f"{label:28s} {f.get('regs',0):>5d} {f.get('spill_st',0):>5d}/{f.get('spill_ld',0):<6d} "
              f"{f.get('stack',0):>6d} {f.get('smem',0):>7d} {thr or '?':>8} {occ}")
        if MAIN in name: mains[kind_of(name)] = (name, f)
    funcs, labels = functions(os.path.join(work, key + ".sass"))
    probes = {n: v for n, v in funcs.items() if re.search(r"static_probe_(splice_)?pair", n)}
    per_cell = {}
    probe_cells = {}
    pair_instr = {}
    for name, ins in sorted(probes.items()):
        n, back = body_count(ins, labels)
        pc = n / 128.0
        kind = kind_of(short(name))
        mode = ("exact" if "exact" in name else "approx_uv" if "_uv" in name else "approx_edge" if "_edge" in name
                else "approx")
        note = "straight-line" if back == 0 else f"{back} backward branches: NOT straight-line"
        print(f"interior path {short(name)}: {n} SASS instructions / 128 cells = {pc:.2f} per cell ({note}); "
              f"issue-bound ceiling {CEILING / pc / 1e12:.2f} T cells/s")
        probe_cells[(kind, mode)] = pc
        pair_instr[(kind, mode)] = n
        if mode == "exact" or kind not in per_cell:
            per_cell[kind] = max(per_cell.get(kind, 0), pc) if back == 0 else 1e9
    # per kind, (fixed, loop) of the general path and the traceback's two paths
    general, trace, fast_trace = {}, {}, {}
    for table, probe, what in ((general, "general_tile", "general path ({}, general_tile, any tile, every rule)"),
                               (trace, "traceback_tile", "traceback tile ({}, direction bytes recomputed)"),
                               (fast_trace, "fast_dir_tile", "traceback tile on the fast path ({}, fast_dir_tile)")):
        for kind, prefix in (("extd2", "static_probe_"), ("exts2", "static_probe_splice_")):
            c = path_cost(funcs, labels, prefix + probe)
            if not c: continue
            table[kind] = c
            print(f"{what.format(kind)}: {c[0] + c[1]} SASS instructions; its loop body {c[1]} (static, every branch)")
    # the fast traceback tile's loop is its row loop (8 rows, a row's 8 cells unrolled)
    fast_trace = {k: c[0] + 8 * c[1] for k, c in fast_trace.items()}
    fin = path_cost(funcs, labels, "static_probe_finalize")
    if fin:
        print(f"finalization of one anti-diagonal (finalize_r): {fin[0] + fin[1]} SASS instructions (static, every branch)")
    if key == "now":
        costs = dict(pair=pair_instr, general=general, trace=trace, fast_trace=fast_trace,
                     fin=(fin[0] + fin[1]) if fin else None)
    legacy = os.path.join(work, key + ".legacy.sass")
    if not probes and os.path.exists(legacy):
        lf, ll = functions(legacy)
        for name, ins in lf.items():
            if "static_probe_legacy_tile" not in name: continue
            n, back = body_count(ins, ll)
            loop = innermost_loop(ins, ll)
            print(f"interior path (legacy compute_tile, one 8x8 tile): {n} SASS instructions with "
                  f"{back} loops; the per-cell loop body is {loop} instructions (static, every branch of the cell "
                  f"rules){'' if not loop else f'; issue-bound ceiling at that size {CEILING / loop / 1e12:.3f} T cells/s'}")
    if key == "now":
        if "extd2" not in mains:
            print("budget: the main kernel was not found"); status = 2; continue
        for kind, (name, main) in sorted(mains.items()):
            checks = [("spill bytes", main.get("spill_st", 0) + main.get("spill_ld", 0), 0),
                      ("stack frame bytes", main.get("stack", 0), 0),
                      ("interior instructions per cell", per_cell.get(kind, float("inf")), BUDGET_INSTR)]
            for what, v, lim in checks:
                ok = v <= lim
                vs = f"{v:.2f}" if isinstance(v, float) else str(v)
                print(f"budget {kind} kernel {what}: {vs} (at most {lim}) {'met' if ok else 'OVER'}")
                if not ok: status = 2
        name, main = mains["extd2"]
        summary = dict(regs=main.get("regs", 0), spill=main.get("spill_st", 0) + main.get("spill_ld", 0),
                       stack=main.get("stack", 0), smem=main.get("smem", 0), per_cell=per_cell.get("extd2"),
                       occ=occupancy(main.get("regs", 0), main.get("smem", 0), mt.get(name, 128))[1])

# The task mix: instructions a cell of a golden file's tasks as the device runs them,
# every path at its static count — a fast-path call (a pair, or one tile alone) at the
# interior probe's count; a general tile at its fixed part plus 64 x its per-cell loop
# (every branch: an upper bound); a finalized anti-diagonal at finalize_r's count; a
# traceback tile like a general one. The warp's bookkeeping between steps (key merges,
# syncs, rejoining) is not counted.
MIX_TARGET = 30
mix = [m for m in os.environ.get("MIX_FILES", "").split() if m]
if mix and costs.get("pair") and costs.get("general") and costs.get("fin"):
    print()
    print(f"== task mix (agatha dp --backend gpu-sim --profile; static SASS counts per path), budget at most "
          f"{MIX_TARGET} a cell on the long-read files")
    print(f"{'file':12s} {'kind':13s} {'cells':>12s} {'fast tiles':>11s} {'general':>9s} {'instr/cell':>11s}  "
          f"{'share of instructions: fast / general / finalize / traceback'}")
    for name in mix:
        tot_i = tot_c = 0
        for line in open(os.path.join(work, "mix." + name)):
            if not line.startswith("profile: "): continue
            f = dict(kv.split("=", 1) for kv in line.split()[1:])
            kind, mode = f["kind"].split("-")
            c = {k: int(v) for k, v in f.items() if k != "kind"}
            pair = costs["pair"].get((kind, mode))
            pair_uv = costs["pair"].get((kind, "approx_uv"), pair)
            pair_edge = costs["pair"].get((kind, "approx_edge"), pair_uv)
            gen = costs["general"].get(kind)
            tr = costs["trace"].get(kind, gen)
            if pair is None or gen is None: continue
            gtiles = c["general_far"] + c["general_task_edge"] + c["general_band_edge"]
            ftiles = 2 * c["fast_pairs"] + c["fast_singles"]
            # a call with an edge tile at the edge probe's count (it stores u, v too: an upper bound)
            edge = c.get("fast_edge", 0)
            i_fast = ((c["fast_pairs"] + c["fast_singles"] - c["fast_keep_uv"] - edge) * pair + c["fast_keep_uv"] * pair_uv
                      + edge * pair_edge)
            i_gen = gtiles * (gen[0] + 64 * gen[1])
            i_fin = c["anti_diagonals"] * costs["fin"]
            tf = c.get("traceback_fast_tiles", 0) if kind in costs["fast_trace"] else 0
            i_tr = (c["traceback_tiles"] - tf) * (tr[0] + 64 * tr[1]) + tf * costs["fast_trace"].get(kind, 0)
            i = i_fast + i_gen + i_fin + i_tr
            cells = max(c["cells"], 1)
            tot_i += i; tot_c += c["cells"]
            tiles = max(ftiles + gtiles, 1)
            print(f"{name:12s} {f['kind']:13s} {c['cells']:>12d} {100*ftiles/tiles:>10.1f}% {100*gtiles/tiles:>8.1f}% "
                  f"{i/cells:>11.2f}  {100*i_fast/i:.0f} / {100*i_gen/i:.0f} / {100*i_fin/i:.0f} / {100*i_tr/i:.0f} %"
                  f"  (general tiles: far {c['general_far']}, task edge {c['general_task_edge']}, band edge "
                  f"{c['general_band_edge']}; fast calls keeping u, v {c['fast_keep_uv']}, with an edge tile "
                  f"{c.get('fast_edge', 0)})")
        if tot_c:
            pc = tot_i / tot_c
            long_read = name != "sr"
            verdict = ("met" if pc <= MIX_TARGET else "OVER") if long_read else "short reads, no target"
            print(f"{name:12s} {'all':13s} {tot_c:>12d} {'':>11s} {'':>9s} {pc:>11.2f}  issue-bound ceiling on an "
                  f"H200 {CEILING / pc / 1e12:.3f} T cells/s; budget {MIX_TARGET}: {verdict}")
            if long_read and pc > MIX_TARGET: status = 2
elif mix:
    print("task mix: the probes' counts are missing; no figures")
# The kernel before this engine's fast path (commit f134e5f), measured with this script's
# --before: tile_dp_kernel 56 registers, 48/64 bytes spill stores/loads, a 1392-byte stack
# frame (RStat window[kRing] and per-lane arrays indexed at run time), 3792 bytes of shared
# memory, 128 threads; compute_tile's per-cell loop 511 SASS instructions (static, every
# branch of the cell rules: a ceiling of at most 0.065 T cells/s).
print()
print("== before (f134e5f) and now, main kernel (tile_dp_kernel, extd2), sm_90")
if "summary" in dir():
    n = summary
    rows = [("registers per thread", "56", str(n["regs"])),
            ("spill bytes (stores + loads)", "112", str(n["spill"])),
            ("stack frame bytes", "1392", str(n["stack"])),
            ("shared memory per block", "3792", str(n["smem"])),
            ("occupancy", "56.2% (registers)", f"{n['occ'] * 100:.1f}%"),
            ("instructions per cell, interior", "511 (cell loop, static)",
             f"{n['per_cell']:.2f}" + (f" (exact; APPROX_MAX {probe_cells[('extd2', 'approx')]:.2f})" if ("extd2", "approx") in probe_cells else "")
             if n["per_cell"] else "?"),
            ("issue-bound ceiling (T cells/s)", "0.065", f"{CEILING / n['per_cell'] / 1e12:.2f}" if n["per_cell"] else "?")]
    for what, b, a in rows: print(f"  {what:34s} {b:>24s}   {a}")
sys.exit(status if check else 0)
EOF
