/** The side-by-side throughput benchmark (see benchmark/README.md). */
package io.deltafunnel.benchmark;
