package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.MssqlEmulator;
import io.deltafunnel.emulator.semantics.AttentionException;
import io.deltafunnel.emulator.semantics.Catalog;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.ErrorScope;
import io.deltafunnel.emulator.semantics.IdentityReseeder;
import io.deltafunnel.emulator.semantics.LockPlanner;
import io.deltafunnel.emulator.semantics.SessionView;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.TableDef;
import io.deltafunnel.emulator.tsql.BulkInsertCommand;
import io.deltafunnel.emulator.wire.AllHeaders;
import io.deltafunnel.emulator.wire.ConnectionHandler;
import io.deltafunnel.emulator.wire.Response;
import io.deltafunnel.tds.EnvChangeType;
import io.deltafunnel.tds.MessageInput;
import io.deltafunnel.tds.PacketType;
import io.deltafunnel.tds.TdsProtocolException;
import io.deltafunnel.tds.TdsReader;
import io.deltafunnel.tds.TokenWriter;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.HashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * State of one logged-in session: its H2 connection (never auto-commit), the transaction nesting, SET options,
 * prepared statement handles and a pending INSERT BULK.
 */
public final class Session implements SessionView {
    private static final Logger LOG = Logger.getLogger(Session.class.getName());
    private static final AtomicLong DESCRIPTORS = new AtomicLong(1);

    public final MssqlEmulator emu;
    public final ConnectionHandler connection;
    public final String database;
    final Connection h2;
    private int tranCount;
    private long descriptor;
    boolean implicitTransactions;
    boolean nocount;
    boolean xactAbort;
    public long lastRowCount;
    /** Rows written by the open transaction (what a rollback has to undo; see disconnect in {@link #close()}). */
    private long transactionRows;
    /** sp_prepare/sp_prepexec handles of this session. */
    final PreparedHandles prepared = new PreparedHandles();
    BulkInsertCommand pendingBulk;
    /** Object id of the table with SET IDENTITY_INSERT ON in this session, 0 if none (one table at a time). */
    public int identityInsertTable;
    /** Undo actions for DDL run (auto-committed) inside the open transaction. */
    final DdlUndoLog ddlUndo = new DdlUndoLog();
    /** SAVE TRAN savepoints and the outermost transaction's name. */
    final Savepoints savepoints = new Savepoints();
    private final IdentityReseeder reseeder = new IdentityReseeder();
    /** This session's table and application locks; released at transaction end and on disconnect. */
    public final SessionLocks locks;
    /** Asked before every SQL batch and BULK_LOAD (the emulator's fault injection). */
    final RequestInterceptor interceptor;
    /** SET TRANSACTION ISOLATION LEVEL (default READ COMMITTED, read-committed snapshot off). */
    private int isolationLevel = LockPlanner.READ_COMMITTED;

    public Session(MssqlEmulator emu, ConnectionHandler connection, String database) throws SQLException {
        this.emu = emu;
        this.connection = connection;
        this.database = database;
        this.h2 = emu.database().openSession();
        this.locks = new SessionLocks(emu.locks(), connection);
        this.interceptor = emu.faults();
    }

    @Override
    public int identityInsertTable() {
        return identityInsertTable;
    }

    @Override
    public boolean readCommittedSnapshot() {
        return emu.readCommittedSnapshot();
    }

    @Override
    public int isolationLevel() {
        return isolationLevel;
    }

    public void isolationLevel(int level) {
        this.isolationLevel = level;
    }

    // ---- locks ------------------------------------------------------------------------------------------------

    /** A statement ended: its statement-duration locks go; outside a transaction every lock goes. */
    void statementLocksEnd() {
        locks.statementEnded(tranCount > 0);
    }

    @Override
    public Catalog catalog() {
        return emu.catalog();
    }

    /** A statement or bulk round of the open transaction wrote {@code rows} rows. */
    void rowsWritten(long rows) {
        if (tranCount > 0 && rows > 0) {
            transactionRows += rows;
        }
    }

    public int tranCount() {
        return tranCount;
    }

    public boolean inTransaction() {
        return tranCount > 0;
    }

    // ---- request dispatch -----------------------------------------------------------------------------------

    public void handle(int type, byte[] msg, Response r) throws IOException {
        TdsReader reader = new TdsReader(msg);
        try {
            long sent = AllHeaders.readTransactionDescriptor(reader);
            if (sent != descriptor) {
                // The request names another transaction than the session's (a stale or missing descriptor): refused
                // rather than run outside or inside the wrong transaction. The error number is the emulator's choice.
                r.error(ErrorCatalog.TRANSACTION_IN_USE.error(
                        "Transaction context in use by another session (the request's"
                        + " transaction descriptor " + sent + " is not the session's " + descriptor + ")."));
                r.finish(0);
                return;
            }
            switch (type) {
                case PacketType.SQL_BATCH: {
                    String sql = reader.readUnicode(reader.available() / 2);
                    new BatchExecutor(this, r, new java.util.HashMap<>(), false).executeBatch(sql); // DECLAREs fill it
                    break;
                }
                case PacketType.RPC:
                    new RpcHandler(this, r).handle(reader);
                    break;
                case PacketType.TRANSACTION_MANAGER:
                    new TransactionManagerHandler(this, r).handle(reader);
                    break;
                default:
                    throw new TdsProtocolException("unexpected request type " + type);
            }
        } catch (AttentionException e) {
            r.finishAttention();
            return;
        }
        r.finish(0);
    }

    public void handleBulkLoad(MessageInput input, Response r) throws IOException {
        BulkInsertCommand cmd = pendingBulk;
        pendingBulk = null;
        java.io.ByteArrayOutputStream tap = emu.capturingBulkLoads() ? new java.io.ByteArrayOutputStream() : null;
        if (tap != null) {
            input.tap(tap);
        }
        try {
            new BulkLoadHandler(this, r, cmd).handle(input);
        } finally {
            if (tap != null) {
                emu.bulkLoadCaptured(cmd == null ? null : cmd.table.name(), tap.toByteArray());
            }
        }
        r.finish(0);
    }

    /** The client abandoned a BULK_LOAD (ignore bit): nothing of it is kept. */
    public void abandonBulkLoad() {
        pendingBulk = null;
    }

    /** The RESETCONNECTION status bit: roll back, forget options and handles. */
    public void resetConnection() {
        try {
            h2.rollback();
        } catch (SQLException e) {
            LOG.log(Level.FINE, "rollback on connection reset", e);
        }
        ddlUndo.undoAll();
        savepoints.clear();
        locks.releaseSession(); // session-owned application locks too
        transactionRows = 0;
        tranCount = 0;
        descriptor = 0;
        implicitTransactions = false;
        isolationLevel = LockPlanner.READ_COMMITTED;
        locks.reset();
        nocount = false;
        identityInsertTable = 0;
        xactAbort = false;
        prepared.clear();
        pendingBulk = null;
    }

    // ---- transactions -----------------------------------------------------------------------------------------

    private static byte[] descriptorBytes(long d) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(d).array();
    }

    void beginTransaction(Response r) {
        tranCount++;
        if (tranCount == 1) {
            descriptor = DESCRIPTORS.getAndIncrement();
            TokenWriter.envChangeBytes(r.token(), EnvChangeType.BEGIN_TRANSACTION, descriptorBytes(descriptor),
                    new byte[0]);
        }
    }

    /** Starts an implicit transaction when SET IMPLICIT_TRANSACTIONS ON and none is open. */
    void beginImplicitIfNeeded(Response r) {
        if (implicitTransactions && tranCount == 0) {
            beginTransaction(r);
        }
    }

    void commit(Response r) throws SqlServerError, SQLException {
        if (tranCount == 0) {
            throw ErrorCatalog.COMMIT_WITHOUT_BEGIN.error(
                    "The COMMIT TRANSACTION request has no corresponding BEGIN TRANSACTION.");
        }
        tranCount--;
        if (tranCount == 0) {
            h2.commit();
            transactionRows = 0;
            ddlUndo.forget();
            savepoints.clear();
            try {
                reseeder.reseed(h2, catalog());
            } finally {
                locks.releaseAll();
            }
            TokenWriter.envChangeBytes(r.token(), EnvChangeType.COMMIT_TRANSACTION, new byte[0],
                    descriptorBytes(descriptor));
            descriptor = 0;
        }
    }

    void rollback(Response r) throws SqlServerError, SQLException {
        if (tranCount == 0) {
            throw ErrorCatalog.ROLLBACK_WITHOUT_BEGIN.error(
                    "The ROLLBACK TRANSACTION request has no corresponding BEGIN TRANSACTION.");
        }
        rollbackAll(r);
    }

    /** Rolls back the whole transaction (also after a fatal error). */
    void rollbackAll(Response r) throws SQLException {
        transactionRows = 0;
        try {
            h2.rollback();
            reseeder.clear();
            ddlUndo.undoAll();
            savepoints.clear();
        } finally {
            locks.releaseAll();
        }
        if (tranCount > 0) {
            tranCount = 0;
            if (r != null) {
                TokenWriter.envChangeBytes(r.token(), EnvChangeType.ROLLBACK_TRANSACTION, new byte[0],
                        descriptorBytes(descriptor));
            }
            descriptor = 0;
        }
    }

    /** Statement boundary helpers: statement-level atomicity inside a transaction, auto-commit outside. */
    Savepoint statementStart() throws SQLException {
        return tranCount > 0 ? h2.setSavepoint() : null;
    }

    /** Explicit values were written to the table's identity column. */
    void identityInserted(TableDef t) {
        reseeder.mark(t);
    }

    void statementSucceeded(Savepoint sp) throws SQLException {
        try {
            if (tranCount == 0) {
                h2.commit();
                reseeder.reseed(h2, catalog());
            } else if (sp != null) {
                h2.releaseSavepoint(sp);
            }
        } finally {
            statementLocksEnd();
        }
    }

    void statementFailed(Savepoint sp, Response r) throws SQLException {
        statementFailed(sp, r, null);
    }

    /**
     * A statement failed with {@code error} (may be null: a cancelled or broken request): its work is undone. Whether
     * the whole transaction goes too is {@link ErrorScope}'s rule for the error number and XACT_ABORT; without a
     * number only XACT_ABORT ON rolls it back.
     */
    void statementFailed(Savepoint sp, Response r, SqlServerError error) throws SQLException {
        try {
            if (tranCount == 0) {
                h2.rollback();
                reseeder.clear();
            } else if (error == null ? xactAbort : ErrorScope.of(error, xactAbort).rollsBackTransaction()) {
                rollbackAll(r);
            } else if (sp != null) {
                h2.rollback(sp);
            }
        } finally {
            statementLocksEnd();
        }
    }

    /**
     * Connection ended (cleanly or not): uncommitted work is rolled back. With a transaction open, the rollback
     * takes the time {@link MssqlEmulator#disconnectRollback} models, and every lock of the session stays held
     * until it has finished, as in SQL Server.
     */
    public void close() {
        if (tranCount > 0) {
            emu.disconnectRollback(connection == null ? 0 : connection.spid(), transactionRows);
        }
        try {
            h2.rollback();
        } catch (SQLException e) {
            LOG.log(Level.FINE, "rollback on disconnect", e);
        }
        ddlUndo.undoAll();
        locks.releaseSession(); // session-owned application locks too
        try {
            h2.close();
        } catch (SQLException e) {
            LOG.log(Level.FINE, "closing H2 session", e);
        }
    }
}
