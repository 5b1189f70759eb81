package io.deltafunnel.emulator.h2;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/** H2 SQL text with the values to bind to its '?' placeholders. */
public final class H2Sql {
    public final String sql;
    public final List<Object> params;

    public H2Sql(String sql, List<Object> params) {
        this.sql = sql;
        this.params = List.copyOf(params.stream().map(p -> p == null ? NullValue.INSTANCE : p).toList());
    }

    /** Marker for a NULL parameter (List.copyOf refuses nulls). */
    enum NullValue { INSTANCE }

    public PreparedStatement prepare(Connection c) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        try {
            bind(ps);
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }

    void bind(PreparedStatement ps) throws SQLException {
        for (int i = 0; i < params.size(); i++) {
            Object v = params.get(i);
            if (v == NullValue.INSTANCE) {
                ps.setNull(i + 1, java.sql.Types.NULL);
            } else {
                ps.setObject(i + 1, v);
            }
        }
    }

    @Override
    public String toString() {
        return sql;
    }
}
