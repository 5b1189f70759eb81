package io.deltafunnel.mssql.direct;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

import io.deltafunnel.tds.DoneStatus;
import io.deltafunnel.tds.TdsProtocolException;
import io.deltafunnel.tds.ServerMessage;
import io.deltafunnel.tds.TdsReader;
import io.deltafunnel.tds.TokenType;
import io.deltafunnel.tds.TypeId;
import io.deltafunnel.tds.TypeInfo;
import io.deltafunnel.tds.ValueCodec;

/**
 * One server reply (a whole TABULAR_RESULT message) read into its outcome: the rows of the first result set, the
 * affected-row count (DONE counts summed), and the first ERROR as a {@link DirectTdsException}. ENVCHANGE tokens are
 * handed to an {@link EnvChangeListener} as they are read, the feature ids of FEATUREEXTACK to a consumer; LOGINACK, ORDER, COLINFO, TABNAME,
 * RETURNSTATUS, RETURNVALUE and INFO are read past.
 *
 * @param rowCount the DONE/DONEPROC/DONEINPROC counts (those with DONE_COUNT set), summed
 * @param columns  the column names of the first result set (empty when there was none)
 * @param rows     the rows of the first result set, values decoded with tds-codec's {@link ValueCodec}
 * @param types    the TYPE_INFO of each column of the first result set (type, length, precision, scale, collation)
 */
public record DirectReply(long rowCount, List<String> columns, List<Object[]> rows, List<TypeInfo> types) {

    /** Receives each ENVCHANGE: its type and a reader positioned after the type byte, limited to its body. */
    @FunctionalInterface
    interface EnvChangeListener {
        void envChange(int type, TdsReader body) throws DirectTdsException;
    }

    /** Reads {@code message}; throws the first ERROR token (after reading the whole reply) as an exception. */
    static DirectReply read(byte[] message, EnvChangeListener env, IntConsumer featureAck)
            throws DirectTdsException {
        TdsReader r = new TdsReader(message);
        DirectTdsException error = null;
        long rows = 0;
        boolean doneError = false;
        List<String> columns = null;
        List<TypeInfo> types = null;
        List<TypeInfo> firstTypes = null;
        List<Object[]> data = new ArrayList<>();
        boolean firstResult = true;
        try {
            while (!r.atEnd()) {
                int token = r.readUnsignedByte();
                switch (token) {
                    case TokenType.ERROR, TokenType.INFO -> {
                        ServerMessage m = ServerMessage.read(r);
                        if (token == TokenType.ERROR && error == null) {
                            error = new DirectTdsException(m);
                        }
                    }
                    case TokenType.ENVCHANGE -> {
                        int len = r.readUnsignedShort();
                        TdsReader body = new TdsReader(r.readBytes(len));
                        env.envChange(body.readUnsignedByte(), body);
                    }
                    case TokenType.LOGINACK, TokenType.ORDER, TokenType.TABNAME, TokenType.COLINFO,
                            TokenType.RETURNVALUE -> r.skip(r.readUnsignedShort());
                    case TokenType.FEATUREEXTACK -> {
                        for (int id = r.readUnsignedByte(); id != 0xFF; id = r.readUnsignedByte()) {
                            featureAck.accept(id);
                            r.skip(r.readUnsignedInt());
                        }
                    }
                    case TokenType.RETURNSTATUS -> r.skip(4);
                    case TokenType.COLMETADATA -> {
                        List<String> names = new ArrayList<>();
                        List<TypeInfo> ts = new ArrayList<>();
                        int n = r.readUnsignedShort();
                        if (n != 0xFFFF) {
                            for (int i = 0; i < n; i++) {
                                r.skip(4 + 2); // user type, flags
                                TypeInfo t = TypeInfo.read(r);
                                if (t.typeId() == TypeId.TEXT || t.typeId() == TypeId.NTEXT
                                        || t.typeId() == TypeId.IMAGE) {
                                    int parts = r.readUnsignedByte();
                                    for (int p = 0; p < parts; p++) {
                                        r.readUsVarchar();
                                    }
                                }
                                ts.add(t);
                                names.add(r.readBVarchar());
                            }
                        }
                        if (columns != null) {
                            firstResult = false;
                        } else {
                            firstTypes = ts;
                        }
                        if (firstResult) {
                            columns = names;
                        }
                        types = ts;
                    }
                    case TokenType.ROW, TokenType.NBCROW -> {
                        if (types == null) {
                            throw new DirectTdsException("a row token before any COLMETADATA");
                        }
                        Object[] row = new Object[types.size()];
                        byte[] nulls = token == TokenType.NBCROW ? r.readBytes((types.size() + 7) / 8) : null;
                        for (int i = 0; i < row.length; i++) {
                            if (nulls != null && (nulls[i >> 3] & (1 << (i & 7))) != 0) {
                                continue;
                            }
                            row[i] = ValueCodec.read(r, types.get(i));
                        }
                        if (firstResult) {
                            data.add(row);
                        }
                    }
                    case TokenType.DONE, TokenType.DONEPROC, TokenType.DONEINPROC -> {
                        int status = r.readUnsignedShort();
                        r.readUnsignedShort(); // current command
                        long count = r.readLong();
                        if ((status & DoneStatus.COUNT) != 0) {
                            rows += count;
                        }
                        if ((status & DoneStatus.ERROR) != 0) {
                            doneError = true;
                        }
                    }
                    default -> throw error != null ? error
                            : new DirectDecodeException(String.format("unsupported reply token 0x%02X", token));
                }
            }
        } catch (TdsProtocolException e) {
            // a local decode failure: permanent, not a connection failure (see DirectSqlChannel)
            throw new DirectDecodeException("reply not decodable by the direct TDS client: " + e.getMessage());
        }
        if (error != null) {
            throw error;
        }
        if (doneError) {
            throw new DirectTdsException("the server reported an error without an ERROR token");
        }
        return new DirectReply(rows, columns == null ? List.of() : List.copyOf(columns), data,
                firstTypes == null ? List.of() : List.copyOf(firstTypes));
    }
}
