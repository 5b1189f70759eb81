package io.deltafunnel.delta;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Builds the SQL relation over a range of JSON commits: one {@code read_text} call over all commit files (not one
 * call per file), split into lines and parsed with {@code json_transform} into {@link ActionSchema} structs, with the
 * version taken from each line's file name. Measured about 7x faster than {@code read_ndjson} over 1,000 small
 * commit files, whose per-file overhead dominates.
 */
final class CommitReader {

    private CommitReader() {
    }

    /** Columns: version, add, remove, metaData, protocol. */
    static String relation(List<String> commitFiles) {
        Map<String, String> actions = new LinkedHashMap<>();
        actions.put("add", ActionSchema.ADD);
        actions.put("remove", ActionSchema.REMOVE);
        actions.put("metaData", ActionSchema.METADATA);
        actions.put("protocol", ActionSchema.PROTOCOL);
        return lines(commitFiles, actions);
    }

    /** Columns: version, commitInfo (with inCommitTimestamp). */
    static String commitInfoRelation(List<String> commitFiles) {
        return lines(commitFiles, Map.of("commitInfo", ActionSchema.COMMIT_INFO));
    }

    /** Columns: version plus one struct column per entry of {@code actions} (name to DuckDB struct type). */
    static String lines(List<String> files, Map<String, String> actions) {
        StringJoiner structure = new StringJoiner(", ", "{", "}");
        StringJoiner columns = new StringJoiner(", ");
        actions.forEach((name, type) -> {
            structure.add(jsonString(name) + ": " + jsonString(type));
            columns.add("a." + SqlText.ident(name) + " AS " + SqlText.ident(name));
        });
        return "SELECT version, " + columns + " FROM (SELECT CAST(regexp_extract(filename, '(\\d{20})\\.json$', 1) AS BIGINT) AS version,"
                + " json_transform(line, " + SqlText.literal(structure.toString()) + ") AS a"
                + " FROM (SELECT filename, rtrim(line, chr(13)) AS line FROM (SELECT filename,"
                + " unnest(string_split(content, chr(10))) AS line FROM read_text(" + SqlText.list(files) + ")))"
                + " WHERE line <> '')";
    }

    private static String jsonString(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
