package io.deltafunnel.emulator.semantics;

import io.deltafunnel.emulator.tsql.Identifiers;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * SQL Server moves an identity's current value past explicitly inserted values (IDENTITY_INSERT, KEEPIDENTITY);
 * H2 does not. Tables that received explicit identity values are remembered and, once the work is committed,
 * their H2 identity is restarted after the highest value (never moved backwards).
 */
public final class IdentityReseeder {
    private final Map<Integer, TableDef> pending = new LinkedHashMap<>();

    public void mark(TableDef t) {
        for (ColumnDef c : t.columns()) {
            if (c.identity()) {
                pending.put(t.objectId(), t);
                return;
            }
        }
    }

    public void clear() {
        pending.clear();
    }

    /** Runs after a commit (the ALTER is DDL and commits by itself). */
    public void reseed(Connection h2, Catalog catalog) throws SQLException {
        if (pending.isEmpty()) {
            return;
        }
        for (TableDef t0 : pending.values()) {
            TableDef t = catalog.tableById(t0.objectId());
            if (t == null) {
                continue;
            }
            for (ColumnDef c : t.columns()) {
                if (c.identity()) {
                    reseed(h2, t, c);
                }
            }
        }
        pending.clear();
    }

    /**
     * The next value H2's identity generator of {@code column} in H2 table {@code storage} hands out (its
     * IDENTITY_BASE), or null if the column has none.
     */
    public static Long identityBase(Connection h2, TableDef.Storage storage, String column) throws SQLException {
        try (PreparedStatement ps = h2.prepareStatement("SELECT IDENTITY_BASE FROM INFORMATION_SCHEMA.COLUMNS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND COLUMN_NAME = ?")) {
            ps.setString(1, storage.schema());
            ps.setString(2, storage.name());
            ps.setString(3, column);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getObject(1) != null ? rs.getLong(1) : null;
            }
        }
    }

    private static void reseed(Connection h2, TableDef t, ColumnDef c) throws SQLException {
        String col = Identifiers.h2Quote(c.name());
        boolean up = c.identityIncrement() > 0;
        Long extreme = null;
        try (PreparedStatement ps = h2.prepareStatement("SELECT " + (up ? "MAX(" : "MIN(") + col + ") FROM "
                + t.h2Name()); ResultSet rs = ps.executeQuery()) {
            if (rs.next() && rs.getObject(1) != null) {
                extreme = rs.getLong(1);
            }
        }
        if (extreme == null) {
            return;
        }
        Long base = identityBase(h2, t.storage(), c.name());
        if (base == null) {
            return;
        }
        long next = extreme + c.identityIncrement();
        if (up ? next > base : next < base) {
            try (Statement st = h2.createStatement()) {
                st.execute("ALTER TABLE " + t.h2Name() + " ALTER COLUMN " + col + " RESTART WITH " + next);
            }
        }
    }
}
