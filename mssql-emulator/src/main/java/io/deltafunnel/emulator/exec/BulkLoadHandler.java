package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.h2.H2Errors;
import io.deltafunnel.emulator.semantics.BulkChecks;
import io.deltafunnel.emulator.semantics.ColumnDef;
import io.deltafunnel.emulator.semantics.Constraints;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.ErrorScope;
import io.deltafunnel.emulator.semantics.LockManager;
import io.deltafunnel.emulator.semantics.TableIndexes;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.TableDef;
import io.deltafunnel.emulator.semantics.ValueConverter;
import io.deltafunnel.emulator.tsql.BulkInsertCommand;
import io.deltafunnel.emulator.tsql.Identifiers;
import io.deltafunnel.emulator.wire.BulkStreamTypes;
import io.deltafunnel.emulator.wire.Response;
import io.deltafunnel.emulator.wire.ResultSetWriter;
import io.deltafunnel.tds.DoneStatus;
import io.deltafunnel.tds.IgnoredMessageException;
import io.deltafunnel.tds.MessageInput;
import io.deltafunnel.tds.TdsProtocolException;
import io.deltafunnel.tds.TdsReader;
import io.deltafunnel.tds.TokenType;
import io.deltafunnel.tds.TypeId;
import io.deltafunnel.tds.TypeInfo;
import io.deltafunnel.tds.ValueCodec;

import java.io.IOException;
import java.net.SocketException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Decodes one BULK_LOAD message (COLMETADATA, ROW*, optional DONE) for the preceding INSERT BULK, checks the
 * COLMETADATA against the INSERT BULK column list and every value as SQL Server would, and inserts the rows into H2 in
 * JDBC batches. A failing round is rolled back entirely.
 */
final class BulkLoadHandler {
    private static final Logger LOG = Logger.getLogger(BulkLoadHandler.class.getName());
    private static final int JDBC_BATCH = 1000;

    private final Session s;
    private final Response r;
    private final BulkInsertCommand cmd;

    BulkLoadHandler(Session s, Response r, BulkInsertCommand cmd) {
        this.s = s;
        this.r = r;
        this.cmd = cmd;
    }

    /** One column of the bulk stream. */
    private static final class BulkColumn {
        final String name;
        final TypeInfo type;
        final ValueConverter converter;
        Object defaultValue;
        boolean hasDefault;

        BulkColumn(String name, TypeInfo type, ValueConverter converter) {
            this.name = name;
            this.type = type;
            this.converter = converter;
        }
    }

    void handle(MessageInput input) throws IOException {
        TdsReader rd = new TdsReader(input);
        RequestInterceptor.BulkLoadFault fault = s.interceptor.startBulkLoad();
        long rows = 0;
        Savepoint sp = null;
        List<BulkColumn> cols;
        boolean sink = s.emu.sinkMode();
        try {
            if (cmd == null) {
                throw ErrorCatalog.BULK_NOT_PREPARED.error("mssql-emulator: BULK_LOAD received without a preceding"
                        + " INSERT BULK statement.");
            }
            // TABLOCK into a heap without indexes: a bulk update (BU) lock, shared with other TABLOCK bulk loads;
            // TABLOCK into a table with any index (a key constraint or CREATE INDEX): X; without TABLOCK (row locks in SQL Server): IX, shared with other inserters.
            // Held to the end of the transaction.
            s.locks.forBulkLoad(cmd.table, !cmd.tablock ? LockManager.Mode.IX
                    : TableIndexes.of(s.catalog(), cmd.table).isEmpty() ? LockManager.Mode.BU
                    : LockManager.Mode.X);
            int first = rd.atEnd() ? -1 : rd.readUnsignedByte();
            if (first == -1 || first == TokenType.DONE) {
                throw prematureEnd(2, 16);
            }
            if (first != TokenType.COLMETADATA) {
                throw new TdsProtocolException("BULK_LOAD must start with COLMETADATA");
            }
            cols = readColumns(rd);
            if (!sink) {
                sp = s.h2.setSavepoint();
            }
            int[] orderKey = orderKey(cols);
            Object[] previousKey = null;
            // Without CHECK_CONSTRAINTS SQL Server checks neither CHECK nor FOREIGN KEY constraints.
            BulkChecks.set(!cmd.checkConstraints);
            try (PreparedStatement ins = sink ? null : s.h2.prepareStatement(insertSql(cols))) {
                int pending = 0;
                Object[] row = new Object[cols.size()];
                while (true) {
                    if (rd.atEnd()) {
                        break; // the last ROW may end the message: SQL Server does not require the DONE token
                    }
                    int token = rd.readUnsignedByte();
                    if (token == TokenType.DONE) {
                        rd.skip(12);
                        break;
                    }
                    if (fault != null && rows >= fault.afterRows()) {
                        trigger(fault);
                    }
                    if (token == TokenType.ROW) {
                        readRow(rd, cols, row, null);
                    } else if (token == TokenType.NBCROW) {
                        byte[] bitmap = rd.readBytes((cols.size() + 7) / 8);
                        readRow(rd, cols, row, bitmap);
                    } else {
                        throw new TdsProtocolException(String.format("unexpected token 0x%02X in BULK_LOAD", token));
                    }
                    rows++;
                    if (orderKey != null) {
                        previousKey = checkOrder(orderKey, row, previousKey);
                    }
                    if (ins != null) {
                        for (int i = 0; i < row.length; i++) {
                            ins.setObject(i + 1, row[i]);
                        }
                        ins.addBatch();
                        if (++pending == JDBC_BATCH) {
                            ins.executeBatch();
                            pending = 0;
                        }
                    }
                }
                if (!rd.atEnd()) {
                    throw new TdsProtocolException("bytes after the DONE token of a BULK_LOAD");
                }
                if (fault != null && !fault.stall()) {
                    trigger(fault);
                }
                if (ins != null && pending > 0) {
                    ins.executeBatch();
                }
            } finally {
                BulkChecks.set(false);
            }
            if (sp != null) {
                for (BulkColumn c : cols) {
                    if (c.converter.column().identity()) {
                        s.identityInserted(cmd.table);
                    }
                }
                if (!cmd.checkConstraints) {
                    markNotTrusted();
                }
                s.statementSucceeded(null);
            } else {
                s.statementLocksEnd();
            }
            s.emu.addBulkRowsDecoded(rows);
            s.rowsWritten(rows);
            if (fault != null && fault.stall()) {
                s.interceptor.stallReply(fault, String.valueOf(cmd.table.name()),
                        s.connection == null ? 0 : s.connection.spid());
            }
            int status = DoneStatus.COUNT | (s.inTransaction() ? DoneStatus.INXACT : 0);
            r.done(TokenType.DONE, status, DoneStatus.CMD_BULKINSERT, rows);
        } catch (SqlServerError e) {
            fail(input, sp, rows, e);
        } catch (SQLException e) {
            fail(input, sp, rows, H2Errors.map(e, cmd == null ? null : cmd.table, s.catalog(), s.database, "INSERT"));
        } catch (RuntimeException | IOException e) {
            // abandoned message (ignore bit), protocol violation or dropped socket: nothing of the round stays
            if (e instanceof IOException && !sink) {
                if (s.inTransaction()) {
                    s.rowsWritten(rows); // undone by the session's rollback, which holds the locks meanwhile
                } else {
                    // a lost client's auto-commit round: its rollback holds the round's locks (BU) too
                    s.emu.disconnectRollback(s.connection == null ? 0 : s.connection.spid(), rows);
                }
            }
            rollbackRound(sp);
            throw e;
        }
    }

    private void fail(MessageInput input, Savepoint sp, long rows, SqlServerError e) throws IOException {
        if (s.inTransaction() && ErrorScope.of(e, s.xactAbort).rollsBackTransaction()) {
            // the deadlock victim's transaction is rolled back, as in SQL Server; so is any under XACT_ABORT ON
            try {
                s.rollbackAll(r);
            } catch (SQLException x) {
                LOG.log(Level.WARNING, "rolling back a deadlock victim's transaction", x);
            }
        } else {
            rollbackRound(sp);
        }
        s.emu.addBulkRowsDecoded(rows);
        input.drain();
        r.error(e);
        r.done(TokenType.DONE, DoneStatus.ERROR | (s.inTransaction() ? DoneStatus.INXACT : 0), 0, 0);
    }

    private void rollbackRound(Savepoint sp) {
        try {
            if (!s.inTransaction()) {
                s.h2.rollback();
            } else if (sp != null) {
                s.h2.rollback(sp);
            }
        } catch (SQLException e) {
            LOG.log(Level.WARNING, "rolling back a failed bulk round", e);
        } finally {
            s.statementLocksEnd();
        }
    }

    private void trigger(RequestInterceptor.BulkLoadFault fault) throws SqlServerError, IOException {
        if (fault.dropConnection()) {
            s.connection.abort();
            throw new SocketException("mssql-emulator dropped the connection (fault injection)");
        }
        String msg = fault.errorNumber() == 1205
                ? "Transaction (Process ID " + s.connection.spid() + ") was deadlocked on lock resources with another"
                        + " process and has been chosen as the deadlock victim. Rerun the transaction."
                : "mssql-emulator injected bulk load failure (error " + fault.errorNumber() + ")";
        throw ErrorCatalog.injected(fault.errorNumber(), fault.errorNumber() == 1205 ? 13 : 16, msg);
    }

    /**
     * Reads COLMETADATA and compares it with the INSERT BULK column list, as SQL Server does: the column count must
     * match (4804), and each column's TYPE_INFO must be the declared type's (4816: type id, length, precision,
     * scale, PLP-ness). The values go to the declared columns in order.
     */
    private List<BulkColumn> readColumns(TdsReader rd) throws SqlServerError, SQLException {
        int count = rd.readUnsignedShort();
        if (count == 0xFFFF) {
            throw new TdsProtocolException("BULK_LOAD COLMETADATA without columns");
        }
        TableDef table = cmd.table;
        String tableName = table.messageName(s.database);
        List<BulkColumn> cols = new ArrayList<>(count);
        List<TypeInfo> wire = new ArrayList<>(count);
        List<String> names = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            rd.readInt(); // UserType
            rd.readUnsignedShort(); // Flags
            TypeInfo t = TypeInfo.read(rd);
            if (t.typeId() == TypeId.TEXT || t.typeId() == TypeId.NTEXT || t.typeId() == TypeId.IMAGE) {
                int parts = rd.readUnsignedByte();
                for (int p = 0; p < parts; p++) {
                    rd.readUsVarchar();
                }
            }
            wire.add(t);
            names.add(rd.readBVarchar());
        }
        if (count != cmd.columns.size()) {
            throw prematureEnd(3, 16);
        }
        for (int i = 0; i < count; i++) {
            String declaredName = cmd.columns.get(i);
            if (!names.get(i).equalsIgnoreCase(declaredName)) {
                throw SqlServerError.unsupported("BULK_LOAD COLMETADATA column " + (i + 1) + " named '"
                        + names.get(i) + "' where INSERT BULK declared '" + declaredName + "'");
            }
            TypeInfo t = wire.get(i);
            // the json and vector types exist on the wire only for a client that negotiated their feature
            boolean featureMissing = t.typeId() == TypeId.VECTOR && !s.connection.vectorFeature()
                    || t.typeId() == TypeId.JSON && !s.connection.jsonFeature();
            if (featureMissing || !BulkStreamTypes.matches(cmd.types.get(i), t)) {
                LOG.log(Level.FINE, "bulk column {0}: INSERT BULK declared {1}, COLMETADATA sent {2}",
                        new Object[] {i + 1, cmd.types.get(i), t});
                throw ErrorCatalog.BULK_INVALID_COLUMN_TYPE.error(
                        "Invalid column type from bcp client for colid " + (i + 1)
                        + ".");
            }
            ColumnDef target = table.column(declaredName);
            cols.add(new BulkColumn(target.name(), t, new ValueConverter(target, tableName, t)));
        }
        if (!cmd.keepNulls) {
            loadDefaults(cols);
        }
        return cols;
    }

    /** 4804: the stream ended (or held fewer/more columns) where SQL Server expected more data. */
    private static SqlServerError prematureEnd(int state, int severity) {
        return ErrorCatalog.BULK_PREMATURE_END.error(state, severity, "While reading current row from host, a premature"
                + " end-of-message was encountered--an incoming data stream was interrupted when the server expected"
                + " to see more data. The host program may have terminated. Ensure that you are using a supported"
                + " client application programming interface (API).");
    }

    /** Without KEEP_NULLS a NULL sent for a column with a DEFAULT gets the default. */
    private void loadDefaults(List<BulkColumn> cols) throws SQLException, SqlServerError {
        for (BulkColumn c : cols) {
            String expr = c.converter.column().defaultH2();
            if (expr == null) {
                continue;
            }
            try (PreparedStatement ps = s.h2.prepareStatement("SELECT " + expr); ResultSet rs = ps.executeQuery()) {
                rs.next();
                Object v = ResultSetWriter.value(rs, 1, c.converter.column().type());
                c.defaultValue = v == null ? null : c.converter.convert(v);
                c.hasDefault = true;
            }
        }
    }

    private void readRow(TdsReader rd, List<BulkColumn> cols, Object[] row, byte[] nullBitmap)
            throws SqlServerError {
        for (int i = 0; i < row.length; i++) {
            BulkColumn c = cols.get(i);
            Object v;
            try {
                v = nullBitmap != null && (nullBitmap[i >> 3] & (1 << (i & 7))) != 0 ? null
                        : ValueCodec.read(rd, c.type);
            } catch (IgnoredMessageException e) {
                throw e;
            } catch (TdsProtocolException e) {
                if (rd.atEnd()) {
                    // the message ended inside a row
                    throw prematureEnd(1, 17);
                }
                // e.g. a value longer than its declared length: SQL Server rejects the bcp stream
                throw ErrorCatalog.BULK_INVALID_COLUMN_LENGTH.error(
                        "Received an invalid column length from the bcp client for"
                        + " colid " + (i + 1) + ". (" + e.getMessage() + ")");
            }
            if (v == null) {
                if (c.hasDefault) {
                    v = c.defaultValue;
                }
                if (v == null && !c.converter.column().nullable()) {
                    throw ErrorCatalog.NULL_NOT_ALLOWED.error("Cannot insert the value NULL into column '"
                            + c.name + "', table '" + cmd.table.messageName(s.database)
                            + "'; column does not allow nulls. INSERT fails.");
                }
                row[i] = v;
            } else {
                row[i] = c.converter.convert(v);
            }
        }
    }

    /** CHECK and FOREIGN KEY constraints of the table that this load did not check are no longer trusted. */
    private void markNotTrusted() {
        for (Constraints.Check c : s.catalog().checks(cmd.table.objectId())) {
            c.notTrusted = true;
        }
        for (Constraints.ForeignKey fk : s.catalog().foreignKeys(cmd.table.objectId(), true)) {
            fk.notTrusted = true;
        }
    }

    /**
     * ORDER(...) that names the clustered index (the emulator's primary key, ascending): positions of its columns in
     * the stream, so that the rows are verified to arrive in that order. Any other ORDER hint is only an optimizer
     * hint for SQL Server, and so it is for the emulator: null.
     */
    private int[] orderKey(List<BulkColumn> cols) {
        List<String> pk = cmd.table.primaryKey();
        if (cmd.orderColumns.isEmpty() || pk.size() != cmd.orderColumns.size()
                || cmd.orderDescending.contains(Boolean.TRUE)) {
            return null;
        }
        int[] pos = new int[pk.size()];
        for (int k = 0; k < pk.size(); k++) {
            if (!pk.get(k).equalsIgnoreCase(cmd.orderColumns.get(k))) {
                return null;
            }
            pos[k] = -1;
            for (int i = 0; i < cols.size(); i++) {
                if (cols.get(i).name.equalsIgnoreCase(pk.get(k))) {
                    pos[k] = i;
                }
            }
            if (pos[k] < 0) {
                return null;
            }
        }
        return pos;
    }

    /** 4819 when this row's key does not sort strictly after the previous row's; returns this row's key. */
    private Object[] checkOrder(int[] pos, Object[] row, Object[] previous) throws SqlServerError {
        Object[] key = new Object[pos.length];
        for (int k = 0; k < pos.length; k++) {
            key[k] = row[pos[k]];
        }
        if (previous != null && compareKeys(previous, key) >= 0) {
            throw ErrorCatalog.BULK_NOT_SORTED.error(
                    "Cannot bulk load. The bulk data stream was incorrectly specified as"
                    + " sorted or the data violates a uniqueness constraint imposed by the target table. Sort order"
                    + " incorrect for the following two rows: primary key of first row: (" + keyText(previous)
                    + "), primary key of second row: (" + keyText(key) + ").");
        }
        return key;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareKeys(Object[] a, Object[] b) {
        for (int k = 0; k < a.length; k++) {
            Object x = a[k];
            Object y = b[k];
            int c;
            if (x == null || y == null) {
                c = x == null ? (y == null ? 0 : -1) : 1;
            } else if (x instanceof String && y instanceof String) {
                c = ((String) x).compareToIgnoreCase((String) y);
            } else if (x instanceof byte[] && y instanceof byte[]) {
                c = java.util.Arrays.compareUnsigned((byte[]) x, (byte[]) y);
            } else if (x instanceof Comparable && x.getClass() == y.getClass()) {
                c = ((Comparable) x).compareTo(y);
            } else {
                c = 0;
            }
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static String keyText(Object[] key) {
        StringBuilder b = new StringBuilder();
        for (Object o : key) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(o);
        }
        return b.toString();
    }

    private String insertSql(List<BulkColumn> cols) {
        StringBuilder names = new StringBuilder();
        StringBuilder marks = new StringBuilder();
        for (BulkColumn c : cols) {
            if (names.length() > 0) {
                names.append(", ");
                marks.append(", ");
            }
            names.append(Identifiers.h2Quote(c.name));
            marks.append('?');
        }
        return "INSERT INTO " + cmd.table.h2Name() + " (" + names + ") VALUES (" + marks + ")";
    }
}
