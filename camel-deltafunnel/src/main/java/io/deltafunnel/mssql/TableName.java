package io.deltafunnel.mssql;

import java.util.Objects;

/**
 * A schema-qualified table name, unquoted. {@link #toString()} gives {@code schema.table} for messages;
 * {@link #quoted()} the T-SQL form {@code [schema].[table]}.
 */
public record TableName(String schema, String table) {

    public TableName {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
        if (schema.isEmpty() || table.isEmpty()) {
            throw new IllegalArgumentException("empty schema or table name");
        }
    }

    /**
     * Parses {@code table}, {@code schema.table}, or bracketed parts ({@code [my schema].[my.table]}, with
     * {@code ]]} standing for {@code ]}). The schema defaults to {@code dbo}.
     */
    public static TableName parse(String text) {
        java.util.List<String> parts = SqlIdentifiers.splitQualified(text);
        if (parts.size() == 1) {
            return new TableName("dbo", parts.get(0));
        }
        if (parts.size() == 2) {
            return new TableName(parts.get(0), parts.get(1));
        }
        throw new IllegalArgumentException("expected [schema.]table, got '" + text + "'");
    }

    /** {@code [schema].[table]}, each part quoted by {@link SqlIdentifiers#quote}. */
    public String quoted() {
        return SqlIdentifiers.quote(schema) + "." + SqlIdentifiers.quote(table);
    }

    /** A table in the same schema. */
    public TableName sibling(String otherTable) {
        return new TableName(schema, otherTable);
    }

    @Override
    public String toString() {
        return schema + "." + table;
    }
}
