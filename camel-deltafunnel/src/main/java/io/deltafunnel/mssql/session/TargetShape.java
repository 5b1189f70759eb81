package io.deltafunnel.mssql.session;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.zip.CRC32;

import io.deltafunnel.mssql.SqlIdentifiers;
import io.deltafunnel.mssql.SqlStatements;
import io.deltafunnel.mssql.TableName;

/**
 * What {@code ALTER TABLE ... SWITCH} needs to be the same on two tables beyond their columns, read from the catalog
 * ({@code sys.indexes}, {@code sys.index_columns}, {@code sys.check_constraints}, {@code sys.foreign_keys},
 * {@code sys.tables.temporal_type}, {@code sys.columns}): the clustered and nonclustered indexes (keys in order and
 * direction, INCLUDE columns, uniqueness, primary key / unique constraint), the CHECK constraints, and what rules a
 * switch out ({@link #cannotSwitch()}). It produces the DDL that gives another table (a loaded staging heap, an empty
 * holding table) the same indexes and CHECKs ({@link #ddlFor}) and compares two shapes ({@link #differenceFrom}).
 * A value; reading it needs only catalog access.
 */
public final class TargetShape {

    /** One index: names may differ between the tables, everything else must be identical. */
    record Index(String name, boolean clustered, boolean unique, boolean primaryKey, boolean uniqueConstraint,
            List<String> keys, List<String> included) {
        /** What SWITCH compares (the name left out). */
        String signature() {
            return (clustered ? "CLUSTERED" : "NONCLUSTERED") + (unique ? " UNIQUE" : "")
                    + (primaryKey ? " PRIMARY KEY" : uniqueConstraint ? " UNIQUE CONSTRAINT" : "")
                    + " (" + String.join(", ", keys) + ")"
                    + (included.isEmpty() ? "" : " INCLUDE (" + included.stream().sorted().collect(
                            Collectors.joining(", ")) + ")");
        }
    }

    /** One CHECK constraint: its definition in {@code sys.check_constraints}' normalised form. */
    record Check(String name, String definition, boolean trusted) {
    }

    private final TableName table;
    private final List<Index> indexes;
    private final List<Check> checks;
    private final String cannotSwitch;

    private TargetShape(TableName table, List<Index> indexes, List<Check> checks, String cannotSwitch) {
        this.table = table;
        this.indexes = List.copyOf(indexes);
        this.checks = List.copyOf(checks);
        this.cannotSwitch = cannotSwitch;
    }

    /** Reads {@code table}'s shape (it must exist). */
    public static TargetShape read(SqlStatements c, TableName table) throws SQLException {
        String id = table.quoted();
        List<String> reasons = new ArrayList<>();
        Map<Integer, String[]> rawIndexes = new LinkedHashMap<>();
        for (Object[] r : c.query("SELECT [index_id], [name], [type], CAST([is_unique] AS int),"
                + " CAST([is_primary_key] AS int), CAST([is_unique_constraint] AS int), CAST([has_filter] AS int),"
                + " CAST([is_disabled] AS int) FROM sys.indexes WHERE [object_id] = OBJECT_ID(?) AND [type] > 0"
                + " ORDER BY [index_id]", id)) {
            int type = ((Number) r[2]).intValue();
            String name = (String) r[1];
            if (type != 1 && type != 2) {
                reasons.add("index " + name + " is of type " + type + " (only rowstore clustered and nonclustered"
                        + " indexes are rebuilt on the staging table)");
            } else if (one(r[6])) {
                reasons.add("index " + name + " is filtered");
            } else if (one(r[7])) {
                reasons.add("index " + name + " is disabled");
            }
            rawIndexes.put(((Number) r[0]).intValue(), new String[] {name, String.valueOf(type),
                    String.valueOf(one(r[3])), String.valueOf(one(r[4])), String.valueOf(one(r[5]))});
        }
        Map<Integer, List<String>> keys = new LinkedHashMap<>();
        Map<Integer, List<String>> included = new LinkedHashMap<>();
        for (Object[] r : c.query("SELECT ic.[index_id], col.[name], ic.[key_ordinal], CAST(ic.[is_descending_key]"
                + " AS int), CAST(ic.[is_included_column] AS int) FROM sys.index_columns ic JOIN sys.columns col"
                + " ON col.[object_id] = ic.[object_id] AND col.[column_id] = ic.[column_id]"
                + " WHERE ic.[object_id] = OBJECT_ID(?) ORDER BY ic.[index_id], ic.[key_ordinal],"
                + " ic.[index_column_id]", id)) {
            int index = ((Number) r[0]).intValue();
            String column = SqlIdentifiers.quote((String) r[1]);
            if (one(r[4])) {
                included.computeIfAbsent(index, k -> new ArrayList<>()).add(column);
            } else {
                keys.computeIfAbsent(index, k -> new ArrayList<>()).add(column + (one(r[3]) ? " DESC" : " ASC"));
            }
        }
        List<Index> indexes = new ArrayList<>();
        rawIndexes.forEach((indexId, r) -> indexes.add(new Index(r[0], "1".equals(r[1]), Boolean.parseBoolean(r[2]),
                Boolean.parseBoolean(r[3]), Boolean.parseBoolean(r[4]), keys.getOrDefault(indexId, List.of()),
                included.getOrDefault(indexId, List.of()))));
        List<Check> checks = new ArrayList<>();
        for (Object[] r : c.query("SELECT [name], [definition], CAST([is_not_trusted] AS int),"
                + " CAST([is_disabled] AS int) FROM sys.check_constraints WHERE [parent_object_id] = OBJECT_ID(?)"
                + " ORDER BY [name]", id)) {
            if (one(r[3])) {
                reasons.add("CHECK constraint " + r[0] + " is disabled");
            }
            checks.add(new Check((String) r[0], (String) r[1], !one(r[2])));
        }
        for (Object[] r : c.query("SELECT [name] FROM sys.foreign_keys WHERE [referenced_object_id] = OBJECT_ID(?)"
                + " ORDER BY [name]", id)) {
            reasons.add("it is referenced by FOREIGN KEY " + r[0]
                    + " (SWITCH cannot move the rows of a referenced table)");
        }
        for (Object[] r : c.query("SELECT [name] FROM sys.foreign_keys WHERE [parent_object_id] = OBJECT_ID(?)"
                + " ORDER BY [name]", id)) {
            reasons.add("it has FOREIGN KEY " + r[0] + " (the staging table would need it, trusted, before the"
                    + " switch; not built)");
        }
        for (Object[] r : c.query("SELECT [temporal_type] FROM sys.tables WHERE [object_id] = OBJECT_ID(?)", id)) {
            if (r[0] != null && ((Number) r[0]).intValue() != 0) {
                reasons.add("it is a temporal table (temporal_type " + r[0] + ")");
            }
        }
        for (Object[] r : c.query("SELECT [name], CAST([is_identity] AS int), CAST([is_computed] AS int)"
                + " FROM sys.columns WHERE [object_id] = OBJECT_ID(?) ORDER BY [column_id]", id)) {
            if (!one(r[1]) && !one(r[2])) {
                continue;
            }
            if (one(r[1])) {
                reasons.add("it has identity column " + r[0] + " (SWITCH does not carry the identity's current"
                        + " value into the target, which a copy resets to the loaded rows)");
            } else {
                reasons.add("it has computed column " + r[0] + " (the staging table holds it as a plain column)");
            }
        }
        return new TargetShape(table, indexes, checks, reasons.isEmpty() ? null : String.join("; ", reasons));
    }

    private static boolean one(Object v) {
        return v instanceof Number n && n.intValue() == 1 || Boolean.TRUE.equals(v);
    }

    public TableName table() {
        return table;
    }

    /** Why {@code table} cannot be replaced by a switch (every reason, "; "-separated), or null when it can. */
    public String cannotSwitch() {
        return cannotSwitch;
    }

    /** How many indexes and CHECK constraints {@link #ddlFor} builds. */
    public int size() {
        return indexes.size() + checks.size();
    }

    /**
     * The statements that give {@code other} this shape's indexes (the clustered one first) and CHECK constraints
     * ({@code WITH CHECK}: the rows it already holds are checked, and the constraint is trusted). Index names are
     * kept (they are per table); constraint names are per schema, so a primary key, unique constraint or CHECK gets
     * a new name derived from {@code other} and the original name, within 128 characters.
     */
    public List<String> ddlFor(TableName other) {
        List<String> out = new ArrayList<>();
        List<Index> ordered = new ArrayList<>(indexes);
        ordered.sort((a, b) -> Boolean.compare(b.clustered(), a.clustered()));
        for (Index ix : ordered) {
            String kind = ix.clustered() ? "CLUSTERED" : "NONCLUSTERED";
            String keyList = "(" + String.join(", ", ix.keys()) + ")";
            if (ix.primaryKey() || ix.uniqueConstraint()) {
                out.add("ALTER TABLE " + other.quoted() + " ADD CONSTRAINT "
                        + SqlIdentifiers.quote(constraintName(other, ix.name())) + (ix.primaryKey() ? " PRIMARY KEY "
                        : " UNIQUE ") + kind + " " + keyList);
            } else {
                out.add("CREATE " + (ix.unique() ? "UNIQUE " : "") + kind + " INDEX " + SqlIdentifiers.quote(ix.name())
                        + " ON " + other.quoted() + " " + keyList + (ix.included().isEmpty() ? ""
                        : " INCLUDE (" + String.join(", ", ix.included()) + ")"));
            }
        }
        for (Check ck : checks) {
            out.add("ALTER TABLE " + other.quoted() + " WITH CHECK ADD CONSTRAINT "
                    + SqlIdentifiers.quote(constraintName(other, ck.name())) + " CHECK " + ck.definition());
        }
        return out;
    }

    /** {@code df<crc32 of table and name>_<name>}, cut to 128 characters. */
    static String constraintName(TableName other, String original) {
        CRC32 crc = new CRC32();
        crc.update((other.schema() + "." + other.table() + "/" + original).getBytes(StandardCharsets.UTF_8));
        String name = "df" + String.format(Locale.ROOT, "%08x", crc.getValue()) + "_" + original;
        return name.length() > SqlIdentifiers.MAX_LENGTH ? name.substring(0, SqlIdentifiers.MAX_LENGTH) : name;
    }

    /**
     * What of this shape {@code other} lacks or has in addition, as SWITCH compares it (indexes by signature, CHECKs
     * by definition and trust), or null when they are the same.
     */
    public String differenceFrom(TargetShape other) {
        List<String> mine = indexes.stream().map(Index::signature).sorted().toList();
        List<String> theirs = other.indexes.stream().map(Index::signature).sorted().toList();
        List<String> out = new ArrayList<>();
        if (!mine.equals(theirs)) {
            out.add("indexes " + mine + " on " + table + " but " + theirs + " on " + other.table);
        }
        List<String> myChecks = checks.stream().map(c -> c.definition() + (c.trusted() ? "" : " (not trusted)"))
                .sorted().toList();
        List<String> theirChecks = other.checks.stream().map(c -> c.definition() + (c.trusted() ? ""
                : " (not trusted)")).sorted().toList();
        if (!myChecks.equals(theirChecks)) {
            out.add("CHECK constraints " + myChecks + " on " + table + " but " + theirChecks + " on " + other.table);
        }
        return out.isEmpty() ? null : String.join("; ", out);
    }

    @Override
    public String toString() {
        return table + " " + indexes.stream().map(Index::signature).toList() + " checks "
                + checks.stream().map(Check::definition).toList();
    }
}
