package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.h2.H2Errors;
import io.deltafunnel.emulator.semantics.LockPlanner;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.wire.Response;
import io.deltafunnel.tds.DoneStatus;
import io.deltafunnel.tds.TdsReader;
import io.deltafunnel.tds.TokenType;

import java.sql.SQLException;

/** Transaction Manager requests (packet type 0x0E, MS-TDS 2.2.6.9): BEGIN, COMMIT and ROLLBACK. */
final class TransactionManagerHandler {
    static final int TM_GET_DTC_ADDRESS = 0;
    static final int TM_PROPAGATE_XACT = 1;
    static final int TM_BEGIN_XACT = 5;
    static final int TM_PROMOTE_XACT = 6;
    static final int TM_COMMIT_XACT = 7;
    static final int TM_ROLLBACK_XACT = 8;
    static final int TM_SAVE_XACT = 9;

    private final Session s;
    private final Response r;

    TransactionManagerHandler(Session s, Response r) {
        this.s = s;
        this.r = r;
    }

    /** The request's isolation level byte: 0 keeps the session's, 1..5 = READ UNCOMMITTED .. SNAPSHOT. */
    private void isolation(int level) {
        if (level >= LockPlanner.READ_UNCOMMITTED && level <= LockPlanner.SNAPSHOT) {
            s.isolationLevel(level);
        }
    }

    void handle(TdsReader reader) {
        int type = reader.readUnsignedShort();
        try {
            switch (type) {
                case TM_BEGIN_XACT:
                    isolation(reader.readUnsignedByte());
                    reader.readBVarchar(); // transaction name
                    s.beginTransaction(r);
                    break;
                case TM_COMMIT_XACT:
                case TM_ROLLBACK_XACT: {
                    reader.readBVarchar(); // name
                    int flags = reader.readUnsignedByte();
                    if (type == TM_COMMIT_XACT) {
                        s.commit(r);
                    } else {
                        s.rollback(r);
                    }
                    if ((flags & 0x01) != 0) { // fBeginXact: start a new transaction right away
                        isolation(reader.readUnsignedByte());
                        reader.readBVarchar();
                        s.beginTransaction(r);
                    }
                    break;
                }
                default:
                    throw SqlServerError.unsupported("transaction manager request type " + type);
            }
            r.done(TokenType.DONE, s.inTransaction() ? DoneStatus.INXACT : 0, DoneStatus.CMD_NONE, 0);
        } catch (SqlServerError e) {
            r.error(e);
            r.done(TokenType.DONE, DoneStatus.ERROR, DoneStatus.CMD_NONE, 0);
        } catch (SQLException e) {
            r.error(H2Errors.map(e, null, s.database));
            r.done(TokenType.DONE, DoneStatus.ERROR, DoneStatus.CMD_NONE, 0);
        }
    }
}
