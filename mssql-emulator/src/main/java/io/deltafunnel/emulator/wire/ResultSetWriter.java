package io.deltafunnel.emulator.wire;

import io.deltafunnel.emulator.semantics.AttentionException;

import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.SqlType;
import io.deltafunnel.tds.MoneyCodec;
import io.deltafunnel.tds.TdsWriter;
import io.deltafunnel.tds.TemporalCodec;
import io.deltafunnel.tds.TokenType;
import io.deltafunnel.tds.TokenWriter;
import io.deltafunnel.tds.TypeId;
import io.deltafunnel.tds.TypeInfo;
import io.deltafunnel.tds.VectorCodec;
import io.deltafunnel.emulator.semantics.ModernValues;
import io.deltafunnel.tds.ValueCodec;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Streams an H2 result as COLMETADATA + ROW tokens with SQL Server types. */
public final class ResultSetWriter {
    private final Response r;
    private final ConnectionHandler connection;

    public ResultSetWriter(Response r, ConnectionHandler connection) {
        this.r = r;
        this.connection = connection;
    }

    public static void writeMetadata(Response r, List<ResultColumn> cols) {
        writeMetadata(r, cols, true, true);
    }

    /** COLMETADATA for a client with (or without) the JSONSUPPORT / VECTORSUPPORT features. */
    public static void writeMetadata(Response r, List<ResultColumn> cols, ConnectionHandler connection) {
        writeMetadata(r, cols, connection.jsonFeature(), connection.vectorFeature());
    }

    private static void writeMetadata(Response r, List<ResultColumn> cols, boolean json, boolean vector) {
        List<TokenWriter.Column> tds = new ArrayList<>(cols.size());
        for (ResultColumn c : cols) {
            tds.add(c.toTds(json, vector));
        }
        TokenWriter.colMetadata(r.token(), tds);
    }

    /** Writes all rows; returns the row count. Checks for ATTENTION every few hundred rows. */
    public long writeRows(ResultSet rs, List<ResultColumn> cols) throws SQLException, IOException, SqlServerError {
        TypeInfo[] types = new TypeInfo[cols.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = cols.get(i).type.typeInfo(connection.jsonFeature(), connection.vectorFeature());
        }
        long count = 0;
        Object[] row = new Object[types.length];
        while (rs.next()) {
            // read (and check) the whole row first: an error must never leave half a ROW token in the stream
            for (int i = 0; i < types.length; i++) {
                row[i] = value(rs, i + 1, cols.get(i).type);
                if (row[i] instanceof float[] && types[i].typeId() != TypeId.VECTOR) {
                    row[i] = VectorCodec.toJson((float[]) row[i]); // down-level client: the vector's JSON text
                }
            }
            TdsWriter w = r.token();
            w.writeByte(TokenType.ROW);
            for (int i = 0; i < types.length; i++) {
                ValueCodec.write(w, types[i], row[i]);
            }
            count++;
            if ((count & 0xFF) == 0) {
                r.flushFull();
                if (connection.attentionArrived()) {
                    throw new AttentionException();
                }
            }
        }
        return count;
    }

    /**
     * An integer column: H2 may compute it wider (SUM of int is BIGINT there) or fractional (AVG): SQL Server's
     * integer result truncates toward zero, and a value outside the declared type is 8115.
     */
    private static Object integer(ResultSet rs, int i, SqlType t) throws SQLException, SqlServerError {
        Object o = rs.getObject(i);
        if (o == null) {
            return null;
        }
        BigDecimal d;
        if (o instanceof Long || o instanceof Integer || o instanceof Short || o instanceof Byte) {
            d = BigDecimal.valueOf(((Number) o).longValue());
        } else if (o instanceof Number) {
            d = new BigDecimal(o.toString()).setScale(0, RoundingMode.DOWN);
        } else if (o instanceof Boolean) {
            d = ((Boolean) o) ? BigDecimal.ONE : BigDecimal.ZERO;
        } else {
            return rs.getLong(i);
        }
        long min;
        long max;
        switch (t.base()) {
            case TINYINT: min = 0; max = 255; break;
            case SMALLINT: min = Short.MIN_VALUE; max = Short.MAX_VALUE; break;
            case INT: min = Integer.MIN_VALUE; max = Integer.MAX_VALUE; break;
            default: min = Long.MIN_VALUE; max = Long.MAX_VALUE; break;
        }
        if (d.compareTo(BigDecimal.valueOf(min)) < 0 || d.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw ErrorCatalog.ARITHMETIC_OVERFLOW.error("Arithmetic overflow error converting expression to data type "
                    + t.name() + ".");
        }
        return d.longValue();
    }

    /** Reads column i as the Java value {@link ValueCodec#write} expects for the SQL Server type. */
    public static Object value(ResultSet rs, int i, SqlType t) throws SQLException, SqlServerError {
        Object v;
        switch (t.base()) {
            case BIT:
                v = rs.getBoolean(i);
                break;
            case TINYINT:
            case SMALLINT:
            case INT:
            case BIGINT:
                v = integer(rs, i, t);
                break;
            case REAL:
                v = rs.getFloat(i);
                break;
            case FLOAT:
                v = rs.getDouble(i);
                break;
            case DECIMAL:
            case NUMERIC: {
                BigDecimal d = rs.getBigDecimal(i);
                if (d != null) {
                    d = d.setScale(t.scale(), RoundingMode.HALF_UP);
                    if (d.precision() - d.scale() > t.precision() - t.scale() && d.signum() != 0) {
                        throw ErrorCatalog.ARITHMETIC_OVERFLOW.error(1,
                                "Arithmetic overflow error converting expression to data type "
                                + t.name() + ".");
                    }
                }
                v = d;
                break;
            }
            case MONEY:
            case SMALLMONEY: {
                BigDecimal d = rs.getBigDecimal(i);
                v = d == null ? null : d.setScale(4, RoundingMode.HALF_UP);
                if (v != null && (t.base() == SqlType.Base.MONEY
                        ? d.compareTo(MoneyCodec.MONEY_MIN) < 0 || d.compareTo(MoneyCodec.MONEY_MAX) > 0
                        : d.compareTo(MoneyCodec.SMALLMONEY_MIN) < 0 || d.compareTo(MoneyCodec.SMALLMONEY_MAX) > 0)) {
                    throw ErrorCatalog.ARITHMETIC_OVERFLOW.error(1,
                            "Arithmetic overflow error converting expression to data type "
                            + t.name() + ".");
                }
                break;
            }
            case DATE:
                v = rs.getObject(i, LocalDate.class);
                break;
            case TIME: {
                LocalTime lt = rs.getObject(i, LocalTime.class);
                v = lt == null ? null : TemporalCodec.roundToScale(lt, t.scale());
                break;
            }
            case DATETIME: {
                LocalDateTime dt = rs.getObject(i, LocalDateTime.class);
                v = dt == null ? null : TemporalCodec.roundToDateTime(dt);
                break;
            }
            case SMALLDATETIME: {
                LocalDateTime dt = rs.getObject(i, LocalDateTime.class);
                v = dt == null ? null : TemporalCodec.roundToSmallDateTime(dt);
                break;
            }
            case DATETIME2: {
                LocalDateTime dt = rs.getObject(i, LocalDateTime.class);
                v = dt == null ? null : TemporalCodec.roundToScale(dt, t.scale());
                break;
            }
            case DATETIMEOFFSET: {
                OffsetDateTime dt = rs.getObject(i, OffsetDateTime.class);
                v = dt == null ? null : TemporalCodec.roundToScale(dt, t.scale());
                break;
            }
            case CHAR:
            case VARCHAR:
            case NCHAR:
            case NVARCHAR:
            case TEXT:
            case NTEXT:
            case XML:
            case JSON:
                v = rs.getString(i);
                break;
            case VECTOR: {
                String stored = rs.getString(i);
                v = stored == null ? null : ModernValues.elements(stored);
                break;
            }
            case BINARY:
            case VARBINARY:
            case IMAGE:
                v = rs.getBytes(i);
                break;
            case UNIQUEIDENTIFIER:
                v = rs.getObject(i, UUID.class);
                break;
            default:
                throw new IllegalStateException(t.base().name());
        }
        return rs.wasNull() ? null : v;
    }
}
