package io.deltafunnel.arrow;

/**
 * Reading or writing Arrow IPC data failed. The message names the source (a file path, {@code byte[]} or stream),
 * the record batch where it failed, and how many batches were read completely before it.
 */
public class ArrowIpcException extends RuntimeException {

    private final String source;
    private final long batchesRead;

    public ArrowIpcException(String source, long batchesRead, String problem, Throwable cause) {
        super("Arrow IPC " + source + ": " + problem + " (after " + batchesRead + " complete record batches)", cause);
        this.source = source;
        this.batchesRead = batchesRead;
    }

    /** The source that failed (a path, or a description such as {@code byte[1234]}). */
    public String source() {
        return source;
    }

    /** Record batches read completely before the failure. */
    public long batchesRead() {
        return batchesRead;
    }
}
