package io.deltafunnel.delta;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * Reads newline-delimited JSON log files (commits, v2 checkpoint manifests): the files' text is fetched with one
 * DuckDB {@code read_text} call over all of them (so remote tables work, and the per-file overhead is paid once), then
 * each line is parsed here and every action the caller uses is checked against {@link ActionSpec} before it is
 * handed on. Blank lines are skipped; any other line must be one JSON object. A violation is a
 * {@link CorruptLogException} naming the file, the line and the field.
 */
final class CommitReader {

    /** The log's JSON mapper: strict about trailing text; also used for the checkpoint hint and DuckDB's to_json. */
    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
    private static final Pattern FILE_IN_MESSAGE = Pattern.compile("file \"([^\"]+)\"");
    private static final Pattern VERSION = Pattern.compile("(\\d{20})\\.json$");

    /** Receives each validated, non-null action of a line, in file order then line order. */
    interface ActionVisitor {
        void action(long version, String file, int line, String name, JsonNode action) throws DeltaException;
    }

    private CommitReader() {
    }

    /** Reads and checks the commit files (version from each file name), visiting the actions named in {@code spec}. */
    static void read(Connection duckdb, String table, List<String> files, Map<String, List<ActionSpec.Field>> spec,
            ActionVisitor visitor) throws DeltaException {
        Map<String, String> contents = contents(duckdb, table, files);
        for (String file : files) {
            Matcher m = VERSION.matcher(file);
            long version = m.find() ? Long.parseLong(m.group(1)) : -1;
            parse(table, file, version, contents.get(file), spec, visitor);
        }
    }

    /** The text of each file, by file name as given. One {@code read_text} call. */
    static Map<String, String> contents(Connection duckdb, String table, List<String> files) throws DeltaException {
        Map<String, String> result = new HashMap<>();
        if (files.isEmpty()) {
            return result;
        }
        try (Statement st = duckdb.createStatement();
                ResultSet rs = st.executeQuery("SELECT filename, content FROM read_text(" + SqlText.list(files) + ")")) {
            while (rs.next()) {
                result.put(rs.getString(1), rs.getString(2));
            }
        } catch (SQLException e) {
            String message = e.getMessage() == null ? "" : e.getMessage();
            Matcher m = FILE_IN_MESSAGE.matcher(message);
            String file = m.find() ? m.group(1) : unreadable(duckdb, files);
            throw new CorruptLogException(table, file, "cannot read the Delta log ("
                    + message.lines().findFirst().orElse(message) + ")", e);
        }
        for (String file : files) {
            if (!result.containsKey(file)) {
                throw new MissingCommitException(table, file, "log file " + file + " was listed but cannot be read");
            }
        }
        return result;
    }

    /** Error path only: read the files one by one to name the one DuckDB cannot read. */
    private static String unreadable(Connection duckdb, List<String> files) {
        for (String file : files) {
            try (Statement st = duckdb.createStatement();
                    ResultSet rs = st.executeQuery("SELECT content FROM read_text(" + SqlText.literal(file) + ")")) {
                while (rs.next()) {
                    rs.getString(1);
                }
            } catch (SQLException probe) {
                return file;
            }
        }
        return null;
    }

    /** Parses and checks one file's text. */
    static void parse(String table, String file, long version, String content, Map<String, List<ActionSpec.Field>> spec,
            ActionVisitor visitor) throws DeltaException {
        int lineNo = 0;
        int start = 0;
        int length = content.length();
        while (start < length) {
            int end = content.indexOf('\n', start);
            if (end < 0) {
                end = length;
            }
            lineNo++;
            String line = content.substring(start, end);
            start = end + 1;
            if (line.isBlank()) {
                continue;
            }
            JsonNode root;
            try {
                root = MAPPER.readTree(line);
            } catch (JsonProcessingException e) {
                throw new CorruptLogException(table, file, lineNo, null, "line " + lineNo + " is not valid JSON ("
                        + e.getOriginalMessage() + ")", e);
            }
            if (root == null || !root.isObject()) {
                throw new CorruptLogException(table, file, lineNo, null, "line " + lineNo + " is not a JSON object (found "
                        + (root == null ? "nothing" : ActionSpec.describe(root)) + ")", null);
            }
            for (Map.Entry<String, List<ActionSpec.Field>> e : spec.entrySet()) {
                JsonNode action = root.get(e.getKey());
                if (action == null || action.isNull()) {
                    continue;
                }
                if (!action.isObject()) {
                    throw invalid(table, file, lineNo, e.getKey(), e.getKey() + ": must be an object, found "
                            + ActionSpec.describe(action));
                }
                ActionSpec.Problem problem = ActionSpec.check(e.getKey(), action, e.getValue());
                if (problem != null) {
                    throw invalid(table, file, lineNo, problem.field(), problem.toString());
                }
            }
            for (String name : spec.keySet()) {
                JsonNode action = root.get(name);
                if (action != null && !action.isNull()) {
                    visitor.action(version, file, lineNo, name, action);
                }
            }
        }
    }

    static CorruptLogException invalid(String table, String file, int line, String field, String problem) {
        return new CorruptLogException(table, file, line, field, "invalid action at line " + line + ", " + problem, null);
    }

    // ---- typed views of validated actions ----

    /** An {@code add} (or {@code cdc}) action as an {@link AddFile}; {@code action} must have passed the check. */
    static AddFile addFile(String table, JsonNode action) {
        String path = action.get("path").asText();
        Map<String, String> pv = action.hasNonNull("partitionValues") ? stringMap(action.get("partitionValues"))
                : Map.of();
        long size = action.hasNonNull("size") ? action.get("size").asLong() : 0;
        long mtime = action.hasNonNull("modificationTime") ? action.get("modificationTime").asLong() : 0;
        JsonNode stats = action.get("stats");
        return new AddFile(path, TablePaths.resolve(table, path), pv, size, mtime, deletionVector(action),
                stats != null && stats.isTextual() ? AddFile.numRecords(stats.asText()) : null);
    }

    static DeletionVectorDescriptor deletionVector(JsonNode action) {
        JsonNode dv = action.get("deletionVector");
        if (dv == null || dv.isNull()) {
            return null;
        }
        JsonNode offset = dv.get("offset");
        return new DeletionVectorDescriptor(dv.get("storageType").asText(), dv.get("pathOrInlineDv").asText(),
                offset == null || offset.isNull() ? null : offset.asInt(), dv.get("sizeInBytes").asInt(),
                dv.get("cardinality").asLong());
    }

    static Map<String, String> stringMap(JsonNode object) {
        Map<String, String> result = new LinkedHashMap<>();
        if (object == null || object.isNull()) {
            return result;
        }
        object.fields().forEachRemaining(e -> result.put(e.getKey(), e.getValue().isNull() ? null : e.getValue().asText()));
        return result;
    }

    static List<String> stringList(JsonNode array) {
        List<String> result = new ArrayList<>();
        if (array != null && !array.isNull()) {
            array.forEach(v -> result.add(v.asText()));
        }
        return result;
    }
}
