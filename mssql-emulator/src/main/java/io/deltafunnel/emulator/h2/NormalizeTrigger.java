package io.deltafunnel.emulator.h2;

import io.deltafunnel.emulator.semantics.Catalog;
import io.deltafunnel.emulator.semantics.ColumnDef;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.ModernValues;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.SqlType;
import io.deltafunnel.emulator.semantics.TableDef;
import io.deltafunnel.tds.Collation;
import io.deltafunnel.tds.MoneyCodec;
import io.deltafunnel.tds.TemporalCodec;

import java.math.BigDecimal;
import java.nio.charset.Charset;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.List;
import org.h2.api.Trigger;

/**
 * BEFORE INSERT/UPDATE row trigger that gives SQL statements SQL Server's storage semantics for types H2 does
 * not have: tinyint range, money/smallmoney range, datetime (1/300 s) and smalldatetime (minute) rounding and
 * ranges, code page 1252 for char/varchar/text. The table is found through the trigger name's object id.
 */
public final class NormalizeTrigger implements Trigger {
    static final String NAME_PREFIX = "mssqlemu_norm_";
    private static final Charset CP1252 = Collation.SQL_LATIN1_GENERAL_CP1_CI_AS.charset();

    /** The trigger id of the H2 table's storage ({@link TableDef.Storage#id()}). */
    private int storageId;
    /** The catalog's storage generation when the fields below were loaded (reloaded after a SWITCH). */
    private volatile int generation = -1;
    private volatile SqlType[] types;
    private volatile String[] names;
    private volatile String tableName;

    /** Carries the SQL Server error out of H2 (found again by {@link H2Errors}). */
    static final class TriggerError extends SQLException {
        private static final long serialVersionUID = 1L;
        final transient SqlServerError error;

        TriggerError(SqlServerError error) {
            super(error.getMessage(), "22000", error.number());
            this.error = error;
        }
    }

    /** Named after the storage: the trigger belongs to the H2 table, whichever table's rows it holds. */
    static String triggerName(TableDef t) {
        return NAME_PREFIX + t.storage().id();
    }

    static boolean needed(TableDef t) {
        for (ColumnDef c : t.columns()) {
            if (relevant(c.type())) {
                return true;
            }
        }
        return false;
    }

    private static boolean relevant(SqlType t) {
        switch (t.base()) {
            case TINYINT: case MONEY: case SMALLMONEY: case DATETIME: case SMALLDATETIME:
            case CHAR: case VARCHAR: case TEXT: case JSON: case VECTOR:
                return true;
            default:
                return false;
        }
    }

    @Override
    public void init(Connection conn, String schemaName, String triggerName, String table, boolean before, int type)
            throws SQLException {
        storageId = Integer.parseInt(triggerName.substring(NAME_PREFIX.length()));
    }

    private void load(Connection conn) throws SQLException {
        Catalog cat = CatalogFunctions.catalogOf(conn);
        int gen = cat.storageGeneration();
        TableDef t = cat.tableByStorageId(storageId);
        if (t == null) {
            throw new SQLException("mssql-emulator: no catalog entry for the table stored with id " + storageId);
        }
        List<ColumnDef> cols = t.columns();
        SqlType[] ty = new SqlType[cols.size()];
        String[] nm = new String[cols.size()];
        for (int i = 0; i < ty.length; i++) {
            ty[i] = cols.get(i).type();
            nm[i] = cols.get(i).name();
        }
        names = nm;
        tableName = cat.database() + "." + t.schema() + "." + t.name();
        types = ty;
        generation = gen;
    }

    @Override
    public void fire(Connection conn, Object[] oldRow, Object[] newRow) throws SQLException {
        if (newRow == null) {
            return;
        }
        if (types == null || generation != CatalogFunctions.catalogOf(conn).storageGeneration()) {
            load(conn);
        }
        SqlType[] ty = types;
        for (int i = 0; i < ty.length && i < newRow.length; i++) {
            Object v = newRow[i];
            if (v == null) {
                continue;
            }
            switch (ty[i].base()) {
                case TINYINT: {
                    long x = ((Number) v).longValue();
                    if (x < 0 || x > 255) {
                        throw new TriggerError(ErrorCatalog.ARITHMETIC_OVERFLOW_FOR_TYPE.error(
                                "Arithmetic overflow error for data type tinyint, value = " + x + "."));
                    }
                    break;
                }
                case MONEY:
                case SMALLMONEY: {
                    BigDecimal d = (BigDecimal) v;
                    boolean money = ty[i].base() == SqlType.Base.MONEY;
                    if (d.compareTo(money ? MoneyCodec.MONEY_MIN : MoneyCodec.SMALLMONEY_MIN) < 0
                            || d.compareTo(money ? MoneyCodec.MONEY_MAX : MoneyCodec.SMALLMONEY_MAX) > 0) {
                        throw new TriggerError(ErrorCatalog.ARITHMETIC_OVERFLOW.error(
                                "Arithmetic overflow error converting expression to data type " + ty[i].name() + "."));
                    }
                    break;
                }
                case DATETIME:
                case SMALLDATETIME:
                    newRow[i] = roundDateTime(v, ty[i]);
                    break;
                case JSON:
                case VECTOR:
                    newRow[i] = modern(v, ty[i]);
                    break;
                case CHAR:
                case VARCHAR:
                case TEXT:
                    if (v instanceof String) {
                        newRow[i] = new String(((String) v).getBytes(CP1252), CP1252);
                    }
                    break;
                default:
                    break;
            }
        }
    }

    /** A json value checked (13609), a vector value checked and stored exactly (13670, 42204). */
    private static Object modern(Object v, SqlType t) throws SQLException {
        String text = v instanceof java.sql.Clob ? ((java.sql.Clob) v).getSubString(1,
                (int) ((java.sql.Clob) v).length()) : v.toString();
        try {
            return t.base() == SqlType.Base.JSON ? ModernValues.json(text) : ModernValues.vector(text, t.length());
        } catch (SqlServerError e) {
            throw new TriggerError(e);
        }
    }

    private Object roundDateTime(Object v, SqlType t) throws SQLException {
        LocalDateTime ldt = v instanceof Timestamp ? ((Timestamp) v).toLocalDateTime()
                : v instanceof LocalDateTime ? (LocalDateTime) v : null;
        if (ldt == null) {
            return v;
        }
        boolean small = t.base() == SqlType.Base.SMALLDATETIME;
        LocalDateTime r = small ? TemporalCodec.roundToSmallDateTime(ldt) : TemporalCodec.roundToDateTime(ldt);
        if (small ? r.isBefore(TemporalCodec.SMALLDATETIME_MIN) || r.isAfter(TemporalCodec.SMALLDATETIME_MAX)
                : r.isBefore(TemporalCodec.DATETIME_MIN) || r.isAfter(TemporalCodec.DATETIME_MAX)) {
            throw new TriggerError(ErrorCatalog.DATETIME_OUT_OF_RANGE.error(
                    "The conversion of a datetime2 data type to a "
                    + t.name() + " data type resulted in an out-of-range value."));
        }
        return v instanceof Timestamp ? Timestamp.valueOf(r) : r;
    }

    @Override
    public void close() {
        // nothing held
    }

    @Override
    public void remove() {
        // nothing held
    }
}
