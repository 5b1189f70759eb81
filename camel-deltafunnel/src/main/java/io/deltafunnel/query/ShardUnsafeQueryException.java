package io.deltafunnel.query;

/**
 * The query of a sharded consumer is not shard-safe: its result depends on seeing all rows of the sharded view at
 * once (an aggregate, {@code DISTINCT}, {@code ORDER BY}, …), so N shards would not add up to the unsharded result.
 * Or the query could not be checked (not one {@code SELECT}, or a syntax error). Thrown when the consumer starts.
 */
public class ShardUnsafeQueryException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String view;

    public ShardUnsafeQueryException(String message, String view, Throwable cause) {
        super(message, cause);
        this.view = view;
    }

    /** The sharded view the query was checked against. */
    public String view() {
        return view;
    }
}
