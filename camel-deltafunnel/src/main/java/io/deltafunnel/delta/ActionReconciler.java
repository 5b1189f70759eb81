package io.deltafunnel.delta;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * Replays a {@link LogSegment}: the checkpoint (read and checked by {@link CheckpointReader}) and then every commit
 * in version order (read and checked by {@link CommitReader}). The protocol's reconciliation rules pick the latest
 * protocol, the latest metaData and the live {@code add} actions, keyed by the protocol's logical-file key
 * (path, deletion-vector unique id): the live set holds one entry per key, so the same path can be live twice with
 * different deletion vectors. Within one version removes are applied before adds (an add and a remove of the same key
 * in one version leave the file live).
 */
final class ActionReconciler {

    /** What a replay yields. */
    record Replay(DeltaProtocol protocol, String metadataId, String schemaString, List<String> partitionColumns,
            Map<String, String> configuration, List<AddFile> files) {
    }

    /** The fields of a metaData action the reader uses. */
    record Metadata(String id, String schemaString, List<String> partitionColumns, Map<String, String> configuration) {
    }

    /** Receives actions in log order (non-decreasing versions). */
    interface Sink {
        void protocol(long version, DeltaProtocol protocol);

        void metaData(long version, Metadata metadata);

        void add(long version, AddFile file);

        /** {@code dvId} is the deletion vector's unique id, "" without one. */
        void remove(long version, String path, String dvId);
    }

    /** The protocol's logical-file key. The path is compared percent-decoded, as URIs are. */
    record FileKey(String path, String dvId) {
        static FileKey of(String rawPath, DeletionVectorDescriptor dv) {
            return new FileKey(TablePaths.percentDecode(rawPath), dv == null ? "" : dv.uniqueId());
        }
    }

    /** Reconciliation state; also used by the change feed to resolve removes against a previous snapshot. */
    static final class State implements Sink {
        private DeltaProtocol protocol;
        private Metadata metadata;
        private final Map<FileKey, AddFile> live = new HashMap<>();
        private long pendingVersion = Long.MIN_VALUE;
        private final List<AddFile> pendingAdds = new ArrayList<>();
        private final List<FileKey> pendingRemoves = new ArrayList<>();

        @Override
        public void protocol(long version, DeltaProtocol p) {
            protocol = p;
        }

        @Override
        public void metaData(long version, Metadata m) {
            metadata = m;
        }

        @Override
        public void add(long version, AddFile file) {
            switchTo(version);
            pendingAdds.add(file);
        }

        @Override
        public void remove(long version, String path, String dvId) {
            switchTo(version);
            pendingRemoves.add(new FileKey(TablePaths.percentDecode(path), dvId));
        }

        private void switchTo(long version) {
            if (version != pendingVersion) {
                flush();
                pendingVersion = version;
            }
        }

        private void flush() {
            for (FileKey k : pendingRemoves) {
                live.remove(k);
            }
            for (AddFile f : pendingAdds) {
                live.put(FileKey.of(f.path(), f.deletionVector()), f);
            }
            pendingRemoves.clear();
            pendingAdds.clear();
        }

        /** The live files sorted by path, then deletion-vector id. */
        List<AddFile> files() {
            flush();
            List<AddFile> files = new ArrayList<>(live.values());
            files.sort(Comparator.comparing(AddFile::path).thenComparing(
                    f -> f.deletionVector() == null ? "" : f.deletionVector().uniqueId()));
            return files;
        }
    }

    private ActionReconciler() {
    }

    static Replay replay(Connection duckdb, String table, LogSegment segment) throws DeltaException {
        State state = new State();
        if (segment.checkpoint() != null) {
            CheckpointReader.read(duckdb, table, segment.checkpoint(), state);
        }
        // the latest protocol and metaData of the commits, checked in full once replay knows they take effect
        Located[] latest = new Located[2];
        CommitReader.read(duckdb, table, segment.commits(), ActionSpec.SNAPSHOT, (version, file, line, name, action) -> {
            switch (name) {
                case "protocol" -> latest[0] = new Located(version, file, line, action);
                case "metaData" -> latest[1] = new Located(version, file, line, action);
                default -> visit(table, state, version, name, action);
            }
        });
        inEffect(table, state, "protocol", ActionSpec.PROTOCOL, latest[0]);
        inEffect(table, state, "metaData", ActionSpec.METADATA, latest[1]);
        if (state.protocol == null) {
            throw new CorruptLogException(table, null, "the log has no protocol action", null);
        }
        ProtocolSupport.check(table, state.protocol);
        if (state.metadata == null) {
            throw new CorruptLogException(table, null, "the log has no metaData action", null);
        }
        Metadata m = state.metadata;
        return new Replay(state.protocol, m.id(), m.schemaString(), m.partitionColumns(), m.configuration(),
                state.files());
    }

    /** A JSON action and where it was read. */
    private record Located(long version, String file, int line, JsonNode action) {
    }

    /**
     * Checks the protocol or metaData action that takes effect (the last one of the commits replayed) against its
     * full schema, then hands it to the sink. A superseded one was only required to be an object: replay takes
     * nothing from it (Databricks pipeline setup commits write a metaData without {@code schemaString} and replace it
     * in the next commit; the reference reader reads such tables).
     */
    private static void inEffect(String table, Sink sink, String name, java.util.List<ActionSpec.Field> spec,
            Located latest) throws CorruptLogException {
        if (latest == null) {
            return;
        }
        ActionSpec.Problem problem = ActionSpec.check(name, latest.action(), spec);
        if (problem != null) {
            throw CommitReader.invalid(table, latest.file(), latest.line(), problem.field(), problem
                    + " (the " + name + " in effect at the version read, from version " + latest.version() + ")");
        }
        visit(table, sink, latest.version(), name, latest.action());
    }

    /** Hands one validated JSON action to the sink (other action names are ignored). */
    static void visit(String table, Sink sink, long version, String name, JsonNode action) {
        switch (name) {
            case "protocol" -> sink.protocol(version, new DeltaProtocol(action.get("minReaderVersion").asInt(),
                    action.get("minWriterVersion").asInt(), CommitReader.stringList(action.get("readerFeatures")),
                    CommitReader.stringList(action.get("writerFeatures"))));
            case "metaData" -> sink.metaData(version, new Metadata(action.get("id").asText(),
                    action.get("schemaString").asText(), CommitReader.stringList(action.get("partitionColumns")),
                    CommitReader.stringMap(action.get("configuration"))));
            case "add" -> sink.add(version, CommitReader.addFile(table, action));
            case "remove" -> {
                DeletionVectorDescriptor dv = CommitReader.deletionVector(action);
                sink.remove(version, action.get("path").asText(), dv == null ? "" : dv.uniqueId());
            }
            default -> {
            }
        }
    }

    /** A JSON array of strings (DuckDB {@code to_json}) as a list; null gives an empty list. */
    static List<String> stringList(String json) {
        if (json == null) {
            return List.of();
        }
        List<String> result = new ArrayList<>();
        for (JsonNode v : tree(json, true)) {
            result.add(v.isNull() ? null : v.asText());
        }
        return result;
    }

    /** A JSON object of strings (DuckDB {@code to_json} of a MAP) as a map; null gives an empty map. */
    static Map<String, String> stringMap(String json) {
        if (json == null) {
            return new LinkedHashMap<>();
        }
        return CommitReader.stringMap(tree(json, false));
    }

    /** @throws IllegalArgumentException {@code json} is not JSON, or not an array (an object) as asked */
    private static JsonNode tree(String json, boolean array) {
        JsonNode node;
        try {
            node = CommitReader.MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("malformed JSON: " + e.getOriginalMessage(), e);
        }
        if (node == null || (array ? !node.isArray() : !node.isObject())) {
            throw new IllegalArgumentException(array ? "JSON array expected" : "JSON object expected");
        }
        return node;
    }
}
