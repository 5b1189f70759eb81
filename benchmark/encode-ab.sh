#!/usr/bin/env bash
# Two builds of the direct writer in one JVM (io.deltafunnel.benchmark.EncodeAb): EncodeCpu's LINEITEM batch written
# with build A's and build B's camel-deltafunnel jar in turn, round by round, each jar in a class loader of its own.
# Arguments: A.jar B.jar [batches per round, 5] [rounds, 80] [rows per batch, 65536]. To get the jar of a commit:
#   git stash; mvn -B -q -o install -pl camel-deltafunnel -DskipTests; cp camel-deltafunnel/target/*.jar /tmp/a.jar
#   git stash pop; mvn -B -q -o install -pl camel-deltafunnel -DskipTests; cp camel-deltafunnel/target/*.jar /tmp/b.jar
#   benchmark/encode-ab.sh /tmp/a.jar /tmp/b.jar
# Set SKIP_BUILD=1 to reuse the last build (the benchmark's classes and class path). JAVA_OPTS_EXTRA is appended to the
# JVM options.
set -euo pipefail
ENCODE_MAIN=io.deltafunnel.benchmark.EncodeAb exec "$(dirname "$0")/encode-cpu.sh" "$@"
