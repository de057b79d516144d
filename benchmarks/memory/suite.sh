#!/usr/bin/env bash
# Peak memory of the command as users run it (issue 19): `/usr/bin/time -f %M bin/rpath sync`
# of a tree with large files (three 200 MiB files and 2,000 files of 50-150 KB, 797 MB) into a
# loopback OpenSSH sshd (both SFTP clients) and s3proxy (filesystem provider), each run into an
# empty target. Prints each run's peak RSS and wall time, then the median per target.
#   benchmarks/run --suite memory [--samples N] [--targets mina,sshj,s3]
# RPATH_JAVA_OPTS is passed through, so launcher choices can be compared by hand.
set -euo pipefail
cd "$(dirname "$0")/../.."
samples=2 targets=mina,sshj,s3
while [ $# -gt 0 ]; do
  case $1 in
    --samples) samples=$2; shift 2 ;;
    --targets) targets=$2; shift 2 ;;
    *) echo "usage: benchmarks/run --suite memory [--samples N] [--targets mina,sshj,s3]" >&2; exit 2 ;;
  esac
done
for p in /usr/sbin/sshd /usr/bin/time python3 curl; do
  command -v "$p" > /dev/null || { echo "memory suite: $p is missing (.ci/run installs it)" >&2; exit 2; }
done
[ -f cli/target/rpath.jar ] || ./mvnw -q -B package -DskipTests -pl cli -am >&2
W=$PWD/benchmarks/target/memory-bench
mkdir -p "$W"
TREE=$W/tree
if [ ! -f "$W/tree.complete" ]; then
  rm -rf "$TREE"; mkdir -p "$TREE"
  for i in 1 2 3; do head -c 209715200 /dev/urandom > "$TREE/big$i.bin"; done
  python3 - "$TREE" <<'PY'
import os, random, sys
r = random.Random(19)
root = sys.argv[1]
for i in range(2000):
    d = f"{root}/small/d{i % 20:02}"
    os.makedirs(d, exist_ok=True)
    with open(f"{d}/f{i:04}.bin", "wb") as fh:
        fh.write(r.randbytes(r.randint(50000, 150000)))
PY
  touch "$W/tree.complete"
fi
. benchmarks/lib/servers.sh
S=$W/sshd
start_sshd "$S"
PORT=$SSHD_PORT
s3pid=""
trap 'kill $(cat "$S/sshd.pid") $s3pid 2>/dev/null || true' EXIT
R=(bin/rpath --identity="$S/client" --known-hosts="$S/known_hosts")
U=sftp://$(id -un)@127.0.0.1:$PORT
AK=rp-mem-bench SK=rp-mem-bench-secret-0123456789
if [[ ",$targets," == *",s3,"* ]]; then
  start_s3proxy "$W/s3" filesystem "$AK" "$SK"
  s3pid=$S3PROXY_PID
  S3PORT=$S3PROXY_PORT
  export AWS_ACCESS_KEY_ID=$AK AWS_SECRET_ACCESS_KEY=$SK AWS_REGION=us-east-1
  "${R[@]}" --s3-endpoint="http://127.0.0.1:$S3PORT" --s3-path-style mkdir s3://mem-bench > /dev/null
fi
echo "memory suite: $(du -sh "$TREE" | cut -f1) tree, RPATH_JAVA_OPTS='${RPATH_JAVA_OPTS:-}', $(nproc) CPUs, $(free -m | awk '/Mem:/ {print $2}') MB RAM"
declare -A peaks
for rep in $(seq "$samples"); do
  for t in ${targets//,/ }; do
    case $t in
      mina) dst="$U$S/dst-$rep"; cmd=("${R[@]}" --sftp-client=mina sync "$TREE" "$dst") ;;
      sshj) dst="$U$S/dst-sshj-$rep"; cmd=("${R[@]}" --sftp-client=sshj sync "$TREE" "$dst") ;;
      s3) cmd=("${R[@]}" --s3-endpoint="http://127.0.0.1:$S3PORT" --s3-path-style sync "$TREE" "s3://mem-bench/run-$rep") ;;
      *) echo "memory suite: unknown target $t" >&2; exit 2 ;;
    esac
    /usr/bin/time -o "$W/time.out" -f "%M %e" "${cmd[@]}" > /dev/null 2> "$W/last.err" \
      || { echo "memory suite: $t failed: ${cmd[*]}" >&2; cat "$W/last.err" >&2; exit 1; }
    read -r kb secs < "$W/time.out"
    echo "  $t rep $rep: peak RSS $((kb / 1024)) MB, ${secs} s"
    peaks[$t]="${peaks[$t]:-} $((kb / 1024))"
  done
done
for t in ${targets//,/ }; do
  median=$(printf '%s\n' ${peaks[$t]} | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$t: median peak RSS $median MB (target <= 300 MB)"
done
