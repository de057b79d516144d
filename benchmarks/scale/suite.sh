#!/usr/bin/env bash
# The scale suite (issue #19): no-op syncs of 10^5 and 10^6 files, each in a JVM of its own
# (ScaleProbe: time per file, then the peak live set of a second, untimed no-op read by a full
# collection every 20 ms, or four times as long as the last one took),
# local->local, local->mem and from a mem source whose listings take 1 ms; the 70,000-directory
# case (WideTreeSyncTest); and bin/rpath sync of the 10^6-file no-op beside rclone sync, whole
# process, in the same reps. Trees are made once under benchmarks/target/scale-bench (~2.2 M
# inodes) and kept for the next run; 100 directories of 100 empty files per parent, so the largest
# directory is the same size at every total. The files are empty so that a mem copy holds no
# content, only entries (the 10^6-file volume is ~150 MB of heap; docs/mem.md).
#   benchmarks/run --suite scale [--samples N] [--sizes 100000,1000000]
set -euo pipefail
cd "$(dirname "$0")/../.."
samples=3
sizes=100000,1000000
while [ $# -gt 0 ]; do
  case $1 in
    --samples) samples=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    *) echo "scale suite: unknown option $1" >&2; exit 2 ;;
  esac
done
JAVA_HOME=$(bin/find-jdk25)
jar=benchmarks/target/benchmarks.jar
if [ ! -f "$jar" ] || [ -n "$(find api local mem syncer testkit benchmarks/src -newer "$jar" -name '*.java' -print -quit)" ]; then
  ./mvnw -q -B package -DskipTests -pl benchmarks -am >&2
fi
[ -f cli/target/rpath.jar ] || ./mvnw -q -B package -DskipTests -pl cli -am >&2
W=$PWD/benchmarks/target/scale-bench/v3
mkdir -p "$W"
# SerialGC: the probe's System.gc() is a full, stop-the-world collection, so the heap in use right
# after it is the live set. A fixed, pre-touched initial heap: a heap that grows between two runs
# pays the kernel for its new pages in the run after (1.9 s of the 10^6 mem->mem no-op's 3.5 s
# before this), which measures the JVM's heap sizing, not the sync.
probe() { "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -Xmx${SCALE_XMX:-8g} \
  -Xms${SCALE_XMS:-2g} -XX:+AlwaysPreTouch \
  -cp "$jar" dev.remotepath.bench.ScaleProbe "$@" 2> >(grep -v "^SLF4J" >&2); }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }
IFS=, read -ra SIZES <<< "$sizes"
for n in "${SIZES[@]}"; do
  dirs=$((n / 100))
  [ -d "$W/src-$n" ] || { echo "making $n files in $dirs directories" >&2; probe make "$W/src-$n" "$dirs" 100; }
done
echo "# scale suite, $(date -u +%FT%TZ), $(nproc) cores, samples=$samples"
echo
echo "| case | files | median ms | ns/file | peak live heap (MB) | live before the run (MB) | the run's own (MB) |"
echo "|---|---|---|---|---|---|---|"
declare -A NS PEAK OWN
for mode in local-local local-mem mem-latency; do
  for n in "${SIZES[@]}"; do
    ms=(); pk=(); base=(); own=(); files=0
    for ((i = 0; i < samples; i++)); do
      case $mode in
        local-local) out=$(probe noop local-local "$W/src-$n" "$W/dst-$n") ;;
        local-mem) out=$(probe noop local-mem "$W/src-$n") ;;
        mem-latency) out=$(probe noop mem-latency "$W/src-$n" 1) ;;
      esac
      ms+=("$(echo "$out" | field ms)"); pk+=("$(echo "$out" | field peakLiveMB)"); base+=("$(echo "$out" | field baseMB)")
      own+=("$(echo "$out" | field ownMB)")
      files=$(echo "$out" | field files)
    done
    m=$(printf '%s\n' "${ms[@]}" | median); p=$(printf '%s\n' "${pk[@]}" | median); b=$(printf '%s\n' "${base[@]}" | median)
    o=$(printf '%s\n' "${own[@]}" | median)
    ns=$(echo "$m * 1000000 / $files" | bc)
    NS[$mode-$n]=$ns; PEAK[$mode-$n]=$p; OWN[$mode-$n]=$o
    echo "| no-op $mode | $files | $m | $ns | $p | $b | $o |"
  done
done
# A control for the mem cases: the smallest tree's no-op with the largest tree's mem copy beside it
# in the same heap (not synced): if its time per file grows too, it is the heap's size (the
# volume's entries, caches and TLB), not the number of files synced, that costs.
if [ ${#SIZES[@]} -ge 2 ]; then
  ms=()
  for ((i = 0; i < samples; i++)); do
    out=$(probe noop local-mem "$W/src-${SIZES[0]}" "$W/src-${SIZES[-1]}")
    ms+=("$(echo "$out" | field ms)"); files=$(echo "$out" | field files)
  done
  m=$(printf '%s\n' "${ms[@]}" | median)
  NS[control]=$(echo "$m * 1000000 / $files" | bc)
  echo "| no-op local-mem, ${SIZES[-1]} more files in the heap | $files | $m | ${NS[control]} | | | |"
fi
echo
if [ ${#SIZES[@]} -ge 2 ]; then
  echo "- control: time per file of the ${SIZES[0]}-file local-mem no-op with ${SIZES[-1]} more files in the heap vs without: $(echo "scale=2; ${NS[control]} / ${NS[local-mem-${SIZES[0]}]}" | bc)x"
  small=${SIZES[0]} large=${SIZES[-1]}
  # The run's own heap is what it kept live beyond what was live before it (for local-mem, the
  # mem tree itself grows with the total and is not the run's); under 1 MB counts as 1 MB.
  for mode in local-local local-mem mem-latency; do
    a=$(echo "if (${OWN[$mode-$large]} < 1) 1 else ${OWN[$mode-$large]}" | bc); b=$(echo "if (${OWN[$mode-$small]} < 1) 1 else ${OWN[$mode-$small]}" | bc)
    echo "- $mode: time per file $large vs $small: $(echo "scale=2; ${NS[$mode-$large]} / ${NS[$mode-$small]}" | bc)x (target <= 1.3); the run's own peak heap $(echo "scale=2; $a / $b" | bc)x, peak live heap $(echo "scale=2; ${PEAK[$mode-$large]} / ${PEAK[$mode-$small]}" | bc)x (target <= 1.2)"
  done
fi
# The whole command as users run it, beside rclone, on the largest tree's no-op.
n=${SIZES[-1]}
if command -v rclone > /dev/null; then
  [ -d "$W/dst-$n" ] || bin/rpath sync "$W/src-$n" "$W/dst-$n" > /dev/null
  rp=(); rc=()
  for ((i = 0; i < samples; i++)); do
    /usr/bin/time -f %e -o "$W/time" bin/rpath sync "$W/src-$n" "$W/dst-$n" > /dev/null; rp+=("$(tail -1 "$W/time")")
    /usr/bin/time -f %e -o "$W/time" rclone sync --config /dev/null "$W/src-$n" "$W/dst-$n" 2> /dev/null; rc+=("$(tail -1 "$W/time")")
  done
  a=$(printf '%s\n' "${rp[@]}" | median); c=$(printf '%s\n' "${rc[@]}" | median)
  echo "- bin/rpath sync no-op of $n files: $a s; rclone sync: $c s; rclone/rpath $(echo "scale=2; $c / $a" | bc)x (target > 1)"
fi
echo "- 70,000 subdirectories behind a 1 ms listing: ./mvnw -q verify -pl syncer -Dtest=WideTreeSyncTest (completes; see the test)"
