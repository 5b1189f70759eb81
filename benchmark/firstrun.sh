#!/usr/bin/env bash
# The first run against the warmed steady state of the same job (issue 29, section 3), with the packaged application
# (routes/target/deltafunnel-app.jar) exactly as the README's quick start runs it:
#   (a) the embedded endpoint (the mssql-emulator in the application's JVM, rows stored in H2), and
#   (b) the emulator's executable jar in sink mode as a separate process (rows decoded and discarded),
# each with both bulk encoders. For each target and encoder:
#   fresh:  one `java -XX:+UseSerialGC -jar deltafunnel-app.jar` (a new JVM, as the README runs it), its summary line's seconds and the process's wall time;
#   warmed: the same job with DELTAFUNNEL_RUNS=N in one JVM, the median of the summary seconds of runs 3..N.
# It prints the ratios the issue's targets are about:
#   fresh / warmed (target <= 1.5) and embedded / sink for the same encoder (target <= 1.5), fresh and warmed.
# Usage:
#   benchmark/firstrun.sh [--rows 1000000] [--runs 5] [--targets embedded,sink] [--encoders driver,direct]
#                         [--out benchmark/target/firstrun] [--cds | --aot [--training-rows 200000]]
#                         [--native-layout] [--gc serial|g1]
# --gc: the application's JVMs run with the README's -XX:+UseSerialGC (serial, the default), or with G1 (g1, what the
# JVM picks by itself on a machine of 2 or more cores and 2 GB or more).
# --cds first builds an AppCDS archive of the jar with a small training job (-XX:ArchiveClassesAtExit, Java 17's
# class-data sharing) and runs every measured JVM with -XX:SharedArchiveFile=<it>.
# --aot (Java 24 and later, the `java` on PATH) first records an ahead-of-time cache with a training job of the first
# target and encoder on a sample table of its own (-XX:AOTCacheOutput, as the Dockerfile does on Java 25) and runs
# every measured JVM with -XX:AOTCache=<it>.
# --native-layout runs the jar as the Dockerfile lays it out (io.deltafunnel.routes.NativeLayout): without DuckDB's
# native libraries, this platform's library next to it, which DuckDB then loads as it is instead of extracting it.
# Set SKIP_BUILD=1 to reuse the last build. JAVA_OPTS_EXTRA is passed to the application's JVM (e.g.
# JAVA_OPTS_EXTRA='-XX:SharedArchiveFile=none' or '-Xshare:off' to compare without the class-data archive).
# The machine's load average is printed at the start and the end: figures measured under load are not the product's.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
ROWS=1000000
RUNS=5
TARGETS=embedded,sink
ENCODERS=driver,direct
OUT=benchmark/target/firstrun
CDS=0
AOT=0
TRAINING_ROWS=200000
NATIVE_LAYOUT=0
GC=serial
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rows) ROWS=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --targets) TARGETS=$2; shift 2 ;;
    --encoders) ENCODERS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --cds) CDS=1; shift ;;
    --aot) AOT=1; shift ;;
    --training-rows) TRAINING_ROWS=$2; shift 2 ;;
    --native-layout) NATIVE_LAYOUT=1; shift ;;
    --gc) GC=$2; shift 2 ;;
    *) echo "unknown option $1 (see the header of $0)" >&2; exit 2 ;;
  esac
done
if (( RUNS < 3 )); then
  echo "--runs must be 3 or more (the warmed figure is the median of runs 3..N)" >&2
  exit 2
fi
case "$GC" in
  serial) APP_GC=-XX:+UseSerialGC ;; # the README's quick start
  g1) APP_GC=-XX:+UseG1GC ;;
  *) echo "--gc must be serial or g1" >&2; exit 2 ;;
esac
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  # -am packages mssql-emulator too, which builds the shaded -all jar started as the sink process.
  mvn -B -q -pl routes -am package -DskipTests
fi
APP="$ROOT/routes/target/deltafunnel-app.jar"
EMU=$(ls "$ROOT"/mssql-emulator/target/mssql-emulator-*-all.jar | head -1)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
SAMPLE="$OUT/sample-$ROWS"
PASSWORD='Firstrun!Passw0rd'
LOADS=("$(cut -d' ' -f1-3 /proc/loadavg)")
echo "firstrun: $ROWS rows, $RUNS runs for the warmed figure, java $(java -version 2>&1 | head -1)"
echo "firstrun: load average at start: ${LOADS[0]} ($(nproc) CPUs)"
echo "firstrun: the application's JVMs run with $APP_GC${JAVA_OPTS_EXTRA:+ $JAVA_OPTS_EXTRA}"
if [[ "$NATIVE_LAYOUT" == 1 ]]; then
  java -cp "$APP" io.deltafunnel.routes.NativeLayout "$APP" "$OUT/native"
  APP="$OUT/native/deltafunnel-app.jar"
  echo "firstrun: measured JVMs run $APP (the Dockerfile's layout)"
fi

SINK_PID=
cleanup() {
  if [[ -n "$SINK_PID" ]]; then kill "$SINK_PID" 2>/dev/null || true; fi
}
trap cleanup EXIT
SINK_URL=
start_sink() {
  local log="$OUT/sink-emulator.log"
  java -Xmx2g -jar "$EMU" --port 0 --password "$PASSWORD" --sink > "$log" 2>&1 &
  SINK_PID=$!
  for _ in $(seq 1 600); do
    if grep -q 'listening on' "$log"; then break; fi
    sleep 0.1
  done
  local port
  port=$(grep -o 'listening on [0-9]*' "$log" | head -1 | awk '{print $3}')
  if [[ -z "$port" ]]; then echo "the sink emulator did not start:"; cat "$log"; exit 1; fi
  SINK_URL="jdbc:sqlserver://localhost:$port;databaseName=master;encrypt=true;trustServerCertificate=true"
  echo "firstrun: sink emulator (java -jar $(basename "$EMU") --sink) on port $port"
}

# run_app <log> <target> <encoder> <runs>: the application in a fresh JVM; prints "<wall s> <user+sys CPU s> <RSS>",
# RSS the process's largest resident set in MB (GNU time's %M), "-" where /usr/bin/time is missing.
run_app() {
  local log=$1 target=$2 encoder=$3 runs=$4
  local -a env=(DELTAFUNNEL_SAMPLE_DIR="$SAMPLE" DELTAFUNNEL_SAMPLE_ROWS="$ROWS" DELTAFUNNEL_BULK_ENCODER="$encoder"
                DELTAFUNNEL_RUNS="$runs" DELTAFUNNEL_SCHEDULE_DELAY=200 DELTAFUNNEL_PROGRESS_IN_PLACE=false)
  if [[ "$target" == sink ]]; then
    env+=(DELTAFUNNEL_MSSQL_URL="$SINK_URL" DELTAFUNNEL_MSSQL_USERNAME=sa DELTAFUNNEL_MSSQL_PASSWORD="$PASSWORD")
  fi
  # shellcheck disable=SC2206
  local -a cmd=(env "${env[@]}" java $APP_GC ${JAVA_OPTS_EXTRA:-} -jar "$APP")
  local t ok=1
  if [[ -x /usr/bin/time ]]; then
    /usr/bin/time -f '%e %U %S %M' -o "$log.time" "${cmd[@]}" > "$log" 2>&1 < /dev/null || ok=0
    t=$(tail -1 "$log.time")
  else
    local TIMEFORMAT='%R %U %S'
    t=$( { time "${cmd[@]}" > "$log" 2>&1 < /dev/null; } 2>&1 ) || ok=0
  fi
  if [[ "$ok" == 0 ]]; then
    echo "the application failed (see $log):" >&2
    tail -5 "$log" >&2
    return 1
  fi
  awk '{printf "%.2f %.2f %s\n", $1, $2 + $3, ($4 == "" ? "-" : sprintf("%.0f", $4 / 1024))}' <<< "$t"
}

# the summary lines' seconds, one per run
run_seconds() {
  grep -o '^DeltaFunnel run complete on route [^:]*: [0-9,]* rows in [0-9]* batches, [0-9.]* s' "$1" \
    | awk '{print $(NF-1)}'
}

median() {
  sort -n | awk '{a[NR]=$1} END {if (NR == 0) {print "nan"} else if (NR % 2) {print a[(NR+1)/2]} else {printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}}'
}

IFS=, read -r -a TARGET_LIST <<< "$TARGETS"
IFS=, read -r -a ENCODER_LIST <<< "$ENCODERS"
for t in "${TARGET_LIST[@]}"; do
  if [[ "$t" == sink ]]; then start_sink; fi
done

# The sample table is generated once, by a first run that is not counted.
if [[ ! -d "$SAMPLE/_delta_log" ]]; then
  echo "firstrun: generating the sample table ($ROWS rows) with a run that is not counted"
  prep_target=embedded
  if [[ -n "$SINK_URL" ]]; then prep_target=sink; fi
  run_app "$OUT/prepare.log" "$prep_target" driver 1 > /dev/null
fi

# The sink process stands for a server that has been running: it is warmed up with two runs of every encoder measured
# (not counted) before the first measured run, so that no fresh run pays for the sink's own JIT warm-up on the same
# cores. Without it, whenever the sample table was already there, the first target's fresh run measured the cold sink
# too (Java 17, direct: 2.1-3.5x the warmed run, against 1.5-2.0x into a warmed sink; docs/performance.md).
if [[ -n "$SINK_URL" ]]; then
  for e in "${ENCODER_LIST[@]}"; do
    echo "firstrun: warming the sink process up with 2 runs of the $e encoder, not counted"
    run_app "$OUT/sink-warmup-$e.log" sink "$e" 2 > /dev/null
  done
fi

if [[ "$CDS" == 1 ]]; then
  # the Dockerfile's training job: 20,000 rows, two runs, into the embedded endpoint, default (driver) encoder
  echo "firstrun: building the AppCDS archive with a training job"
  rm -f "$OUT/deltafunnel-app.jsa"
  DELTAFUNNEL_SAMPLE_DIR="$OUT/training" DELTAFUNNEL_SAMPLE_ROWS=20000 DELTAFUNNEL_RUNS=2 \
    DELTAFUNNEL_SCHEDULE_DELAY=10 DELTAFUNNEL_PROGRESS_IN_PLACE=false \
    java $APP_GC -XX:ArchiveClassesAtExit="$OUT/deltafunnel-app.jsa" -jar "$APP" > "$OUT/training.log" 2>&1 < /dev/null
  JAVA_OPTS_EXTRA="${JAVA_OPTS_EXTRA:-} -XX:SharedArchiveFile=$OUT/deltafunnel-app.jsa"
  echo "firstrun: measured JVMs run with$JAVA_OPTS_EXTRA"
fi

if [[ "$AOT" == 1 ]]; then
  # JDK 24+ ahead-of-time cache (JEP 483 class loading and linking, JEP 515 method profiles): a training job of the
  # first target and encoder measured, on its own sample table, records the cache at exit (JEP 514's one step)
  IFS=, read -r -a _t <<< "$TARGETS"; IFS=, read -r -a _e <<< "$ENCODERS"
  echo "firstrun: recording the AOT cache with a training job (${_t[0]}, ${_e[0]}, $TRAINING_ROWS rows, 2 runs)"
  rm -f "$OUT/deltafunnel-app.aot"
  TRAINING_OPTS="${JAVA_OPTS_EXTRA:-}"
  JAVA_OPTS_EXTRA="$TRAINING_OPTS -XX:AOTCacheOutput=$OUT/deltafunnel-app.aot"
  SAVED_SAMPLE=$SAMPLE; SAVED_ROWS=$ROWS
  SAMPLE="$OUT/training-$TRAINING_ROWS"; ROWS=$TRAINING_ROWS
  run_app "$OUT/aot-training.log" "${_t[0]}" "${_e[0]}" 2 > /dev/null
  SAMPLE=$SAVED_SAMPLE; ROWS=$SAVED_ROWS
  JAVA_OPTS_EXTRA="$TRAINING_OPTS -XX:AOTCache=$OUT/deltafunnel-app.aot"
  echo "firstrun: measured JVMs run with$JAVA_OPTS_EXTRA ($(du -h "$OUT/deltafunnel-app.aot" | cut -f1))"
fi

declare -A FRESH WARM WALL
printf '\n%-9s %-7s %10s %10s %10s %9s %10s %12s %12s %9s\n' target encoder 'fresh s' 'wall s' 'CPU s' 'RSS MB' \
  'warmed s' 'fresh/warm' 'wall/warm' 'RSS MB'
for t in "${TARGET_LIST[@]}"; do
  for e in "${ENCODER_LIST[@]}"; do
    res=$(run_app "$OUT/fresh-$t-$e.log" "$t" "$e" 1)
    read -r wall cpu rss <<< "$res"
    fresh=$(run_seconds "$OUT/fresh-$t-$e.log" | head -1)
    res=$(run_app "$OUT/warm-$t-$e.log" "$t" "$e" "$RUNS")
    read -r _ _ warm_rss <<< "$res"
    warm=$(run_seconds "$OUT/warm-$t-$e.log" | tail -n +3 | median)
    FRESH[$t-$e]=$fresh; WARM[$t-$e]=$warm; WALL[$t-$e]=$wall
    printf '%-9s %-7s %10s %10s %10s %9s %10s %11.2fx %11.2fx %9s\n' "$t" "$e" "$fresh" "$wall" "$cpu" "$rss" "$warm" \
      "$(awk -v a="$fresh" -v b="$warm" 'BEGIN {print a / b}')" "$(awk -v a="$wall" -v b="$warm" 'BEGIN {print a / b}')" \
      "$warm_rss"
    echo "    runs of the warmed JVM (s): $(run_seconds "$OUT/warm-$t-$e.log" | tr '\n' ' ')"
  done
done
if [[ " ${TARGET_LIST[*]} " == *" embedded "* && " ${TARGET_LIST[*]} " == *" sink "* ]]; then
  echo
  echo "embedded endpoint's storing: embedded / sink, same encoder (target <= 1.5x)"
  for e in "${ENCODER_LIST[@]}"; do
    printf '  %-7s fresh %.2fx   warmed %.2fx\n' "$e" \
      "$(awk -v a="${FRESH[embedded-$e]}" -v b="${FRESH[sink-$e]}" 'BEGIN {print a / b}')" \
      "$(awk -v a="${WARM[embedded-$e]}" -v b="${WARM[sink-$e]}" 'BEGIN {print a / b}')"
  done
fi
echo
echo "firstrun: load average at start: ${LOADS[0]}, at end: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
echo "firstrun: 'fresh s' is the summary line's seconds (the run: poll start to the last commit), 'wall s' the whole"
echo "          process (JVM start, Camel start, sample check, run, read-back, stop), 'RSS MB' the largest resident set of"
echo "          the fresh process and of the warmed JVM (GNU time); logs in $OUT"
