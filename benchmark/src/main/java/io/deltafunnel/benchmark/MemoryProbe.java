package io.deltafunnel.benchmark;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Map;

import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

import com.sun.management.GarbageCollectionNotificationInfo;

/**
 * Peak memory while a path runs: heap used (sampled every 10 ms; includes garbage not yet collected), heap used
 * right after each GC (the retained set, the number that shows whether memory stays flat), and the JVM's "direct"
 * buffer pool. Arrow's unsafe allocator and DuckDB's native memory do not appear in either: the Arrow allocator's
 * own peak is reported separately by the paths that use one.
 */
final class MemoryProbe implements AutoCloseable {

    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter(b -> "direct".equals(b.getName())).findFirst().orElseThrow();
    private final Thread sampler;
    private final NotificationListener gcListener;
    private volatile boolean running = true;
    private volatile long heapPeak;
    private volatile long heapAfterGcPeak;
    private volatile long directPeak;

    MemoryProbe() {
        gcListener = (notification, handback) -> {
            if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
                GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo
                        .from((CompositeData) notification.getUserData());
                long used = 0;
                for (Map.Entry<String, MemoryUsage> e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
                    if (!isNonHeap(e.getKey())) {
                        used += e.getValue().getUsed();
                    }
                }
                synchronized (this) {
                    heapAfterGcPeak = Math.max(heapAfterGcPeak, used);
                }
            }
        };
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) gc).addNotificationListener(gcListener, null, null);
        }
        sampler = new Thread(() -> {
            while (running) {
                sample();
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "memory-probe");
        sampler.setDaemon(true);
        sampler.start();
    }

    private static boolean isNonHeap(String pool) {
        return List.of("Metaspace", "Compressed Class Space", "CodeHeap 'non-nmethods'", "CodeHeap 'profiled nmethods'",
                "CodeHeap 'non-profiled nmethods'", "CodeCache").contains(pool);
    }

    private void sample() {
        long heap = memory.getHeapMemoryUsage().getUsed();
        long d = direct.getMemoryUsed();
        synchronized (this) {
            heapPeak = Math.max(heapPeak, heap);
            directPeak = Math.max(directPeak, d);
        }
    }

    /** Starts a new measurement window. */
    synchronized void reset() {
        heapPeak = 0;
        heapAfterGcPeak = 0;
        directPeak = 0;
    }

    /** The peaks since the last reset (samples once more first). */
    Peaks peaks() {
        sample();
        synchronized (this) {
            return new Peaks(heapPeak, heapAfterGcPeak, directPeak);
        }
    }

    record Peaks(long heap, long heapAfterGc, long direct) {
        Peaks max(Peaks o) {
            return new Peaks(Math.max(heap, o.heap), Math.max(heapAfterGc, o.heapAfterGc), Math.max(direct, o.direct));
        }
    }

    @Override
    public void close() {
        running = false;
        sampler.interrupt();
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            try {
                ((NotificationEmitter) gc).removeNotificationListener(gcListener);
            } catch (Exception e) {
                // ignore
            }
        }
    }
}
