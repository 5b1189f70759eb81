package io.deltafunnel.delta;

import java.util.List;

/**
 * Builds the SQL relation over a range of JSON commits: one {@code read_ndjson} call over all commit files (not one
 * call per file), with the version taken from each row's file name.
 */
final class CommitReader {

    private CommitReader() {
    }

    /** Columns: version, add, remove, metaData, protocol. */
    static String relation(List<String> commitFiles) {
        return "SELECT CAST(regexp_extract(filename, '(\\d{20})\\.json$', 1) AS BIGINT) AS version, "
                + "\"add\", \"remove\", \"metaData\", \"protocol\" FROM read_ndjson(" + SqlText.list(commitFiles)
                + ", columns = " + ActionSchema.ndjsonColumns(false)
                + ", filename = true, format = 'newline_delimited', maximum_object_size = 268435456)";
    }
}
