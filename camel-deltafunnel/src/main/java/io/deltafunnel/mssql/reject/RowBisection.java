package io.deltafunnel.mssql.reject;

import java.sql.SQLException;

import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.SqlServerErrors;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.channel.BulkBatch;
import io.deltafunnel.mssql.channel.SqlChannel;

/**
 * Writes a batch so that rows SQL Server refuses for their data are found and set aside, and the others load: the
 * batch is bulk-written under a savepoint; when SQL Server refuses it with a
 * {@linkplain SqlServerErrors#isRowDataError row-data error} (2627, 2601, 547, 8115, 2628, 515: the statement ends,
 * the transaction stays), the savepoint takes the statement's rows back ({@code ROLLBACK TRAN name}) and each half
 * is written the same way, down to single rows, which are set aside. For k bad rows in n that is about
 * 2·k·log2(n) extra bulk statements; a batch without a bad row costs one {@code SELECT @@TRANCOUNT} and one
 * {@code SAVE TRAN} more.
 *
 * <p>Everything runs in the run's transaction, on its channel. Any other failure (transient, connection,
 * permission, a value the client refused) is thrown as it is, for the run's usual failure and retry handling.
 * Without a transaction open yet (the batch would start it), no savepoint can be set ({@code SAVE TRAN} outside a
 * transaction is error 628): then the refused statement is undone by rolling back the transaction it started,
 * which holds nothing else.
 */
public final class RowBisection {

    /** The savepoint's name (a savepoint of the same name set later hides an earlier one until rolled back). */
    static final String SAVEPOINT = "deltafunnel_rows";

    /** Told each row of the batch's root that SQL Server refused alone. */
    @FunctionalInterface
    public interface Refused {
        void row(int rootRow, SQLException cause);
    }

    private final SqlChannel channel;
    private final TableName destination;
    private final BulkLoadSettings settings;
    private final Refused refused;
    private boolean inTransaction;

    private RowBisection(SqlChannel channel, TableName destination, BulkLoadSettings settings, Refused refused) {
        this.channel = channel;
        this.destination = destination;
        this.settings = settings;
        this.refused = refused;
    }

    /**
     * Writes {@code batch} (validated, or a selection of checked rows) into {@code destination}, setting aside the
     * rows SQL Server refuses for their data.
     *
     * @return the rows written
     */
    public static int write(SqlChannel channel, TableName destination, BulkBatch batch, BulkLoadSettings settings,
            Refused refused) throws SQLException {
        RowBisection b = new RowBisection(channel, destination, settings, refused);
        b.inTransaction = ((Number) channel.query("SELECT @@TRANCOUNT").get(0)[0]).intValue() > 0;
        return b.part(batch);
    }

    private int part(BulkBatch part) throws SQLException {
        int rows = part.rowCount();
        if (rows == 0) {
            return 0;
        }
        boolean saved = inTransaction;
        if (saved) {
            channel.execute("SAVE TRAN " + SAVEPOINT);
        }
        try {
            channel.bulkWrite(destination, part, settings);
            inTransaction = true;
            return rows;
        } catch (SQLException e) {
            if (channel.isClosed() || !SqlServerErrors.isRowDataError(e)) {
                throw e;
            }
            try {
                channel.execute(saved ? "ROLLBACK TRAN " + SAVEPOINT : "IF @@TRANCOUNT > 0 ROLLBACK TRAN");
            } catch (SQLException undo) {
                undo.addSuppressed(e);
                throw undo;
            }
            if (rows == 1) {
                refused.row(part.row(0), e);
                return 0;
            }
            int mid = rows / 2;
            return part(part.slice(0, mid)) + part(part.slice(mid, rows));
        }
    }
}
