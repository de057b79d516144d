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
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
S=$W/sshd; rm -rf "$S"; mkdir -p "$S" /run/sshd
ssh-keygen -q -t ecdsa -N "" -f "$S/host"; ssh-keygen -q -t ecdsa -N "" -f "$S/client"
cp "$S/client.pub" "$S/authorized_keys"
PORT=$(free_port)
cat > "$S/sshd_config" <<C
Port $PORT
ListenAddress 127.0.0.1
HostKey $S/host
PidFile $S/sshd.pid
AuthorizedKeysFile $S/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
Subsystem sftp internal-sftp
LogLevel ERROR
C
/usr/sbin/sshd -f "$S/sshd_config"
s3pid=""
trap 'kill $(cat "$S/sshd.pid") $s3pid 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$S/sshd.pid" ] && break; sleep 0.1; done
echo "[127.0.0.1]:$PORT $(cat "$S/host.pub")" > "$S/known_hosts"
R=(bin/rpath --identity="$S/client" --known-hosts="$S/known_hosts")
U=sftp://$(id -un)@127.0.0.1:$PORT
AK=rp-mem-bench SK=rp-mem-bench-secret-0123456789
if [[ ",$targets," == *",s3,"* ]]; then
  s3cp=benchmarks/target/s3proxy.classpath
  [ -s "$s3cp" ] || ./mvnw -q -B dependency:build-classpath -pl s3 -Dmdep.includeScope=test -Dmdep.outputFile="$PWD/$s3cp" >&2
  S3PORT=$(free_port)
  rm -rf "$W/s3"; mkdir -p "$W/s3"
  cat > "$W/s3.conf" <<C
s3proxy.endpoint=http://127.0.0.1:$S3PORT
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=$AK
s3proxy.credential=$SK
s3proxy.ignore-unknown-headers=true
jclouds.provider=filesystem
jclouds.identity=x
jclouds.credential=y
jclouds.filesystem.basedir=$W/s3
C
  "$(cat cli/target/rpath.java-home)/bin/java" -Xmx1g -cp "$(cat "$s3cp")" org.gaul.s3proxy.Main \
    --properties "$W/s3.conf" > "$W/s3.log" 2>&1 &
  s3pid=$!
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$S3PORT/" && break; sleep 0.2; done
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
