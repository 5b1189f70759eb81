package io.deltafunnel.mssql.direct;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ArrowColumnTypes;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.SqlIdentifiers;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.BatchCheck;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.Rejection;
import io.deltafunnel.mssql.bind.ValueOutOfRangeException;
import io.deltafunnel.mssql.bind.TargetBinding;
import io.deltafunnel.mssql.bind.SqlType;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.mssql.channel.BulkBatch;
import io.deltafunnel.tds.Collation;
import io.deltafunnel.tds.DoneStatus;
import io.deltafunnel.tds.TdsMessageWriter;
import io.deltafunnel.tds.TokenType;
import io.deltafunnel.tds.TokenWriter;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Bulk-loads an Arrow batch over a {@link DirectTdsConnection}: {@code INSERT BULK} via SQL_BATCH, then one
 * BULK_LOAD message (COLMETADATA, one ROW token per row, DONE) written straight from the Arrow buffers by
 * {@link DirectEncoders}, without boxing values (documented slow paths: decimal rescales beyond 64 bits, JSON
 * columns).
 *
 * <p>Before anything is sent, every value is checked with the mssql-jdbc path's rules ({@link BulkBatch#validate},
 * {@link BatchCheck}, {@link TargetBinding}): a value that does not fit exactly raises {@link ValueOutOfRangeException}
 * naming column and row and carrying the {@link Rejection}, and nothing is sent. The writer reads the driver-neutral
 * {@link BulkBatch}; nothing of mssql-jdbc is involved. The wire type follows the target column, with one exception:
 * an nvarchar column whose batch is all ASCII goes as varchar in the column's collation ({@link #asciiAsVarchar}).
 * Temporal values always travel as native TDS types (never as text).
 *
 * <p>Encoded pairs (Arrow → target: wire type), i.e. every pair the producer accepts:
 * <ul>
 *   <li>Int8/16/32/64, UInt8/16/32, UInt64, Bool, Decimal128/256 (integral values) → tinyint, smallint, int,
 *       bigint: INTN(1/2/4/8)</li>
 *   <li>Bool and integers (0/1) → bit: BITN</li>
 *   <li>Float16/32/64 and integers → real: FLTN(4) (Float64 and integers only when exact); → float: FLTN(8)</li>
 *   <li>Decimal128, Decimal256, UInt64 and integers → decimal(p,s) / numeric(p,s): DECIMALN with the
 *       compact length of p (5/9/13/17), rescaled exactly to s</li>
 *   <li>Utf8, LargeUtf8, Utf8View, the {@code arrow.uuid} extension (as its 36-character text) and List/Struct/Map
 *       (as the producer's JSON) → nvarchar(n), nchar(n): NVARCHAR/NCHAR (a Utf8 batch of ASCII text into
 *       nvarchar(n) or nvarchar(max): BIGVARCHAR(n), BIGVARCHAR PLP); nvarchar(max), ntext: NVARCHAR PLP;
 *       varchar(n), char(n): BIGVARCHAR/BIGCHAR; varchar(max), text: BIGVARCHAR PLP; the char types carry the
 *       target column's collation ({@link TargetColumn#collationName()}, via tds-codec's Collation)</li>
 *   <li>Binary, LargeBinary, BinaryView, FixedSizeBinary → varbinary(n), binary(n): BIGVARBINARY/BIGBINARY;
 *       varbinary(max), image: BIGVARBINARY PLP</li>
 *   <li>{@code arrow.uuid} and UUID text (Utf8 etc.) → uniqueidentifier: GUID</li>
 *   <li>Date32, Date64 → date: DATEN; datetime2(n): DATETIME2N; datetime: DATETIMN(8); smalldatetime:
 *       DATETIMN(4)</li>
 *   <li>Time32(s, ms), Time64(us, ns) → time(n): TIMEN</li>
 *   <li>Timestamp (s, ms, us, ns) without zone → datetime2(n), datetime, smalldatetime, datetimeoffset(n) (as
 *       +00:00); with zone → datetimeoffset(n) (the zone's offset at that instant), datetime2(n) and datetime (UTC)</li>
 * </ul>
 * Any other pair raises {@link DirectUnsupportedColumnException} naming the column and the target type.
 *
 * <p>Used by the producer with {@code bulkEncoder=direct} (experimental), through {@link DirectSqlChannel}.
 */
public final class DirectBulkWriter {

    private final DirectTdsConnection connection;
    private boolean tableLock;
    private boolean keepNulls = true;
    private boolean checkConstraints;
    private Map<String, Collation> serverCollations = Map.of();
    private boolean fireTriggers;
    private boolean asciiAsVarchar = true;

    public DirectBulkWriter(DirectTdsConnection connection) {
        this.connection = connection;
    }

    /** Adds the TABLOCK hint (default off). */
    public DirectBulkWriter tableLock(boolean tableLock) {
        this.tableLock = tableLock;
        return this;
    }

    /**
     * The destination's character columns' collations as the server reports them (lower-case column name to
     * collation), used for char/varchar/nchar/nvarchar TYPE_INFO instead of deriving them from the catalog's names.
     */
    public DirectBulkWriter serverCollations(Map<String, Collation> collations) {
        this.serverCollations = Map.copyOf(collations);
        return this;
    }

    /** Adds the CHECK_CONSTRAINTS hint (default off, like SQL Server's bulk load). */
    public DirectBulkWriter checkConstraints(boolean checkConstraints) {
        this.checkConstraints = checkConstraints;
        return this;
    }

    /** Adds the FIRE_TRIGGERS hint (default off). */
    public DirectBulkWriter fireTriggers(boolean fireTriggers) {
        this.fireTriggers = fireTriggers;
        return this;
    }

    /**
     * Whether an nvarchar(n) or nvarchar(max) column from Utf8 whose every value in a batch is ASCII goes as varchar in
     * the column's collation, one byte per character, when that collation's code page is known (1252 or UTF-8; default
     * on). SQL Server converts the values into the column, so the stored text is the same; the writer sends half the
     * bytes and skips the widening. Off: always UTF-16, the wire type of the target. The producer's option of the same
     * name ({@code BulkLoadSettings#asciiAsVarchar}).
     */
    public DirectBulkWriter asciiAsVarchar(boolean asciiAsVarchar) {
        this.asciiAsVarchar = asciiAsVarchar;
        return this;
    }

    /** Adds the KEEP_NULLS hint (default on: a NULL stays NULL even where the column has a default). */
    public DirectBulkWriter keepNulls(boolean keepNulls) {
        this.keepNulls = keepNulls;
        return this;
    }

    /**
     * Writes every row of {@code root} into {@code table}.
     *
     * @param targets the target column for each Arrow field, in schema order (as read from the catalog)
     * @return the row count the server reported
     */
    public long write(TableName table, VectorSchemaRoot root, List<TargetColumn> targets) throws IOException {
        return write(table, root, targets, 0, root.getRowCount(), true);
    }

    /**
     * Writes every row of {@code batch} into {@code table} with its bound columns, in INSERT BULK rounds of
     * {@code roundRows} rows (0 = one round, as mssql-jdbc's batchSize). The batch is validated first unless it is
     * already ({@link BulkBatch#validated()}: {@code BulkLoadSession} validates every batch before the channel
     * gets it), so the values are never checked twice. The column encoders are built once for all rounds. The
     * batch's root stays the caller's.
     *
     * @return the row count the server reported, summed over the rounds
     * @throws ValueOutOfRangeException a value does not fit its target column (nothing was sent)
     */
    public long write(TableName table, BulkBatch batch, int roundRows) throws IOException {
        batch.validate(table);
        List<BoundColumn> bound = batch.columns();
        requireFeatures(table, bound);
        DirectEncoders.Encoder[] encoders = new DirectEncoders.Encoder[bound.size()];
        for (int i = 0; i < encoders.length; i++) {
            BoundColumn c = bound.get(i);
            encoders[i] = DirectEncoders.forColumn(c, batch.vector(i),
                    serverCollations.get(c.target().name().toLowerCase(Locale.ROOT)), asciiAsVarchar);
        }
        int rows = batch.rowCount();
        int round = roundRows > 0 ? roundRows : Math.max(rows, 1);
        long written = 0;
        for (int from = 0; from < rows; from += round) {
            written += write(table, bound, encoders, from, Math.min(rows, from + round), batch);
        }
        return written;
    }

    private long write(TableName table, VectorSchemaRoot root, List<TargetColumn> targets, int from, int to,
            boolean validate) throws IOException {
        List<Field> fields = root.getSchema().getFields();
        if (fields.size() != targets.size()) {
            throw new IllegalArgumentException(fields.size() + " Arrow fields but " + targets.size()
                    + " target columns");
        }
        List<BoundColumn> bound = new ArrayList<>(fields.size());
        DirectEncoders.Encoder[] encoders = new DirectEncoders.Encoder[fields.size()];
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            TargetColumn target = targets.get(i);
            ArrowColumnType type = ArrowColumnTypes.forField(f);
            TargetBinding binding;
            try {
                binding = TargetBinding.of(type.kind(), target, true);
                binding.checkSource(type);
            } catch (IllegalArgumentException e) {
                throw new DirectUnsupportedColumnException(f.getName(), e.getMessage());
            }
            BoundColumn column = new BoundColumn(i, f.getName(), type, target, binding);
            bound.add(column);
            encoders[i] = DirectEncoders.forColumn(column, root.getVector(i), null, asciiAsVarchar);
        }
        requireFeatures(table, bound);
        if (validate) {
            new BulkBatch(root, bound, 0).validate(table);
        }
        return write(table, bound, encoders, from, to);
    }

    /**
     * Refuses, before anything is sent, a json or vector target on a connection whose login did not negotiate the
     * feature (a server that does not announce it): the vector type cannot be sent at all, and a json column there
     * is not what the catalog says.
     */
    private void requireFeatures(TableName table, List<BoundColumn> bound) {
        for (BoundColumn c : bound) {
            SqlType type = c.target().type();
            if (type == SqlType.VECTOR && !connection.vectorSupported()
                    || type == SqlType.JSON && !connection.jsonSupported()) {
                throw new DirectUnsupportedColumnException(c.sourceName(), "target column " + c.target().name()
                        + " of " + table + " is " + c.target().typeText() + ", but the server did not acknowledge the "
                        + (type == SqlType.VECTOR ? "VECTORSUPPORT" : "JSONSUPPORT") + " feature at login (SQL"
                        + " Server 2025 or Azure SQL announce it); nothing was sent");
            }
        }
    }

    /**
     * The ROW tokens of rows {@code from} (inclusive) to {@code to}: row {@code i} is the root's row
     * {@code selection.row(i)}, or {@code i} without a selection. When every column is
     * {@linkplain DirectEncoders.Bounded bounded} (the usual case), a row goes straight into the packet buffer with
     * one check per row instead of one per field, also at a packet's end (the bytes past it are moved behind the next
     * packet's header, {@link TdsMessageWriter#commitSpilling}); value by value only when a row's most bytes exceed a
     * packet's payload, or some column is not bounded. Without a selection, when every column is one of the kinds
     * {@link ColumnTiles} takes, the rows go column by column, a tile of rows at a time, with the same bytes.
     */
    static void writeRows(TdsMessageWriter w, DirectEncoders.Encoder[] encoders, int from, int to,
            BulkBatch selection) throws IOException {
        int rowReserve = DirectEncoders.rowReserve(encoders);
        DirectEncoders.Bounded[] bounded = rowReserve < 0 ? null
                : Arrays.copyOf(encoders, encoders.length, DirectEncoders.Bounded[].class);
        int[] kinds = new int[encoders.length];
        for (int c = 0; bounded != null && c < kinds.length; c++) {
            kinds[c] = hotKind(bounded[c]);
        }
        if (bounded != null && selection == null && ColumnTiles.applies(bounded)) {
            ColumnTiles tiles = new ColumnTiles(bounded);
            int i = from;
            // rows written row by row after a row the tiles did not take: doubled while the next tile takes none
            // either (text that is mostly not ASCII), back to one once a tile takes rows
            int byRow = 1;
            while (i < to) {
                int written = tiles.write(w, i, to);
                if (written == 0) {
                    // a value the tiles do not take (non-ASCII text in a mostly non-ASCII batch, or no room for one
                    // whole row): row by row
                    int n = Math.min(byRow, to - i);
                    writeRowByRow(w, encoders, i, i + n, null, bounded, kinds, rowReserve);
                    i += n;
                    byRow = Math.min(2 * byRow, ColumnTiles.MAX_ROWS);
                } else {
                    i += written;
                    byRow = 1;
                }
            }
            return;
        }
        writeRowByRow(w, encoders, from, to, selection, bounded, kinds, rowReserve);
    }

    private static void writeRowByRow(TdsMessageWriter w, DirectEncoders.Encoder[] encoders, int from, int to,
            BulkBatch selection, DirectEncoders.Bounded[] bounded, int[] kinds, int rowReserve) throws IOException {
        for (int i = from; i < to; i++) {
            int r = selection == null ? i : selection.row(i);
            if (bounded != null && w.spillRoom() >= rowReserve) {
                byte[] b = w.buffer();
                int p = w.position();
                b[p++] = (byte) TokenType.ROW;
                for (int c = 0; c < kinds.length; c++) {
                    DirectEncoders.Bounded e = bounded[c];
                    // the common encoders by their own (final) class: a direct call instead of a virtual one
                    p = switch (kinds[c]) {
                        case TEXT -> ((Utf8Text) e).put(b, p, r);
                        case INTEGER -> ((NumericEncoders.RawInteger) e).put(b, p, r);
                        case DECIMAL -> ((NumericEncoders.RawDecimal128) e).put(b, p, r);
                        case DATE -> ((TemporalEncoders.DateDays) e).put(b, p, r);
                        default -> e.putValue(b, p, r);
                    };
                }
                w.commitSpilling(p);
                continue;
            }
            w.writeByte(TokenType.ROW);
            for (DirectEncoders.Encoder e : encoders) {
                e.value(w, r);
            }
        }
    }

    static final int OTHER = 0;
    static final int TEXT = 1;
    static final int INTEGER = 2;
    static final int DECIMAL = 3;
    static final int DATE = 4;

    /**
     * Which of the common encoder classes {@code e} is, when its column has no NULL in the batch (so that
     * {@link DirectEncoders.Bounded#put} is the whole value), else {@link #OTHER}.
     */
    static int hotKind(DirectEncoders.Bounded e) {
        if (e.mayBeNull) {
            return OTHER;
        }
        if (e instanceof Utf8Text) {
            return TEXT;
        }
        if (e instanceof NumericEncoders.RawInteger) {
            return INTEGER;
        }
        if (e instanceof NumericEncoders.RawDecimal128) {
            return DECIMAL;
        }
        return e instanceof TemporalEncoders.DateDays ? DATE : OTHER;
    }

    /**
     * The type {@code INSERT BULK} declares for {@code t}: as mssql-jdbc, varchar(max), nvarchar(max) and
     * varbinary(max) for text, ntext and image columns, matching the PLP TYPE_INFO {@link DirectEncoders} sends for
     * them (SQL Server refuses a stream whose TYPE_INFO differs from the declaration with 4816); the column's own type
     * otherwise.
     */
    static String declaredType(TargetColumn t) {
        return switch (t.type()) {
            case TEXT -> "varchar(max)";
            case NTEXT -> "nvarchar(max)";
            case IMAGE -> "varbinary(max)";
            // json: sent as nvarchar(max) text, as mssql-jdbc does (ModernEncoders)
            case JSON -> "nvarchar(max)";
            case TINYINT, SMALLINT, INT, BIGINT, BIT, DECIMAL, NUMERIC, REAL, FLOAT, CHAR, VARCHAR, NCHAR, NVARCHAR,
                    BINARY, VARBINARY, UNIQUEIDENTIFIER, DATE, TIME, DATETIME2, DATETIME, SMALLDATETIME,
                    DATETIMEOFFSET, VECTOR, UNSUPPORTED -> t.typeText();
        };
    }

    /** One INSERT BULK round of the root's rows {@code from} to {@code to} (no row selection). */
    long write(TableName table, List<BoundColumn> bound, DirectEncoders.Encoder[] encoders, int from, int to)
            throws IOException {
        return write(table, bound, encoders, from, to, null);
    }

    /**
     * One INSERT BULK round: the statement, then rows {@code from} (inclusive) to {@code to} of the encoders as one
     * BULK_LOAD message. Any exception while the message is written closes the connection (it is never reused).
     * With {@code selection}, row {@code r} is the root's row {@link BulkBatch#row}{@code (r)} (rejected rows left
     * out, nothing copied); null: the root's rows themselves.
     */
    long write(TableName table, List<BoundColumn> bound, DirectEncoders.Encoder[] encoders, int from, int to,
            BulkBatch selection) throws IOException {
        boolean direct = selection == null || selection.wholeRoot();
        List<TargetColumn> targets = bound.stream().map(BoundColumn::target).toList();
        StringBuilder sql = new StringBuilder("INSERT BULK ").append(table.quoted()).append(" (");
        for (int i = 0; i < targets.size(); i++) {
            TargetColumn t = targets.get(i);
            sql.append(i == 0 ? "" : ", ").append(SqlIdentifiers.quote(t.name())).append(' ');
            String declared = encoders[i].declaredType();
            if (declared != null) {
                // not the target's type (an ASCII nvarchar column as varchar): the encoder's, COLLATE included
                sql.append(declared);
                continue;
            }
            sql.append(declaredType(t));
            if (t.collationName() != null && t.type().codePageText()) {
                sql.append(" COLLATE ").append(t.collationName());
            }
        }
        sql.append(')');
        // The driver's hint order: CHECK_CONSTRAINTS, FIRE_TRIGGERS, KEEP_NULLS, TABLOCK.
        List<String> hints = new ArrayList<>();
        if (checkConstraints) {
            hints.add("CHECK_CONSTRAINTS");
        }
        if (fireTriggers) {
            hints.add("FIRE_TRIGGERS");
        }
        if (keepNulls) {
            hints.add("KEEP_NULLS");
        }
        if (tableLock) {
            hints.add("TABLOCK");
        }
        if (!hints.isEmpty()) {
            sql.append(" with (").append(String.join(", ", hints)).append(')');
        }
        connection.executeBatch(sql.toString());

        TdsMessageWriter w = connection.beginBulkLoad();
        try {
            w.writeByte(TokenType.COLMETADATA).writeShort(encoders.length);
            for (int i = 0; i < encoders.length; i++) {
                // UserType 0; flags: usUpdateable 2 ("unknown"), plus fNullable as the catalog says (as mssql-jdbc
                // copies them)
                w.writeInt(0).writeShort(TokenWriter.FLAG_UPDATEABLE_UNKNOWN
                        | (targets.get(i).nullable() ? TokenWriter.FLAG_NULLABLE : 0));
                encoders[i].typeInfo(w);
                String name = targets.get(i).name();
                w.writeByte(name.length()).writeChars(name);
            }
            writeRows(w, encoders, from, to, direct ? null : selection);
            // DONE: status DONE_FINAL, CurCmd 0, DoneRowCount 0 (MS-TDS 2.2.7.6)
            w.writeByte(TokenType.DONE).writeShort(DoneStatus.FINAL).writeShort(DoneStatus.CMD_NONE).writeLong(0);
            w.end();
        } catch (IOException | RuntimeException | Error e) {
            // The message broke off: the server may hold part of it (packets already flushed), so no request may
            // follow on this session (a ROLLBACK sent now would land inside the half-written BULK_LOAD). Closing
            // the connection ends the session; SQL Server rolls back its open transaction.
            connection.close();
            throw e;
        }
        return connection.readReply();
    }
}
