package io.deltafunnel.mssql.shard;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.WriteMode;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.session.RunSetup;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What the final step of a sharded load is built from, as the first shard to set up its share bound it: the write
 * mode and its strategy, the bound columns with their types, {@code keyColumns}, {@code columnMapping} and
 * {@code keepIdentity}. The first shard records it in the load row (the {@code binding} member of its {@code pins}
 * JSON); every other shard (and every re-run) must bind exactly the same, else it is refused ({@link #difference}):
 * the final step runs on the
 * binding of whichever shard completes the set, so shards that bind differently would silently lose columns.
 *
 * @param writeMode     {@code append}, {@code replace}, {@code truncate} or {@code merge}
 * @param strategy      how the final step moves the rows: {@code insert-select}, {@code truncate+insert-select},
 *                      {@code merge-upsert} or {@code merge-change-rows}
 * @param columns       the bound columns in order: {@code <source> <arrow type> -> <target> <target type>}
 * @param keyColumns    the merge keys as configured (empty for other modes)
 * @param columnMapping the explicit mapping, sorted by source name
 * @param keepIdentity  the endpoint's {@code keepIdentity}
 */
public record LoadBinding(String writeMode, String strategy, List<String> columns, List<String> keyColumns,
        Map<String, String> columnMapping, boolean keepIdentity) {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    public LoadBinding {
        Objects.requireNonNull(writeMode, "writeMode");
        Objects.requireNonNull(strategy, "strategy");
        columns = List.copyOf(columns);
        keyColumns = List.copyOf(keyColumns);
        columnMapping = new TreeMap<>(columnMapping);
    }

    /** The binding of a prepared shard run. */
    public static LoadBinding of(BulkLoadSettings settings, RunSetup prepared) {
        List<String> columns = new ArrayList<>();
        for (BoundColumn c : prepared.columns()) {
            String arrow = prepared.schema().getFields().get(c.sourceIndex()).getType().toString();
            columns.add(c.sourceName() + " " + arrow + " -> " + c.target().name() + " " + c.target().typeText());
        }
        String strategy = switch (settings.writeMode()) {
            case APPEND -> "insert-select";
            case REPLACE, TRUNCATE -> "truncate+insert-select";
            case MERGE -> prepared.changeRows() ? "merge-change-rows" : "merge-upsert";
            case HISTORY -> (prepared.changeRows() ? "history-change-rows" : "history-snapshot") + " "
                    + settings.history().columns();
        };
        return new LoadBinding(settings.writeMode().name().toLowerCase(Locale.ROOT), strategy, columns,
                settings.writeMode() == WriteMode.MERGE || settings.writeMode() == WriteMode.HISTORY
                        ? settings.keyColumns() : List.of(),
                settings.columnMapping(), settings.keepIdentity());
    }

    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the load binding as JSON", e);
        }
    }

    /** The binding recorded in a load row. */
    public static LoadBinding fromJson(String json) {
        try {
            return JSON.readValue(json, LoadBinding.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the load row's binding is not valid JSON: " + e.getOriginalMessage(),
                    e);
        }
    }

    /**
     * What differs between the load's recorded binding ({@code this}) and {@code run}'s, as
     * {@code "<what>: the load has …, this run has …"} joined by {@code "; "}, or null when they agree.
     * Names are compared case-insensitively, as SQL Server compares them.
     */
    public String difference(LoadBinding run) {
        List<String> out = new ArrayList<>();
        if (!writeMode.equalsIgnoreCase(run.writeMode)) {
            out.add("writeMode: the load has " + writeMode + ", this run has " + run.writeMode);
        } else if (!strategy.equals(run.strategy)) {
            out.add("final-step strategy: the load has " + strategy + ", this run has " + run.strategy);
        }
        if (!lower(columns).equals(lower(run.columns))) {
            List<String> missing = new ArrayList<>(columns);
            missing.removeIf(c -> lower(run.columns).contains(c.toLowerCase(Locale.ROOT)));
            List<String> extra = new ArrayList<>(run.columns);
            extra.removeIf(c -> lower(columns).contains(c.toLowerCase(Locale.ROOT)));
            out.add("columns: the load has " + columns + ", this run has " + run.columns
                    + (missing.isEmpty() ? "" : " (missing or different here: " + missing + ")")
                    + (extra.isEmpty() ? "" : " (not in the load: " + extra + ")")
                    + (missing.isEmpty() && extra.isEmpty() ? " (another order)" : ""));
        }
        if (!lower(keyColumns).equals(lower(run.keyColumns))) {
            out.add("keyColumns: the load has " + keyColumns + ", this run has " + run.keyColumns);
        }
        if (!lowerMap(columnMapping).equals(lowerMap(run.columnMapping))) {
            out.add("columnMapping: the load has " + columnMapping + ", this run has " + run.columnMapping);
        }
        if (keepIdentity != run.keepIdentity) {
            out.add("keepIdentity: the load has " + keepIdentity + ", this run has " + run.keepIdentity);
        }
        return out.isEmpty() ? null : String.join("; ", out);
    }

    private static List<String> lower(List<String> values) {
        return values.stream().map(v -> v.toLowerCase(Locale.ROOT)).toList();
    }

    private static Map<String, String> lowerMap(Map<String, String> values) {
        Map<String, String> m = new TreeMap<>();
        values.forEach((k, v) -> m.put(k.toLowerCase(Locale.ROOT), v.toLowerCase(Locale.ROOT)));
        return m;
    }
}
