package io.deltafunnel.benchmark;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.deltafunnel.camel.DeltaFunnelComponent;
import io.deltafunnel.camel.DeltaFunnelConstants;
import io.deltafunnel.camel.DeltaFunnelEndpoint;
import io.deltafunnel.emulator.MssqlEmulator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * Soak run (not part of {@code mvn verify}): streams {@code rows} rows through {@code deltafunnel:} →
 * {@code deltafunnel-mssql:} into the emulator in sink mode (rows decoded and checked, not stored), and prints heap,
 * direct memory and Arrow allocator figures every few seconds, then a summary. Bounded in time: it stops after
 * {@code maxSeconds} even if not finished.
 *
 * <pre>mvn -B -q -pl benchmark -am -Psoak -DskipTests package [-Dsoak.rows=50000000] [-Dsoak.maxSeconds=900]</pre>
 */
public final class Soak {

    private Soak() {
    }

    /** One memory sample, in bytes. */
    record Sample(long seconds, long rows, long heapUsed, long direct, long arrow, long arrowPeak) {
    }

    public static void main(String[] args) throws Exception {
        long rows = args.length > 0 ? Long.parseLong(args[0]) : 50_000_000L;
        long maxSeconds = args.length > 1 ? Long.parseLong(args[1]) : 900;
        int batchSize = args.length > 2 ? Integer.parseInt(args[2]) : 65_536;
        int sampleSeconds = 5;

        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(b -> b.getName().equals("direct")).findFirst().orElseThrow();
        List<Sample> samples = new ArrayList<>();
        AtomicLong written = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch finished = new CountDownLatch(1);

        try (MssqlEmulator emulator = MssqlEmulator.builder().port(0).sinkMode(true).start();
                CamelContext camel = new DefaultCamelContext()) {
            String source = "deltafunnel:soak?query=RAW(SELECT i AS id, i * 2 AS amount, 'row-' || (i % 1000) AS label,"
                    + " (i % 86400)::INTEGER AS second FROM range(0, " + rows + ") t(i))&batchSize=" + batchSize
                    + "&repeatCount=1&initialDelay=0&bridgeErrorHandler=true";
            String target = "deltafunnel-mssql:dbo.soak?url=RAW(" + emulator.jdbcUrl() + ")&username="
                    + emulator.user() + "&password=RAW(" + emulator.password() + ")&createTable=true"
                    + "&transaction=batch&tableLock=true";
            camel.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    onException(Exception.class).handled(true).process(e -> {
                        failure.compareAndSet(null, e.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class));
                        finished.countDown();
                    });
                    from(source).routeId("soak").to(target).process(e -> {
                        written.set(e.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_ROWS, Long.class));
                        if (Boolean.TRUE.equals(e.getProperty(Exchange.BATCH_COMPLETE, Boolean.class))) {
                            finished.countDown();
                        }
                    });
                }
            });
            long start = System.nanoTime();
            camel.start();
            // The route's own endpoint instance (not a look-up by URI, which could create a second endpoint).
            BufferAllocator allocator = ((DeltaFunnelEndpoint) camel.getRoute("soak").getEndpoint()).getAllocator();
            ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
            sampler.scheduleAtFixedRate(() -> {
                Sample s = new Sample((System.nanoTime() - start) / 1_000_000_000L, written.get(),
                        memory.getHeapMemoryUsage().getUsed(), direct.getMemoryUsed(), allocator.getAllocatedMemory(),
                        allocator.getPeakMemoryAllocation());
                synchronized (samples) {
                    samples.add(s);
                }
                System.out.printf("t=%4ds rows=%,13d heap=%,6d MB direct=%,8d KB arrow=%,8d KB (peak %,d KB)%n",
                        s.seconds(), s.rows(), mb(s.heapUsed()), kb(s.direct()), kb(s.arrow()), kb(s.arrowPeak()));
            }, sampleSeconds, sampleSeconds, TimeUnit.SECONDS);
            boolean completed = finished.await(maxSeconds, TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - start) / 1e9;
            sampler.shutdownNow();
            camel.stop();
            long leftOver = allocator.getAllocatedMemory();
            System.out.println("---- soak summary ----");
            System.out.printf("completed=%s failure=%s%n", completed, failure.get());
            System.out.printf("rows written=%,d of %,d, decoded by the server=%,d, in %.1f s = %,.0f rows/s%n",
                    written.get(), rows, emulator.bulkRowsDecoded(), seconds, written.get() / seconds);
            synchronized (samples) {
                summary("heap used", samples.stream().mapToLong(Sample::heapUsed).summaryStatistics());
                summary("direct (BufferPoolMXBean)", samples.stream().mapToLong(Sample::direct).summaryStatistics());
                summary("arrow allocated", samples.stream().mapToLong(Sample::arrow).summaryStatistics());
                System.out.printf("arrow peak %,d KB; samples %d; arrow bytes outstanding after stop: %d%n",
                        kb(allocator.getPeakMemoryAllocation()), samples.size(), leftOver);
            }
            if (!completed || failure.get() != null || written.get() != rows) {
                System.exit(1);
            }
        }
    }

    private static void summary(String what, LongSummaryStatistics s) {
        System.out.printf("%-26s min %,10d KB  max %,10d KB%n", what, kb(s.getMin()), kb(s.getMax()));
    }

    private static long kb(long bytes) {
        return bytes / 1024;
    }

    private static long mb(long bytes) {
        return bytes / (1024 * 1024);
    }

    @SuppressWarnings("unused")
    private static final Class<?> COMPONENT = DeltaFunnelComponent.class;
}
