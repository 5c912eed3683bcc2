# bench/measure.sh - sourced by the benchmark scripts.
# Runs a command with stdout to $1 and its wall seconds and peak RSS (KiB) to $2.
measure() {
  local out=$1 stats=$2
  shift 2
  if [[ -x /usr/bin/time ]]; then
    /usr/bin/time -v -o "$stats.raw" "$@" > "$out" 2> "$stats.log"
    awk -F': ' '/Elapsed \(wall clock\)/{n=split($2,t,":"); s=0; for(i=1;i<=n;i++) s=s*60+t[i]; w=s}
                /Maximum resident set size/{m=$2} END{print w, m}' "$stats.raw" > "$stats"
  else
    python3 - "$out" "$stats" "$@" <<'EOF'
import resource, subprocess, sys, time
out, stats, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
t0 = time.monotonic()
with open(out, "wb") as f, open(stats + ".log", "wb") as e:
    rc = subprocess.call(cmd, stdout=f, stderr=e)
wall = time.monotonic() - t0
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
open(stats, "w").write(f"{wall} {peak}\n")
sys.exit(rc)
EOF
  fi
}

