package io.deltafunnel.mssql.session;

/**
 * What a sharded run did to its load once its last batch is written ({@link RunSession#loadStatus()}). The
 * {@linkplain #text() text} is what the producer puts into the header {@code CamelDeltaFunnelLoadStatus} and what the
 * application's log lines show ({@code shard-done}, {@code load-done}, {@code already-done}; docs/sharding.md).
 */
public enum LoadStatus {

    /** The share is committed; other shards are still missing. */
    SHARD_DONE("shard-done"),
    /** This run completed the set (or found the final step owed) and ran the final step. */
    LOAD_DONE("load-done"),
    /** The shard was done before this run: nothing written, and no final step was owed. */
    ALREADY_DONE("already-done");

    private final String text;

    LoadStatus(String text) {
        this.text = text;
    }

    /** The header and log text, e.g. {@code shard-done}. */
    public String text() {
        return text;
    }

    /**
     * The status whose {@linkplain #text() text} is {@code text}.
     *
     * @throws IllegalArgumentException for any other text (naming it and the known ones)
     */
    public static LoadStatus ofText(String text) {
        for (LoadStatus s : values()) {
            if (s.text.equals(text)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown load status '" + text + "' (known: shard-done, load-done,"
                + " already-done)");
    }

    /** The {@linkplain #text() text}. */
    @Override
    public String toString() {
        return text;
    }
}
