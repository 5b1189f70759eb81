package io.deltafunnel.emulator.wire;

import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.tds.DoneStatus;
import io.deltafunnel.tds.MessageOutput;
import io.deltafunnel.tds.TdsWriter;
import io.deltafunnel.tds.TokenType;
import io.deltafunnel.tds.TokenWriter;

import java.io.IOException;

/**
 * The token stream answering one request. DONE tokens are held back until the next token so that every DONE but
 * the last carries DONE_MORE, as the client expects.
 */
public final class Response {
    public static final String SERVER_NAME = "mssql-emulator";

    private final MessageOutput out;
    private int pendingToken = -1;
    private int pendingStatus;
    private int pendingCmd;
    private long pendingCount;
    private boolean errorSeen;

    Response(MessageOutput out) {
        this.out = out;
    }

    /** Buffer to append a token to; flushes a held-back DONE first (with DONE_MORE). */
    public TdsWriter token() {
        if (pendingToken >= 0) {
            TokenWriter.done(out.buffer(), pendingToken, pendingStatus | DoneStatus.MORE, pendingCmd, pendingCount);
            pendingToken = -1;
        }
        return out.buffer();
    }

    /** Lets full packets go out; call between rows. */
    void flushFull() throws IOException {
        out.flushFull();
    }

    public void done(int token, int status, int curCmd, long rowCount) {
        token();
        pendingToken = token;
        pendingStatus = status;
        pendingCmd = curCmd;
        pendingCount = rowCount;
    }

    public void error(SqlServerError e) {
        errorSeen = true;
        TokenWriter.message(token(), TokenType.ERROR, e.number(), e.state(), e.severity(), e.getMessage(),
                SERVER_NAME, "", 1);
    }

    public void info(int number, String message) {
        TokenWriter.message(token(), TokenType.INFO, number, 1, 0, message, SERVER_NAME, "", 1);
    }

    boolean errorSeen() {
        return errorSeen;
    }

    boolean hasPendingDone() {
        return pendingToken >= 0;
    }

    /**
     * Ends a request cancelled by ATTENTION: the response so far closed by DONE(ERROR), then a separate message
     * holding the attention acknowledgement DONE(ATTN), as SQL Server does.
     */
    public void finishAttention() throws IOException {
        token();
        TokenWriter.done(out.buffer(), TokenType.DONE, DoneStatus.ERROR, DoneStatus.CMD_NONE, 0);
        out.end();
        ackAttention();
    }

    /** Sends the attention acknowledgement message: a single DONE with DONE_ATTN. */
    void ackAttention() throws IOException {
        TokenWriter.done(out.buffer(), TokenType.DONE, DoneStatus.ATTN, DoneStatus.CMD_NONE, 0);
        out.end();
    }

    /** Sends the message; adds a final DONE if nothing produced one. */
    public void finish(int extraStatus) throws IOException {
        if (pendingToken < 0) {
            TokenWriter.done(out.buffer(), TokenType.DONE, extraStatus | (errorSeen ? DoneStatus.ERROR : 0),
                    DoneStatus.CMD_NONE, 0);
        } else {
            TokenWriter.done(out.buffer(), pendingToken, pendingStatus | extraStatus, pendingCmd, pendingCount);
            pendingToken = -1;
        }
        out.end();
    }
}
