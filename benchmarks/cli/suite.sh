#!/usr/bin/env bash
# The cli suite (issue #18): rpath as users run it, whole process, beside OpenSSH's sftp and
# rclone in the same interleaved reps, medians printed as a table (docs/benchmarks.md).
#   benchmarks/run --suite cli [--samples N] [--rows t2,small,t1sftp,t1s3,t1az,t1dav,t1ftp,t1local,ls,archive]
# Starts its own loopback OpenSSH sshd (internal-sftp, key login) and s3proxy (transient and
# filesystem providers, from the s3 module's test class path) on free ports, makes T1 (10,000
# files of 0-8 KiB in 100 directories) and T2 (one 256 MiB file) under benchmarks/target/cli-bench,
# and needs sshd, sftp, rclone and python3 (for the trees); the archive rows need zip and unzip,
# the t1az rows Azurite (npm), the t1dav rows Apache httpd with mod_dav_fs, the t1ftp rows ProFTPD.
set -euo pipefail
cd "$(dirname "$0")/../.."
samples=3
rows=t2,small,t1sftp,t1s3,t1az,t1dav,t1ftp,t1local,ls,archive
while [ $# -gt 0 ]; do
  case $1 in
    --samples) samples=$2; shift 2 ;;
    --rows) rows=$2; shift 2 ;;
    *) echo "cli suite: unknown option $1" >&2; exit 2 ;;
  esac
done
for p in /usr/sbin/sshd sftp rclone python3 bc; do
  command -v "$p" > /dev/null || { echo "cli suite: $p is missing (.ci/run installs it)" >&2; exit 2; }
done
[ -f cli/target/rpath.jar ] || ./mvnw -q -B package -DskipTests -pl cli -am >&2
W=$PWD/benchmarks/target/cli-bench
mkdir -p "$W"
T1=$W/t1 T2=$W/t2.bin
if [ ! -d "$T1" ]; then
  python3 - "$T1" <<'PY'
import os, random, sys
random.seed(18)
root = sys.argv[1]
for d in range(100):
    os.makedirs(f"{root}/d{d:03}")
    for f in range(100):
        with open(f"{root}/d{d:03}/f{f:03}.bin", "wb") as fh:
            fh.write(random.randbytes(random.randint(0, 8192)))
PY
fi
[ -f "$T2" ] || head -c 268435456 /dev/urandom > "$T2"
SMALL=$W/small # 1,000 files of 4 KiB in one directory
if [ ! -d "$SMALL" ]; then
  mkdir -p "$SMALL"
  for i in $(seq 0 999); do head -c 4096 /dev/urandom > "$SMALL/f$i.bin"; done
fi
. benchmarks/lib/servers.sh
S=$W/sshd
start_sshd "$S"
PORT=$SSHD_PORT
s3pids=""
trap 'kill $(cat "$S/sshd.pid") $s3pids 2>/dev/null || true; [ -z "${L:-}" ] || rm -rf "$L"' EXIT
USER_=$(id -un)
R=(bin/rpath --identity="$S/client" --known-hosts="$S/known_hosts")
SFTP=(sftp -q -c aes128-gcm@openssh.com -i "$S/client" -o UserKnownHostsFile="$S/known_hosts" -P "$PORT")
export RCLONE_CONFIG_B_TYPE=sftp RCLONE_CONFIG_B_HOST=127.0.0.1 RCLONE_CONFIG_B_PORT=$PORT RCLONE_CONFIG_B_USER=$USER_ \
  RCLONE_CONFIG_B_KEY_FILE=$S/client RCLONE_CONFIG_B_KNOWN_HOSTS_FILE=$S/known_hosts
U=sftp://$USER_@127.0.0.1:$PORT
D=$W/dst

# s3proxy, one per provider, as processes on the s3 module's test class path
AK=rp-cli-bench SK=rp-cli-bench-secret-0123456789
if [[ ",$rows," == *",t1s3,"* ]]; then
  for provider in transient filesystem; do
    start_s3proxy "$W/s3-$provider" "$provider" "$AK" "$SK"
    s3pids="$s3pids $S3PROXY_PID"
    port=$S3PROXY_PORT
    declare "S3PORT_$provider=$port"
  done
fi
if [[ ",$rows," == *",t1az,"* ]]; then
  start_azurite "$W/azurite"
  s3pids="$s3pids $AZURITE_PID"
fi
if [[ ",$rows," == *",t1dav,"* ]]; then
  for server in apache2 rclone; do
    start_webdav "$W/dav-$server" "$server"
    s3pids="$s3pids $WEBDAV_PID"
    declare "DAVPORT_$server=$WEBDAV_PORT"
  done
fi
if [[ ",$rows," == *",t1ftp,"* ]]; then
  start_ftp "$W/ftp"
  s3pids="$s3pids $FTP_PID"
fi
# the emulator's published development account (not a secret)
export AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:${AZURITE_PORT:-10000}/devstoreaccount1;"
export RCLONE_CONFIG_Z_TYPE=azureblob
export AWS_ACCESS_KEY_ID=$AK AWS_SECRET_ACCESS_KEY=$SK AWS_REGION=us-east-1
unset AWS_CA_BUNDLE AWS_PROFILE # plain-HTTP stores; rclone refuses a CA bundle for its transport
s3() { # s3 PROVIDER: rpath's options and rclone's remote for that store
  local port_var="S3PORT_$1"
  S3R=("${R[@]}" --s3-endpoint="http://127.0.0.1:${!port_var}" --s3-path-style)
  export RCLONE_CONFIG_S_TYPE=s3 RCLONE_CONFIG_S_PROVIDER=Other RCLONE_CONFIG_S_ENDPOINT="http://127.0.0.1:${!port_var}" \
    RCLONE_CONFIG_S_ACCESS_KEY_ID=$AK RCLONE_CONFIG_S_SECRET_ACCESS_KEY=$SK RCLONE_CONFIG_S_REGION=us-east-1
}

declare -A times
# Before every timed run, both programs (rpath's jar, its AOT caches and the JDK's modules and VM;
# rclone), T1 and the section's server data ($SERVED: the directories its server keeps files in)
# are read into the page cache. This VM gives back pages it has not touched for a while, and the
# runs go in a fixed order: without this, whichever tool ran after a long run of the other's (an
# rpath no-op after rclone's 5-minute first sync into Apache) read its program and the server's
# files back from disk, and the next tool found them warm (docs/benchmarks.md, "The suite's
# order: warm pages before every run").
JDK=$(cat cli/target/rpath.java-home 2> /dev/null || bin/find-jdk25)
SERVED=""
warm() {
  # shellcheck disable=SC2086 # $SERVED is a list of directories
  find "$T1" $SERVED -type f -exec cat {} + > /dev/null 2>&1 || true
  cat cli/target/rpath.jar cli/target/*.aot "$JDK/lib/modules" "$JDK/lib/server/libjvm.so" \
    "$(command -v rclone)" > /dev/null 2>&1 || true
}
# run NAME CMD...: one timed run, in ms, appended to NAME's samples; a failure stops the suite
run() {
  local name=$1; shift
  local s e out=/dev/null
  # An rpath no-op must copy nothing: one that copies (a listing that misses what the target
  # holds) is a wrong answer, not a slow one, and its time must not reach the table.
  [[ $name == *noop* && $name != *rclone* ]] && out=$W/last.out
  warm
  s=$(date +%s%N)
  "$@" > "$out" 2> "$W/last.err" || { echo "cli suite: $name failed: $*" >&2; cat "$W/last.err" >&2; exit 1; }
  e=$(date +%s%N)
  if [ "$out" != /dev/null ] && ! grep -q '^copied 0 file(s)' "$out"; then
    echo "cli suite: $name was to be a no-op, but: $(head -c 300 "$out")" >&2
    exit 1
  fi
  times[$name]="${times[$name]:-} $(( (e - s) / 1000000 ))"
}
median() { tr ' ' '\n' <<< "$1" | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'; }
row() { # row LABEL NAME BASELINE-NAME [higher-is-better ratio = baseline/ours]
  local m b
  m=$(median "${times[$2]}"); b=$(median "${times[$3]}")
  printf '| %s | %s ms | %s ms | %sx |\n' "$1" "$m" "$b" "$(echo "scale=2; $b / $m" | bc)"
}
has() { [[ ",$rows," == *",$1,"* ]]; }

# The local rows first, in reps of their own, into a tmpfs (/dev/shm) where there is one, the
# source and both programs read into the page cache before each run. Otherwise they measured
# the disk: on a file system without a journal (ext4 here), creating an inode skips every inode
# of its group deleted in the last 60-300 s (ext4's recently_deleted(), 28% of a first sync's
# samples in perf), so a first sync within minutes of any rm -rf of a tree (the previous rep's,
# the previous suite's) took 0.6-2.6 s for either tool, by where its directories landed; and
# pages the VM had dropped were read back from disk (docs/benchmarks.md, "Local first sync:
# what the suite measured").
if [ "$(stat -f -c %T /dev/shm 2> /dev/null)" = tmpfs ]; then
  L=/dev/shm/rpath-cli-bench-$$ local_on=tmpfs
else
  L=$W/local-$$ local_on=disk
fi
if has t1local; then
  SERVED=$L
  for rep in $(seq "$samples"); do
    echo "cli suite: local rep $rep of $samples" >&2
    run local-first-rpath "${R[@]}" sync "$T1" "$L/r$rep/l-rpath"
    run local-first-rclone rclone sync --config /dev/null "$T1" "$L/r$rep/l-rclone"
    run local-noop-rpath "${R[@]}" sync "$T1" "$L/r$rep/l-rpath"
    run local-noop-rclone rclone sync --config /dev/null "$T1" "$L/r$rep/l-rclone"
    # memory back at once; on a disk (no tmpfs) they stay until the end, not to slow the next rep
    if [ "$local_on" = tmpfs ]; then rm -rf "$L/r$rep"; fi
  done
fi

# s3proxy is a JVM of its own: untimed, each store first takes T1 once (from rclone, into a
# bucket no rep uses), so that the first timed run (rpath's first sync of rep 1) does not pay for
# the server's JIT warm-up: by hand, a fresh transient store used 20.4 s of CPU for rpath's first
# T1 and 13.5 s for the next (docs/benchmarks.md, "S3 rows with the store warmed").
if has t1s3; then
  for provider in transient filesystem; do
    s3 $provider
    rclone sync --config /dev/null "$T1" "S:warm-up/rclone" > /dev/null 2>&1 \
      || { echo "cli suite: warming s3proxy $provider failed" >&2; exit 1; }
  done
fi

for rep in $(seq "$samples"); do
  echo "cli suite: rep $rep of $samples" >&2
  rm -rf "$D"; mkdir -p "$D"
  if has t2; then
    SERVED="$T2 $D"
    for c in mina sshj; do
      run "t2-put-$c" "${R[@]}" --sftp-client=$c cp "$T2" "$U$D/t2-$c.bin"
    done
    run t2-put-sftp "${SFTP[@]}" -b <(echo "put $T2 $D/t2-sftp.bin") "$USER_@127.0.0.1"
    for c in mina sshj; do
      run "t2-get-$c" "${R[@]}" --sftp-client=$c cp "$U$D/t2-sftp.bin" "$D/back-$c.bin"
      cmp -s "$T2" "$D/back-$c.bin" || { echo "cli suite: $c download differs" >&2; exit 1; }
    done
    run t2-get-sftp "${SFTP[@]}" -b <(echo "get $D/t2-sftp.bin $D/back-sftp.bin") "$USER_@127.0.0.1"
    rm -f "$D"/*.bin
  fi
  if has small; then
    SERVED="$SMALL $D"
    run small-cp-rpath "${R[@]}" cp -r "$SMALL" "$U$D/small-cp"
    run small-sync-rpath "${R[@]}" sync "$SMALL" "$U$D/small-sync"
    run small-rclone rclone copy --config /dev/null --sftp-disable-hashcheck "$SMALL" "B:$D/small-rclone"
    mkdir -p "$D/small-sftp"
    run small-sftp "${SFTP[@]}" -b <(echo "put -r $SMALL/. $D/small-sftp") "$USER_@127.0.0.1"
  fi
  if has t1sftp; then
    SERVED=$D
    for c in mina sshj; do
      run "t1-first-$c" "${R[@]}" --sftp-client=$c sync "$T1" "$U$D/t1-$c"
    done
    run t1-first-rclone rclone sync --config /dev/null --sftp-disable-hashcheck "$T1" "B:$D/t1-rclone"
    for c in mina sshj; do
      run "t1-noop-$c" "${R[@]}" --sftp-client=$c sync "$T1" "$U$D/t1-$c"
    done
    run t1-noop-rclone rclone sync --config /dev/null --sftp-disable-hashcheck "$T1" "B:$D/t1-rclone"
    [ "$(find "$D/t1-mina" -type f | wc -l)" = 10000 ] || { echo "cli suite: the mirror is incomplete" >&2; exit 1; }
  fi
  if has t1s3; then
    for provider in transient filesystem; do
      s3 $provider
      SERVED=$W/s3-$provider
      "${S3R[@]}" mkdir "s3://bench-r$rep/" > /dev/null
      run "s3-first-$provider-rpath" "${S3R[@]}" sync "$T1" "s3://bench-r$rep/rpath"
      run "s3-first-$provider-rclone" rclone sync --config /dev/null "$T1" "S:bench-r$rep/rclone"
      run "s3-noop-$provider-rpath" "${S3R[@]}" sync "$T1" "s3://bench-r$rep/rpath"
      run "s3-noop-$provider-rclone" rclone sync --config /dev/null "$T1" "S:bench-r$rep/rclone"
      run "s3-noopsum-$provider-rclone" rclone sync --config /dev/null --checksum "$T1" "S:bench-r$rep/rclone"
      # The filesystem provider answers each page of a flat listing by walking the whole tree
      # (~0.3 s a page of T1): the option that lists per directory, as rclone does, for such stores.
      if [ $provider = filesystem ]; then
        run "s3-noopdir-$provider-rpath" "${S3R[@]}" --s3-per-directory-listing sync "$T1" "s3://bench-r$rep/rpath"
      fi
    done
  fi
  if has t1az; then
    SERVED=$W/azurite
    # rclone 1.60 takes an emulator's endpoint only as a container SAS URL (AzuriteSas makes the container)
    RCLONE_CONFIG_Z_SAS_URL=$("$(cat cli/target/rpath.java-home)/bin/java" -cp benchmarks/target/benchmarks.jar \
      dev.remotepath.bench.AzuriteSas "bench-r$rep" 2> /dev/null)
    export RCLONE_CONFIG_Z_SAS_URL
    run az-first-rpath "${R[@]}" sync "$T1" "az://bench-r$rep/rpath"
    run az-first-rclone rclone sync --config /dev/null "$T1" "Z:bench-r$rep/rclone"
    run az-noop-rpath "${R[@]}" sync "$T1" "az://bench-r$rep/rpath"
    run az-noop-rclone rclone sync --config /dev/null "$T1" "Z:bench-r$rep/rclone"
  fi
  if has t1ftp; then
    SERVED=$W/ftp/root
    export RCLONE_CONFIG_F_TYPE=ftp RCLONE_CONFIG_F_HOST=127.0.0.1 RCLONE_CONFIG_F_PORT=$FTP_PORT \
      RCLONE_CONFIG_F_USER=bench RCLONE_CONFIG_F_PASS="$(rclone obscure bench-pw)"
    export RPATH_FTP_PASSWORD=bench-pw
    run "ftp-first-rpath" "${R[@]}" sync "$T1" "ftp://bench@127.0.0.1:$FTP_PORT/rpath-r$rep"
    run "ftp-first-rclone" rclone sync --config /dev/null "$T1" "F:rclone-r$rep"
    run "ftp-noop-rpath" "${R[@]}" sync "$T1" "ftp://bench@127.0.0.1:$FTP_PORT/rpath-r$rep"
    run "ftp-noop-rclone" rclone sync --config /dev/null "$T1" "F:rclone-r$rep"
    [ "$(find "$W/ftp/root/rpath-r$rep" -type f | wc -l)" = 10000 ] \
      || { echo "cli suite: the FTP mirror is incomplete" >&2; exit 1; }
  fi
  if has t1dav; then
    for server in apache2 rclone; do
      port_var="DAVPORT_$server"
      SERVED=$W/dav-$server
      export RCLONE_CONFIG_W_TYPE=webdav RCLONE_CONFIG_W_URL="http://127.0.0.1:${!port_var}" RCLONE_CONFIG_W_VENDOR=other
      run "dav-first-$server-rpath" "${R[@]}" sync "$T1" "webdav://127.0.0.1:${!port_var}/rpath-r$rep"
      run "dav-first-$server-rclone" rclone sync --config /dev/null "$T1" "W:rclone-r$rep"
      run "dav-noop-$server-rpath" "${R[@]}" sync "$T1" "webdav://127.0.0.1:${!port_var}/rpath-r$rep"
      run "dav-noop-$server-rclone" rclone sync --config /dev/null "$T1" "W:rclone-r$rep"
      # (Apache keeps each file's dead properties beside it, under .DAV/)
      [ "$(find "$W/dav-$server/root/rpath-r$rep" -name .DAV -prune -o -type f -print | wc -l)" = 10000 ] \
        || { echo "cli suite: the WebDAV mirror on $server is incomplete" >&2; exit 1; }
    done
  fi
  if has archive; then
    SERVED=$D
    # a new archive as a sync's target, against the tools that make one; and reading one back
    run zip-write-rpath "${R[@]}" sync "$T1" "zip:$D/t1-rpath.zip!/"
    run zip-write-zip bash -c 'cd "$1" && zip -qr "$2" .' _ "$T1" "$D/t1-zip.zip"
    run tgz-write-rpath "${R[@]}" sync "$T1" "tar:$D/t1-rpath.tgz!/"
    run tgz-write-tar tar -czf "$D/t1-tar.tgz" -C "$T1" .
    run zip-read-rpath "${R[@]}" sync "zip:$D/t1-zip.zip!/" "$D/x-rpath"
    mkdir -p "$D/x-unzip"
    run zip-read-unzip unzip -q "$D/t1-zip.zip" -d "$D/x-unzip"
    run tgz-read-rpath "${R[@]}" sync "tar:$D/t1-tar.tgz!/" "$D/y-rpath"
    mkdir -p "$D/y-tar"
    run tgz-read-tar tar -xzf "$D/t1-tar.tgz" -C "$D/y-tar"
  fi
  if has ls; then
    SERVED=$SMALL
    run lsR-rpath "${R[@]}" ls -lR "$T1"
    run lsR-find find "$T1" -printf '%M %s %TY-%Tm-%Td %TH:%TM %p\n'
    run ls1000-rpath "${R[@]}" ls -l "$SMALL"
    run hello-java "$(cat cli/target/rpath.java-home)/bin/java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
      -cp benchmarks/target/classes dev.remotepath.bench.Hello
  fi
done

echo
echo "| case | rpath | baseline | baseline / rpath |"
echo "|---|---:|---:|---:|"
for c in mina sshj; do
  has t2 || break
  row "cp T2 local → SFTP, $c (vs sftp -b aes128-gcm)" "t2-put-$c" t2-put-sftp
  row "cp T2 SFTP → local, $c (vs sftp -b aes128-gcm)" "t2-get-$c" t2-get-sftp
done
if has small; then
  row "cp -r 1,000 × 4 KiB local → SFTP, MINA (vs rclone copy)" small-cp-rpath small-rclone
  row "sync 1,000 × 4 KiB local → SFTP, MINA (vs rclone copy)" small-sync-rpath small-rclone
  row "cp -r 1,000 × 4 KiB local → SFTP, MINA (vs sftp -b put -r)" small-cp-rpath small-sftp
fi
for c in mina sshj; do
  has t1sftp || break
  row "sync T1 first, local → SFTP, $c (vs rclone)" "t1-first-$c" t1-first-rclone
  row "sync T1 no-op, local → SFTP, $c (vs rclone)" "t1-noop-$c" t1-noop-rclone
done
if has t1s3; then
  for provider in transient filesystem; do
    row "sync T1 first, local → S3 (s3proxy $provider) (vs rclone)" "s3-first-$provider-rpath" "s3-first-$provider-rclone"
    row "sync T1 no-op, local → S3 (s3proxy $provider) (vs rclone)" "s3-noop-$provider-rpath" "s3-noop-$provider-rclone"
    row "sync T1 no-op, local → S3 (s3proxy $provider) (vs rclone --checksum)" "s3-noop-$provider-rpath" "s3-noopsum-$provider-rclone"
    if [ $provider = filesystem ]; then
      row "sync T1 no-op, local → S3 (s3proxy $provider), --s3-per-directory-listing (vs rclone)" \
        "s3-noopdir-$provider-rpath" "s3-noop-$provider-rclone"
    fi
  done
fi
if has t1az; then
  row "sync T1 first, local → Azure (Azurite) (vs rclone)" az-first-rpath az-first-rclone
  row "sync T1 no-op, local → Azure (Azurite) (vs rclone)" az-noop-rpath az-noop-rclone
fi
if has t1dav; then
  for server in apache2 rclone; do
    row "sync T1 first, local → WebDAV ($server) (vs rclone)" "dav-first-$server-rpath" "dav-first-$server-rclone"
    row "sync T1 no-op, local → WebDAV ($server) (vs rclone)" "dav-noop-$server-rpath" "dav-noop-$server-rclone"
  done
fi
if has t1ftp; then
  row "sync T1 first, local → FTP (ProFTPD) (vs rclone)" ftp-first-rpath ftp-first-rclone
  row "sync T1 no-op, local → FTP (ProFTPD) (vs rclone)" ftp-noop-rpath ftp-noop-rclone
fi
if has t1local; then
  row "sync T1 first, local → local ($local_on) (vs rclone)" local-first-rpath local-first-rclone
  row "sync T1 no-op, local → local ($local_on) (vs rclone)" local-noop-rpath local-noop-rclone
fi
if has archive; then
  row "sync T1 into a new zip (vs zip -qr)" zip-write-rpath zip-write-zip
  row "sync T1 into a new tar.gz (vs tar -czf)" tgz-write-rpath tgz-write-tar
  row "sync a zip of T1 out to local (vs unzip -q)" zip-read-rpath zip-read-unzip
  row "sync a tar.gz of T1 out to local (vs tar -xzf)" tgz-read-rpath tgz-read-tar
fi
if has ls; then
  row "ls -lR T1 (vs find -printf)" lsR-rpath lsR-find
  row "ls -l of 1,000 entries (vs a JVM hello world)" ls1000-rpath hello-java
  echo "(ls -l of 1,000 entries: +$(( $(median "${times[ls1000-rpath]}") - $(median "${times[hello-java]}") )) ms over the hello world)"
fi
echo "($samples interleaved reps, medians; $(date -u +%Y-%m-%dT%H:%MZ))"
