package io.deltafunnel.benchmark;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.deltafunnel.arrow.read.ArrowColumnTypes;
import io.deltafunnel.mssql.bind.BatchCheck;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.Rejection;
import io.deltafunnel.mssql.bind.TargetBinding;
import io.deltafunnel.mssql.bind.TargetColumn;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Binds an Arrow schema to the target table the way the producer does (same INFORMATION_SCHEMA query, same
 * {@link TargetBinding}s, columns matched by name), for the paths that drive {@code ArrowBulkData} or the driver
 * directly.
 */
final class BulkColumns {

    private BulkColumns() {
    }

    static List<BoundColumn> bind(Connection sqlServer, String table, Schema schema) throws SQLException {
        List<TargetColumn> targets = new ArrayList<>();
        try (PreparedStatement ps = sqlServer.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE,"
                + " CHARACTER_MAXIMUM_LENGTH, NUMERIC_PRECISION, NUMERIC_SCALE, DATETIME_PRECISION, IS_NULLABLE,"
                + " ORDINAL_POSITION FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
                + " ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, "dbo");
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    targets.add(new TargetColumn(rs.getString(1), rs.getString(2), intOrNull(rs, 3),
                            intOrNull(rs, 4), intOrNull(rs, 5), intOrNull(rs, 6),
                            "YES".equalsIgnoreCase(rs.getString(7).trim()), rs.getInt(8)));
                }
            }
        }
        List<BoundColumn> bound = new ArrayList<>();
        List<Field> fields = schema.getFields();
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            TargetColumn target = targets.stream()
                    .filter(t -> t.name().toLowerCase(Locale.ROOT).equals(f.getName().toLowerCase(Locale.ROOT)))
                    .findFirst().orElseThrow(() -> new IllegalStateException("no target column " + f.getName()));
            var type = ArrowColumnTypes.forField(f);
            bound.add(new BoundColumn(i, f.getName(), type, target, TargetBinding.of(type.kind(), target, true)));
        }
        return bound;
    }

    private static Integer intOrNull(ResultSet rs, int index) throws SQLException {
        long v = rs.getLong(index);
        return rs.wasNull() ? null : (int) v;
    }

    /** The batch check the producer runs before sending (BatchCheck); the benchmark's data always fits. */
    static void requireFits(VectorSchemaRoot root, List<BoundColumn> columns) {
        Rejection rejected = BatchCheck.first(root, columns);
        if (rejected != null) {
            throw new IllegalStateException("the benchmark's data does not fit: " + rejected);
        }
    }
}
